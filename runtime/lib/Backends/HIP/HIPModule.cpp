//===- HIPModule.cpp - AMDGPU code objects on a HIP device ----------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Loads the code objects of the amdgpu lowering target with
/// hipModuleLoadData; drains each module's hidden printf buffer after the
/// device's work, printing the records and turning the assert and trap
/// flags into Status.
///
//===----------------------------------------------------------------------===//

#include "Backends/HIP/HIPDevice.h"
#include "Backends/HIP/HIPPrintf.h"
#include "Core/Log.h"

#include "hetgpu/ABI/AMDGPUDevice.h"

#include <algorithm>
#include <cstring>

using namespace hetgpu;
using namespace hetgpu::rt;
using namespace hetgpu::rt::hip;

HIPModule::HIPModule(HIPDevice &Dev, hipModule_t M,
                     const container::ModuleInfo &Info, void *PrintfBuf,
                     size_t PrintfSize)
    : Dev(Dev), Mod(M), Info(Info), PrintfBuf(PrintfBuf),
      PrintfSize(PrintfSize) {}

HIPModule::~HIPModule() {
  Dev.forget(this);
  DeviceScope S(Dev.R, Dev.Index);
  Dev.R.ModuleUnload(Mod);
}

Status HIPModule::getKernel(const std::string &Name, Kernel *&Out) {
  std::lock_guard<std::mutex> L(Mu);
  auto It = Kernels.find(Name);
  if (It != Kernels.end()) {
    Out = It->second.get();
    return Status::ok();
  }
  const container::KernelInfo *KI = Info.findKernel(Name);
  if (!KI)
    return Status(ErrorCode::InvalidValue,
                  "kernel '" + Name + "' is not in the module's kernel table");
  DeviceScope S(Dev.R, Dev.Index);
  hipFunction_t F = nullptr;
  if (Status St = check(Dev.R, Dev.R.ModuleGetFunction(&F, Mod, Name.c_str()),
                        "hipModuleGetFunction(" + Name + ")"))
    return St;
  auto K = std::make_unique<HIPKernel>(F, *KI);
  Out = K.get();
  Kernels.emplace(Name, std::move(K));
  return Status::ok();
}

Status HIPModule::getGlobal(const std::string &Name, void *&Addr,
                            size_t &Size) {
  DeviceScope S(Dev.R, Dev.Index);
  hipDeviceptr_t P = nullptr;
  size_t Bytes = 0;
  hipError_t E = Dev.R.ModuleGetGlobal(&P, &Bytes, Mod, Name.c_str());
  if (E != hipSuccess)
    return Status(E == hipErrorNotFound ? ErrorCode::InvalidSymbol
                                        : mapResult(E),
                  "hipModuleGetGlobal(" + Name + "): " + Dev.R.describe(E));
  Addr = P;
  Size = Bytes;
  return Status::ok();
}

Status HIPModule::drain() {
  namespace pf = amdgpu_printf;
  if (!PrintfBuf || PrintfSize < pf::DataOffset)
    return Status::ok();
  const Runtime &R = Dev.R;
  DeviceScope S(R, Dev.Index);
  unsigned char Header[pf::DataOffset];
  if (Status St = check(
          R, R.Memcpy(Header, PrintfBuf, sizeof(Header), hipMemcpyDeviceToHost),
          "reading the device printf buffer"))
    return St;
  uint64_t Head;
  uint32_t Flags;
  std::memcpy(&Head, Header, 8);
  std::memcpy(&Flags, Header + 8, 4);
  if (Head == 0 && Flags == 0)
    return Status::ok();
  uint64_t Capacity = PrintfSize - pf::DataOffset;
  uint64_t Bytes = std::min<uint64_t>(Head, Capacity);
  if (Bytes) {
    std::vector<unsigned char> Data(Bytes);
    if (Status St =
            check(R,
                  R.Memcpy(Data.data(),
                           static_cast<char *>(PrintfBuf) + pf::DataOffset,
                           Bytes, hipMemcpyDeviceToHost),
                  "reading the device printf buffer"))
      return St;
    printRecords(Data.data(), Data.size());
  }
  if (Head > Capacity)
    log(LogLevel::Warn,
        "hip: device printf buffer full: " + std::to_string(Head - Capacity) +
            " bytes of output were dropped");
  std::memset(Header, 0, sizeof(Header));
  if (Status St = check(
          R, R.Memcpy(PrintfBuf, Header, sizeof(Header), hipMemcpyHostToDevice),
          "clearing the device printf buffer"))
    return St;
  if (Flags & pf::FlagAssert)
    return Status(ErrorCode::Assert, "device-side assert triggered");
  if (Flags & pf::FlagTrap)
    return Status(ErrorCode::LaunchFailure, "__trap() executed on the device");
  return Status::ok();
}

Status HIPDevice::loadModule(const std::vector<char> &Binary,
                             const container::ModuleInfo &Info,
                             std::unique_ptr<Module> &Out) {
  static const char ElfMagic[4] = {0x7f, 'E', 'L', 'F'};
  if (Binary.size() < 4 || std::memcmp(Binary.data(), ElfMagic, 4) != 0)
    return Status(ErrorCode::NoBinaryForGpu,
                  "hipModuleLoadData: the amdgpu translation is not an ELF "
                  "code object");
  DeviceScope S(R, Index);
  hipModule_t M = nullptr;
  hipError_t E = R.ModuleLoadData(&M, Binary.data());
  if (E != hipSuccess) {
    ErrorCode C = mapResult(E);
    return Status(C == ErrorCode::DriverFailure ? ErrorCode::NoBinaryForGpu : C,
                  "hipModuleLoadData (" + Props.Arch + "): " + R.describe(E));
  }
  // The hidden printf buffer exists when a kernel prints, asserts or traps.
  hipDeviceptr_t Buf = nullptr;
  size_t BufSize = 0;
  if (R.ModuleGetGlobal(&Buf, &BufSize, M, amdgpu_abi::PrintfBufferName) !=
      hipSuccess) {
    Buf = nullptr;
    BufSize = 0;
  }
  auto Mod = std::make_unique<HIPModule>(*this, M, Info, Buf, BufSize);
  {
    std::lock_guard<std::mutex> L(ModulesMu);
    Modules.insert(Mod.get());
  }
  Out = std::move(Mod);
  return Status::ok();
}

Status HIPDevice::drainAll() {
  std::lock_guard<std::mutex> L(ModulesMu);
  Status First;
  for (HIPModule *M : Modules)
    if (Status St = M->drain(); St && !First)
      First = St;
  return First;
}
