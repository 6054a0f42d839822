//===- SPIRVModule.cpp - A hetGPU SPIR-V module loaded on a device --------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The module setup, printf, status-word and lookup logic the OpenCL and
/// Level Zero backends share (see SPIRVModule.h).
///
//===----------------------------------------------------------------------===//

#include "Backends/SPIRV/SPIRVModule.h"
#include "Core/Log.h"
#include "Core/Printf.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <vector>

using namespace hetgpu;
using namespace hetgpu::rt;

namespace {

/// A size from the environment, at least \p Min.
uint64_t envBytes(const char *Name, uint64_t Default, uint64_t Min) {
  if (const char *E = getenv(Name))
    return std::max<uint64_t>(strtoull(E, nullptr, 0), Min);
  return Default;
}

} // namespace

SPIRVModule::SPIRVModule(std::string Prefix, std::string DeviceName,
                         const container::ModuleInfo &MI)
    : Prefix(std::move(Prefix)), DeviceName(std::move(DeviceName)) {
  Info.Kind = MI.Kind;
  Info.Kernels = MI.Kernels;
  Info.Globals = MI.Globals;
}

void SPIRVModule::releaseResources() {
  Kernels.clear();
  if (Block)
    freeMemory(Use::Block, Block);
  if (PrintfBuffer)
    freeMemory(Use::Printf, PrintfBuffer);
  if (Heap)
    freeMemory(Use::Heap, Heap);
  Block = PrintfBuffer = Heap = nullptr;
}

/// The info kernel writes [u64 length][text] into a buffer of the capacity
/// it is given; a longer text says its length, and we try again.
Status SPIRVModule::readTable() {
  std::string Text;
  for (uint64_t Cap = 16384;;) {
    void *Buf = nullptr;
    if (Status S = allocateMemory(Use::Scratch, Cap, Buf))
      return S;
    Status S = runInfoKernel(Buf, Cap);
    uint64_t Len = 0;
    if (S.isOk())
      S = copyOut(&Len, Buf, sizeof Len);
    bool Fits = Len + 8 <= Cap;
    if (S.isOk() && Fits) {
      Text.resize(Len);
      S = copyOut(Text.data(), static_cast<char *>(Buf) + 8, Len);
    }
    freeMemory(Use::Scratch, Buf);
    if (S)
      return S;
    if (Fits)
      break;
    Cap = Len + 8;
  }
  std::string Err;
  if (!spirv_abi::parseModuleTable(Text, Table, Err))
    return Status(ErrorCode::NoBinaryForGpu, Prefix + ": " + Err);
  return Status::ok();
}

Status SPIRVModule::setUpPrintf() {
  uint64_t Cap = envBytes("HETGPU_PRINTF_BUFFER_SIZE", 1 << 20, 4096);
  if (Status S = allocateMemory(Use::Printf, Cap + spirv_abi::PrintfHeaderSize,
                                PrintfBuffer))
    return S;
  PrintfCapacity = Cap;
  uint64_t Header[2] = {0, Cap};
  if (Status S = copyIn(PrintfBuffer, Header, sizeof Header))
    return S;
  uint64_t Addr = reinterpret_cast<uintptr_t>(PrintfBuffer);
  return copyIn(static_cast<char *>(Block) + spirv_abi::PrintfBufferOffset,
                &Addr, sizeof Addr);
}

Status SPIRVModule::setUpHeap() {
  uint64_t Size = envBytes("HETGPU_MALLOC_HEAP_SIZE", 8 << 20, 4096);
  if (Status S = allocateMemory(Use::Heap, Size, Heap))
    return S;
  uint64_t Words[2] = {reinterpret_cast<uintptr_t>(Heap), Size};
  return copyIn(static_cast<char *>(Block) + spirv_abi::HeapBaseOffset, Words,
                sizeof Words);
}

Status SPIRVModule::initialize() {
  if (Status S = readTable())
    return S;
  if (Status S = allocateMemory(Use::Block, Table.BlockBytes, Block))
    return S;
  // The clock()/clock64() counter starts at the CPU device's clock (steady
  // nanoseconds): a kernel that read clock64() on the CPU device and is
  // resumed here after a live migration (a spin `while (clock64() - t0 <
  // n)`) sees its clock go on instead of back to 0, where the difference
  // would stay negative for hours.
  std::vector<char> Zero(Table.BlockBytes, 0);
  if (Zero.size() >= spirv_abi::ClockOffset + 8) {
    uint64_t Now =
        uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                     std::chrono::steady_clock::now().time_since_epoch())
                     .count());
    memcpy(Zero.data() + spirv_abi::ClockOffset, &Now, sizeof Now);
  }
  if (Status S = copyIn(Block, Zero.data(), Zero.size()))
    return S;
  if (!Table.Formats.empty())
    if (Status S = setUpPrintf())
      return S;
  if (Table.UsesHeap)
    if (Status S = setUpHeap())
      return S;
  return runInitKernel(Block);
}

void SPIRVModule::drainPrintf() {
  std::lock_guard<std::mutex> L(M);
  if (!PrintfBuffer)
    return;
  char *Buf = static_cast<char *>(PrintfBuffer);
  uint64_t Written = 0;
  if (copyOut(&Written, Buf, sizeof Written) || Written == 0)
    return;
  uint64_t Used = std::min(Written, PrintfCapacity);
  std::vector<char> Recs(Used);
  if (copyOut(Recs.data(), Buf + spirv_abi::PrintfHeaderSize, Used))
    return;
  uint64_t Zero = 0;
  copyIn(Buf, &Zero, sizeof Zero);
  spirv_abi::forEachPrintfRecord(Recs.data(), Used, Table.Formats,
                                 emitDevicePrintf);
  if (Written > PrintfCapacity && !PrintfOverflowReported) {
    PrintfOverflowReported = true;
    log(LogLevel::Warn, Prefix + ": the device printf buffer (" +
                            std::to_string(PrintfCapacity) +
                            " bytes, HETGPU_PRINTF_BUFFER_SIZE) overflowed; "
                            "output was lost");
  }
}

Status SPIRVModule::failure() {
  if (!Block)
    return Status::ok();
  uint32_t Word = 0;
  if (Status S =
          copyOut(&Word, static_cast<char *>(Block) + spirv_abi::StatusOffset,
                  sizeof Word))
    return S;
  if (Word == spirv_abi::StatusAssert)
    return Status(ErrorCode::Assert,
                  Prefix + ": a device-side assertion failed");
  if (Word == spirv_abi::StatusTrap)
    return Status(ErrorCode::LaunchFailure,
                  Prefix + ": a kernel executed __trap()");
  return Status::ok();
}

Status SPIRVModule::clearFailure() {
  if (!Block)
    return Status::ok();
  uint32_t Zero = 0;
  return copyIn(static_cast<char *>(Block) + spirv_abi::StatusOffset, &Zero,
                sizeof Zero);
}

Status SPIRVModule::getKernel(const std::string &Name, Kernel *&Out) {
  std::lock_guard<std::mutex> L(M);
  auto It = Kernels.find(Name);
  if (It != Kernels.end()) {
    Out = It->second.get();
    return Status::ok();
  }
  auto U = Table.Unsupported.find(Name);
  if (U != Table.Unsupported.end())
    return Status(ErrorCode::NoBinaryForGpu, Prefix + ": kernel " + Name +
                                                 " cannot run on " +
                                                 DeviceName + ": " + U->second);
  const container::KernelInfo *KI = Info.findKernel(Name);
  if (!KI)
    return Status(ErrorCode::InvalidValue,
                  Prefix + ": no kernel " + Name + " in the module");
  std::unique_ptr<Kernel> K;
  if (Status S = createKernel(Name, *KI, K))
    return S;
  Out = K.get();
  Kernels[Name] = std::move(K);
  return Status::ok();
}

Status SPIRVModule::getGlobal(const std::string &Name, void *&Addr,
                              size_t &Size) {
  auto It = Table.Globals.find(Name);
  if (It == Table.Globals.end())
    return Status(ErrorCode::InvalidSymbol,
                  Prefix + ": no device variable " + Name + " in the module");
  Addr = static_cast<char *>(Block) + It->second.first;
  Size = It->second.second;
  return Status::ok();
}
