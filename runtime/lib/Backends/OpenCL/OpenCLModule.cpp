//===- OpenCLModule.cpp - OpenCL programs from hetGPU SPIR-V --------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Loads a module: clCreateProgramWithIL, or SPIR 1.2 through llvm-spirv -r
/// (SPIRVToSPIR.h), then clBuildProgram. The setup that follows
/// (ABI/SPIRVKernel.h) is SPIRVModule's; this file gives it SVM memory,
/// copies through the device's internal queue and the two helper kernels,
/// and creates kernels, checking their argument count.
///
//===----------------------------------------------------------------------===//

#include "Backends/OpenCL/OpenCLDevice.h"
#include "Backends/OpenCL/SPIRVToSPIR.h"

#include <cstring>

using namespace hetgpu;
using namespace hetgpu::rt;
using namespace hetgpu::rt::cl;

//===----------------------------------------------------------------------===//
// Building the program
//===----------------------------------------------------------------------===//

Status CLDevice::loadModule(const std::vector<char> &Binary,
                            const container::ModuleInfo &Info,
                            std::unique_ptr<Module> &Out) {
  cl_int E = CL_SUCCESS;
  cl_program P = nullptr;
  const char *Options = "";
  std::string Path;
  if (UseIL) {
    Path = "SPIR-V (clCreateProgramWithIL)";
    P = A.clCreateProgramWithIL(Ctx, Binary.data(), Binary.size(), &E);
    if (!P)
      return Status(ErrorCode::NoBinaryForGpu,
                    "opencl: clCreateProgramWithIL failed on " + Props.Name +
                        ": " + errorName(E));
  } else {
    Path = "SPIR 1.2 (llvm-spirv -r, clCreateProgramWithBinary)";
    std::vector<char> BC;
    std::string Err;
    if (!translateSPIRVToSPIR(Binary, BC, Err))
      return Status(ErrorCode::NoBinaryForGpu,
                    "opencl: cannot convert SPIR-V to SPIR for " + Props.Name +
                        ": " + Err);
    size_t Size = BC.size();
    const unsigned char *Ptr =
        reinterpret_cast<const unsigned char *>(BC.data());
    cl_int BinStatus = CL_SUCCESS;
    P = A.clCreateProgramWithBinary(Ctx, 1, &Dev, &Size, &Ptr, &BinStatus, &E);
    if (!P)
      return Status(ErrorCode::NoBinaryForGpu,
                    "opencl: clCreateProgramWithBinary (SPIR) failed on " +
                        Props.Name + ": " + errorName(E));
    Options = "-x spir -spir-std=1.2";
  }
  if (cl_int R = A.clBuildProgram(P, 1, &Dev, Options, nullptr, nullptr)) {
    size_t N = 0;
    std::string Log;
    if (A.clGetProgramBuildInfo(P, Dev, CL_PROGRAM_BUILD_LOG, 0, nullptr, &N) ==
            CL_SUCCESS &&
        N > 1) {
      Log.resize(N);
      A.clGetProgramBuildInfo(P, Dev, CL_PROGRAM_BUILD_LOG, N, Log.data(),
                              nullptr);
      while (!Log.empty() && Log.back() == '\0')
        Log.pop_back();
    }
    A.clReleaseProgram(P);
    return Status(ErrorCode::NoBinaryForGpu,
                  "opencl: building the module as " + Path + " on " +
                      Props.Name + " failed: " + errorName(R) +
                      (Log.empty() ? "" : "; build log:\n" + Log));
  }
  auto Mod = std::make_unique<CLModule>(*this, P, Info);
  if (Status S = Mod->initialize())
    return S;
  {
    std::lock_guard<std::mutex> L(M);
    Modules.insert(Mod.get());
  }
  Out = std::move(Mod);
  return Status::ok();
}

//===----------------------------------------------------------------------===//
// CLModule: what SPIRVModule needs from OpenCL
//===----------------------------------------------------------------------===//

CLModule::CLModule(CLDevice &D, cl_program P, const container::ModuleInfo &Info)
    : SPIRVModule("opencl", D.Props.Name, Info), Dev(D), Program(P) {}

CLModule::~CLModule() {
  Dev.synchronize();
  {
    std::lock_guard<std::mutex> L(Dev.M);
    Dev.Modules.erase(this);
  }
  releaseResources();
  Dev.A.clReleaseProgram(Program);
}

Status CLModule::allocateMemory(Use, size_t Bytes, void *&Ptr) {
  return Dev.allocate(Bytes, Ptr);
}

void CLModule::freeMemory(Use, void *Ptr) { Dev.release(Ptr); }

Status CLModule::copyIn(void *Dst, const void *Src, size_t Bytes) {
  return Dev.copySVM(Dst, Src, Bytes);
}

Status CLModule::copyOut(void *Dst, const void *Src, size_t Bytes) {
  return Dev.copySVM(Dst, Src, Bytes);
}

Status CLModule::runHelperKernel(const char *Name, void *Ptr,
                                 const uint64_t *Cap) {
  cl_int E = CL_SUCCESS;
  cl_kernel K = Dev.A.clCreateKernel(Program, Name, &E);
  if (!K) {
    if (Cap) // the info kernel: the first sign of a foreign module
      return Status(ErrorCode::NoBinaryForGpu,
                    std::string("opencl: the module has no ") + Name +
                        " kernel (not produced by hetgpu's SPIR-V target?): " +
                        errorName(E));
    return clStatus(E, std::string("clCreateKernel(") + Name + ")");
  }
  Dev.A.clSetKernelArgSVMPointer(K, 0, Ptr);
  if (Cap) {
    cl_ulong CapArg = *Cap;
    Dev.A.clSetKernelArg(K, 1, sizeof CapArg, &CapArg);
  }
  Status S = Dev.runHelper(K, Name);
  Dev.A.clReleaseKernel(K);
  return S;
}

Status CLModule::runInfoKernel(void *Buf, uint64_t Cap) {
  return runHelperKernel(spirv_abi::InfoKernel, Buf, &Cap);
}

Status CLModule::runInitKernel(void *Block) {
  return runHelperKernel(spirv_abi::InitKernel, Block, nullptr);
}

Status CLModule::createKernel(const std::string &Name,
                              const container::KernelInfo &KI,
                              std::unique_ptr<Kernel> &Out) {
  cl_int E = CL_SUCCESS;
  cl_kernel K =
      Dev.A.clCreateKernel(Program, spirv_abi::entryPointName(Name).c_str(), &E);
  if (!K)
    return clStatus(E, "clCreateKernel(" + Name + ")");
  cl_uint NArgs = 0;
  Dev.A.clGetKernelInfo(K, CL_KERNEL_NUM_ARGS, sizeof NArgs, &NArgs, nullptr);
  auto WL = table().WarpLoop.find(Name);
  bool WarpLoop = WL != table().WarpLoop.end();
  unsigned Extra = spirv_abi::NumHiddenParams +
                   (WarpLoop ? spirv_abi::NumWarpLoopParams : 0);
  if (NArgs != KI.Params.size() + Extra) {
    Dev.A.clReleaseKernel(K);
    return Status(ErrorCode::NoBinaryForGpu,
                  "opencl: kernel " + Name + " takes " + std::to_string(NArgs) +
                      " arguments, the container lists " +
                      std::to_string(KI.Params.size()) + " (+" +
                      std::to_string(Extra) + " hidden)");
  }
  Out = std::make_unique<CLKernel>(Dev.A, K, KI, block(), WarpLoop,
                                   WarpLoop ? WL->second.first : 0,
                                   WarpLoop ? WL->second.second : 0);
  return Status::ok();
}
