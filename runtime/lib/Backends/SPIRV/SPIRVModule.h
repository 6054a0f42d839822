//===- SPIRVModule.h - A hetGPU SPIR-V module loaded on a device -*- C++
//-*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// What the OpenCL and Level Zero backends do alike with a SPIR-V module of
/// lib/Targets/SPIRV (formats in include/hetgpu/ABI/SPIRVKernel.h), written
/// once: reading the module table back through the info kernel, allocating
/// and clearing the globals block, the printf buffer and the malloc() heap,
/// running the init kernel; printing the printf records after the device's
/// work; reading and clearing the assert/trap status word; reporting kernels
/// the module left out; getKernel's cache and getGlobal.
///
/// A backend derives its module class from SPIRVModule and implements the
/// few API calls that differ (allocating memory the host can copy to and
/// from, those copies, running the two helper kernels, creating a kernel).
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_RUNTIME_BACKENDS_SPIRV_SPIRVMODULE_H
#define HETGPU_RUNTIME_BACKENDS_SPIRV_SPIRVMODULE_H

#include "Backends/SPIRV/SPIRVModuleTable.h"
#include "Core/Device.h"

#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace hetgpu {
namespace rt {

class SPIRVModule : public Module {
public:
  /// The cached kernel, or the backend's createKernel(); kernels the module
  /// left out say why (NoBinaryForGpu).
  Status getKernel(const std::string &Name, Kernel *&Out) final;
  /// A variable's place in the globals block.
  Status getGlobal(const std::string &Name, void *&Addr, size_t &Size) final;

  /// Reads the module table, sets up the globals block, printf buffer and
  /// heap, and runs the init kernel. Called once by the backend's
  /// loadModule() after the module was built.
  Status initialize();

  /// Prints the printf records written since the last call, then empties
  /// the buffer. Called once the device's work is done.
  void drainPrintf();
  /// A device-side assert or trap recorded in the globals block.
  Status failure();
  /// Forgets a recorded assert or trap (cudaDeviceReset).
  Status clearFailure();

  /// The globals block (device memory, passed to every kernel).
  void *block() const { return Block; }
  const spirv_abi::ModuleTable &table() const { return Table; }

protected:
  /// \p Prefix names the backend in messages ("opencl"); \p DeviceName
  /// the device. \p Info: the container's kernels and globals.
  SPIRVModule(std::string Prefix, std::string DeviceName,
              const container::ModuleInfo &Info);
  /// Frees the globals block, printf buffer and heap and the kernels;
  /// called by the backend's destructor before it destroys the module.
  void releaseResources();

  //===--- What the backend implements -----------------------------------===//

  enum class Use { Scratch, Block, Printf, Heap };
  /// Device memory for \p U; all but Heap must be reachable by copyIn and
  /// copyOut.
  virtual Status allocateMemory(Use U, size_t Bytes, void *&Ptr) = 0;
  virtual void freeMemory(Use U, void *Ptr) = 0;
  /// Blocking copies between host memory and memory of allocate().
  virtual Status copyIn(void *Dst, const void *Src, size_t Bytes) = 0;
  virtual Status copyOut(void *Dst, const void *Src, size_t Bytes) = 0;
  /// Runs the info kernel (ABI/SPIRVKernel.h) with (Buf, Cap), one
  /// work-item, and waits; NoBinaryForGpu when the module has none.
  virtual Status runInfoKernel(void *Buf, uint64_t Cap) = 0;
  /// Runs the init kernel with the globals block, one work-item, and waits.
  virtual Status runInitKernel(void *Block) = 0;
  /// The backend's kernel \p Name of the container's \p Info.
  virtual Status createKernel(const std::string &Name,
                              const container::KernelInfo &Info,
                              std::unique_ptr<Kernel> &Out) = 0;

  std::string Prefix;
  std::string DeviceName;
  container::ModuleInfo Info; ///< kernels and globals (IR dropped)
  spirv_abi::ModuleTable Table;

private:
  Status readTable();
  Status setUpPrintf();
  Status setUpHeap();

  void *Block = nullptr;        ///< globals block
  void *PrintfBuffer = nullptr; ///< header and records
  uint64_t PrintfCapacity = 0;
  bool PrintfOverflowReported = false;
  void *Heap = nullptr; ///< device malloc() heap
  std::map<std::string, std::unique_ptr<Kernel>> Kernels;
  std::mutex M; ///< Kernels and the printf buffer
};

} // namespace rt
} // namespace hetgpu

#endif // HETGPU_RUNTIME_BACKENDS_SPIRV_SPIRVMODULE_H
