//===- NVIDIAModule.cpp - PTX modules on an NVIDIA device -----------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Loads the cubin that finalizeBinary() made of the nvptx lowering target's
/// PTX (NVIDIACubin.cpp), or that PTX itself, with cuModuleLoadDataEx (the
/// JIT log goes into the error); kernels are its functions, variables its
/// globals.
///
//===----------------------------------------------------------------------===//

#include "Backends/NVIDIA/NVIDIADevice.h"
#include "Core/Log.h"

#include <cstring>

using namespace hetgpu;
using namespace hetgpu::rt;
using namespace hetgpu::rt::cu;

NVIDIAModule::~NVIDIAModule() {
  ContextScope S(D, Ctx);
  D.ModuleUnload(Mod);
}

Status NVIDIAModule::getKernel(const std::string &Name, Kernel *&Out) {
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
  ContextScope S(D, Ctx);
  CUfunction F = nullptr;
  if (Status St = check(D, D.ModuleGetFunction(&F, Mod, Name.c_str()),
                        ("cuModuleGetFunction(" + Name + ")").c_str()))
    return St;
  auto K = std::make_unique<NVIDIAKernel>(F, *KI);
  Out = K.get();
  Kernels.emplace(Name, std::move(K));
  return Status::ok();
}

Status NVIDIAModule::getGlobal(const std::string &Name, void *&Addr,
                               size_t &Size) {
  ContextScope S(D, Ctx);
  CUdeviceptr P = 0;
  size_t Bytes = 0;
  CUresult R = D.ModuleGetGlobal(&P, &Bytes, Mod, Name.c_str());
  if (R != CUDA_SUCCESS)
    return Status(R == CUDA_ERROR_NOT_FOUND ? ErrorCode::InvalidSymbol
                                            : mapResult(R),
                  "cuModuleGetGlobal(" + Name + "): " + D.describe(R));
  Addr = reinterpret_cast<void *>(static_cast<uintptr_t>(P));
  Size = Bytes;
  return Status::ok();
}

Status NVIDIADevice::loadModule(const std::vector<char> &Binary,
                                const container::ModuleInfo &Info,
                                std::unique_ptr<Module> &Out) {
  // A cubin from finalizeBinary(), or NUL-terminated PTX text.
  bool Cubin = isCubin(Binary);
  std::string PTX(Binary.begin(), Binary.end());
  if (!Cubin && PTX.find(".target") == std::string::npos)
    return Status(ErrorCode::NoBinaryForGpu,
                  "cuModuleLoadDataEx: the nvptx translation is neither a "
                  "cubin nor PTX text");
  ContextScope S(D, Ctx);
  char InfoLog[8192] = {0}, ErrorLog[8192] = {0};
  float WallMs = 0;
  CUjit_option Opts[] = {CU_JIT_INFO_LOG_BUFFER,
                         CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
                         CU_JIT_ERROR_LOG_BUFFER,
                         CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, CU_JIT_WALL_TIME};
  void *Vals[] = {
      InfoLog, reinterpret_cast<void *>(uintptr_t(sizeof(InfoLog))), ErrorLog,
      reinterpret_cast<void *>(uintptr_t(sizeof(ErrorLog))), nullptr};
  CUmodule M = nullptr;
  const void *Image =
      Cubin ? static_cast<const void *>(Binary.data()) : PTX.c_str();
  CUresult R = D.ModuleLoadDataEx(&M, Image, 5, Opts, Vals);
  // Output options overwrite their value slot: the wall time is a float
  // stored in the pointer-sized slot itself.
  std::memcpy(&WallMs, &Vals[4], sizeof(float));
  if (R != CUDA_SUCCESS) {
    std::string Msg = "cuModuleLoadDataEx (" + Props.Arch + ", " +
                      Props.Features + "): " + D.describe(R);
    if (ErrorLog[0])
      Msg += ": " + std::string(ErrorLog);
    if (InfoLog[0])
      Msg += " [info: " + std::string(InfoLog) + "]";
    ErrorCode C = mapResult(R);
    return Status(C == ErrorCode::DriverFailure ? ErrorCode::NoBinaryForGpu : C,
                  Msg);
  }
  if (logEnabled(LogLevel::Info))
    log(LogLevel::Info, std::string("nvidia: ") +
                            (Cubin ? "cubin load" : "PTX JIT") + " of " +
                            std::to_string(Binary.size()) +
                            " bytes for " + Props.Arch + " took " +
                            std::to_string(WallMs) + " ms" +
                            (InfoLog[0] ? std::string(": ") + InfoLog : ""));
  Out = std::make_unique<NVIDIAModule>(D, Ctx, M, Info);
  return Status::ok();
}
