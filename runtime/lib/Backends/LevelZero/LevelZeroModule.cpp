//===- LevelZeroModule.cpp - Level Zero modules from hetGPU SPIR-V --------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Loads a module with zeModuleCreate (the build log goes into the error).
/// The setup that follows (ABI/SPIRVKernel.h) is SPIRVModule's; this file
/// gives it shared USM (copies are plain memcpy), the device-USM heap and
/// the two helper kernels, and creates kernels.
///
//===----------------------------------------------------------------------===//

#include "Backends/LevelZero/LevelZeroDevice.h"

#include <cstring>

using namespace hetgpu;
using namespace hetgpu::rt;
using namespace hetgpu::rt::ze;

//===----------------------------------------------------------------------===//
// Building the module
//===----------------------------------------------------------------------===//

Status ZEDevice::loadModule(const std::vector<char> &Binary,
                            const container::ModuleInfo &Info,
                            std::unique_ptr<Module> &Out) {
  ze_module_desc_t MD;
  MD.inputSize = Binary.size();
  MD.pInputModule = reinterpret_cast<const uint8_t *>(Binary.data());
  MD.pBuildFlags = "";
  ze_module_handle_t H = nullptr;
  ze_module_build_log_handle_t Log = nullptr;
  ze_result_t R = A.zeModuleCreate(Ctx, Dev, &MD, &H, &Log);
  if (R != ZE_RESULT_SUCCESS) {
    std::string Text;
    size_t N = 0;
    if (Log &&
        A.zeModuleBuildLogGetString(Log, &N, nullptr) == ZE_RESULT_SUCCESS &&
        N > 1) {
      Text.resize(N);
      A.zeModuleBuildLogGetString(Log, &N, Text.data());
      while (!Text.empty() && Text.back() == '\0')
        Text.pop_back();
    }
    if (Log)
      A.zeModuleBuildLogDestroy(Log);
    Status S = zeStatus(R, "zeModuleCreate on " + Props.Name);
    S.Code = ErrorCode::NoBinaryForGpu;
    if (!Text.empty())
      S.Message += "; build log:\n" + Text;
    return S;
  }
  if (Log)
    A.zeModuleBuildLogDestroy(Log);
  auto Mod = std::make_unique<ZEModule>(*this, H, Info);
  if (Status S = Mod->initialize())
    return S;
  {
    std::lock_guard<std::mutex> G(M);
    Modules.insert(Mod.get());
  }
  Out = std::move(Mod);
  return Status::ok();
}

//===----------------------------------------------------------------------===//
// ZEModule: what SPIRVModule needs from Level Zero
//===----------------------------------------------------------------------===//

ZEModule::ZEModule(ZEDevice &D, ze_module_handle_t H,
                   const container::ModuleInfo &Info)
    : SPIRVModule("level-zero", D.Props.Name, Info), Dev(D), H(H) {}

ZEModule::~ZEModule() {
  Dev.synchronize();
  {
    std::lock_guard<std::mutex> G(Dev.M);
    Dev.Modules.erase(this);
  }
  releaseResources();
  Dev.A.zeModuleDestroy(H);
}

Status ZEModule::allocateMemory(Use U, size_t Bytes, void *&Ptr) {
  if (U != Use::Heap)
    return Dev.allocateShared(Bytes, Ptr);
  ze_device_mem_alloc_desc_t DD;
  return zeStatus(
      Dev.A.zeMemAllocDevice(Dev.Ctx, &DD, Bytes, 256, Dev.Dev, &Ptr),
      "zeMemAllocDevice(heap)");
}

void ZEModule::freeMemory(Use, void *Ptr) { Dev.A.zeMemFree(Dev.Ctx, Ptr); }

// Shared USM: the host reads and writes it directly once the device's work
// is done.
Status ZEModule::copyIn(void *Dst, const void *Src, size_t Bytes) {
  std::memcpy(Dst, Src, Bytes);
  return Status::ok();
}

Status ZEModule::copyOut(void *Dst, const void *Src, size_t Bytes) {
  std::memcpy(Dst, Src, Bytes);
  return Status::ok();
}

Status ZEModule::runHelperKernel(const char *Name, void *Ptr,
                                 const uint64_t *Cap) {
  ze_kernel_desc_t KD;
  KD.pKernelName = Name;
  ze_kernel_handle_t K;
  if (Status S = zeStatus(Dev.A.zeKernelCreate(H, &KD, &K),
                          std::string("zeKernelCreate(") + Name + ")"))
    return S;
  Dev.A.zeKernelSetArgumentValue(K, 0, sizeof Ptr, &Ptr);
  if (Cap)
    Dev.A.zeKernelSetArgumentValue(K, 1, sizeof *Cap, Cap);
  Status S = Dev.runHelper(K);
  Dev.A.zeKernelDestroy(K);
  return S;
}

Status ZEModule::runInfoKernel(void *Buf, uint64_t Cap) {
  return runHelperKernel(spirv_abi::InfoKernel, Buf, &Cap);
}

Status ZEModule::runInitKernel(void *Block) {
  return runHelperKernel(spirv_abi::InitKernel, Block, nullptr);
}

Status ZEModule::createKernel(const std::string &Name,
                              const container::KernelInfo &KI,
                              std::unique_ptr<Kernel> &Out) {
  ze_kernel_desc_t KD;
  std::string Entry = spirv_abi::entryPointName(Name);
  KD.pKernelName = Entry.c_str();
  ze_kernel_handle_t K;
  if (Status S = zeStatus(Dev.A.zeKernelCreate(H, &KD, &K),
                          "zeKernelCreate(" + Name + ")"))
    return S;
  Out = std::make_unique<ZEKernel>(Dev.A, K, KI, block());
  return Status::ok();
}
