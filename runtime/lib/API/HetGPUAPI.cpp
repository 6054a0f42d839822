//===- HetGPUAPI.cpp - hetGPU's own C API (hetgpu/hetgpu.h) ---------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Device/backend introspection, JIT cache information and its fill
/// (hetgpuPrecompile).
///
//===----------------------------------------------------------------------===//

#include "hetgpu/hetgpu.h"

#include "Core/CudaErrors.h"
#include "Core/KernelMemCheck.h"
#include "Core/Prefetch.h"
#include "Core/Runtime.h"
#include "Core/Translator.h"

#include <string>

using namespace hetgpu;
using namespace hetgpu::rt;

#define HETGPU_API extern "C" __attribute__((visibility("default")))

HETGPU_API const char *hetgpuGetVersion(void) {
  return "hetGPU 0.1 (CUDA runtime API 12.8)";
}

HETGPU_API int hetgpuGetBackendCount(void) {
  return static_cast<int>(allBackendNames().size());
}

HETGPU_API int hetgpuGetBackendInfo(int Index, const char **Name, int *Built,
                                    int *Probed, int *NumDevices,
                                    const char **Status) {
  Runtime &R = Runtime::get();
  R.init();
  const auto &Reports = R.backendReports();
  if (Index < 0 || Index >= static_cast<int>(Reports.size()))
    return cudaErrorInvalidValue;
  const BackendReport &B = Reports[Index];
  if (Name)
    *Name = B.Name.c_str();
  if (Built)
    *Built = B.Built;
  if (Probed)
    *Probed = B.Probed;
  if (NumDevices)
    *NumDevices = static_cast<int>(B.NumDevices);
  if (Status)
    *Status = B.Discovery ? B.Discovery.Message.c_str()
                          : (B.NumDevices ? "ok" : "no devices");
  return 0;
}

HETGPU_API const char *hetgpuGetBackendVersion(int Index) {
  Runtime &R = Runtime::get();
  R.init();
  const auto &Reports = R.backendReports();
  if (Index < 0 || Index >= static_cast<int>(Reports.size()) ||
      Reports[Index].Version.empty())
    return nullptr;
  return Reports[Index].Version.c_str();
}

HETGPU_API int hetgpuGetDeviceInfo(int Device, const char **Backend,
                                   const char **Target, const char **Arch) {
  Runtime &R = Runtime::get();
  if (cudaError_t E = R.init())
    return E;
  DeviceContext *Ctx = R.context(Device);
  if (!Ctx)
    return cudaErrorInvalidDevice;
  const DeviceProperties &P = Ctx->Dev->properties();
  if (Backend)
    *Backend = Ctx->Backend.c_str();
  if (Target)
    *Target = P.Target.c_str();
  if (Arch)
    *Arch = P.Arch.c_str();
  return 0;
}

HETGPU_API const char *hetgpuGetCacheDir(void) {
  static const std::string Dir = cacheDirectory();
  return Dir.c_str();
}

HETGPU_API const char *hetgpuGetTranslatorPath(void) {
  static const std::string Path = translatorPath();
  return Path.c_str();
}

HETGPU_API int hetgpuTranslatorLoaded(void) { return translatorLoaded(); }

HETGPU_API int hetgpuPrecompile(int Device, const void *Data, size_t Size,
                                unsigned *Cached, unsigned *Images,
                                unsigned *Translated, const char **Why) {
  static thread_local std::string Message;
  unsigned Counts[3] = {0, 0, 0}; // by TranslationSource
  auto Fail = [&](int E, const std::string &M) {
    Message = M;
    if (Why)
      *Why = Message.c_str();
    return E;
  };
  Runtime &R = Runtime::get();
  if (cudaError_t E = R.init())
    return Fail(E, "no device");
  DeviceContext *Ctx = R.context(Device);
  if (!Ctx)
    return Fail(cudaErrorInvalidDevice, "no device " + std::to_string(Device));
  container::Container C;
  std::string Error;
  if (!container::read(Data, Size, C, Error))
    return Fail(cudaErrorInvalidKernelImage, Error);
  unsigned Flags = moduleTranslateFlags();
  for (size_t I = 0; I < C.Modules.size(); ++I) {
    const container::ModuleInfo &MI = C.Modules[I];
    if (MI.Kind != container::ModuleKind::HetIRBitcode)
      return Fail(cudaErrorInvalidKernelImage,
                  "module " + std::to_string(I) +
                      " is relocatable hetIR (device-link it first)");
    // What the first launches would ask for (Runtime::getKernel).
    std::vector<std::vector<std::string>> Parts;
    unsigned GroupSize = kernelGroupSize(MI);
    if (GroupSize && !chooseImage(MI, *Ctx->Dev, 0, false)) {
      for (size_t G = 0; G * GroupSize < MI.Kernels.size(); ++G)
        Parts.push_back(kernelGroup(MI, int(G)));
    } else {
      Parts.emplace_back();
    }
    for (const std::vector<std::string> &Kernels : Parts) {
      std::vector<char> Binary;
      TranslationSource Src = TranslationSource::Translated;
      if (Status S = getTranslation(MI, *Ctx->Dev, Kernels.empty() ? Flags : 0,
                                    Binary, Kernels, &Src))
        return Fail(toCudaError(S.Code), S.Message);
      ++Counts[static_cast<int>(Src)];
    }
  }
  if (Cached)
    *Cached = Counts[int(TranslationSource::Cache)];
  if (Images)
    *Images = Counts[int(TranslationSource::Image)];
  if (Translated)
    *Translated = Counts[int(TranslationSource::Translated)];
  return 0;
}
