//===- OpenCLBackend.cpp - OpenCL devices through the ICD loader ----------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// `hetgpu::rt::createOpenCLBackend()`. Devices of every OpenCL platform
/// that offer shared virtual memory (SVM) and take either SPIR-V
/// (CL_DEVICE_IL_VERSION, clCreateProgramWithIL) or SPIR 1.2 (cl_khr_spir;
/// our SPIR-V goes through `llvm-spirv -r` first, see SPIRVToSPIR.h).
///
/// Memory: every allocation is SVM (fine-grain where offered, else coarse
/// grain), so a device pointer is the same value on host and device, kernel
/// pointer arguments are set with clSetKernelArgSVMPointer and pointers
/// stored in device memory stay valid. Devices without SVM are skipped.
///
/// Modules follow ABI/SPIRVKernel.h (Backends/SPIRV/SPIRVModule.h). Streams
/// are in-order command queues with profiling (events are markers). The
/// classes are in OpenCLDevice.h; this file holds discovery.
///
//===----------------------------------------------------------------------===//

#include "Backends/OpenCL/OpenCLDevice.h"
#include "Backends/OpenCL/SPIRVToSPIR.h"
#include "Core/Log.h"

#include <pthread.h>

#include <cstdlib>

namespace hetgpu {
namespace rt {

std::unique_ptr<Backend> createOpenCLBackend();

namespace cl {

static ErrorCode mapError(cl_int E) {
  switch (E) {
  case CL_SUCCESS:
    return ErrorCode::Success;
  case CL_MEM_OBJECT_ALLOCATION_FAILURE:
  case CL_OUT_OF_HOST_MEMORY:
    return ErrorCode::OutOfMemory;
  case CL_OUT_OF_RESOURCES:
    return ErrorCode::LaunchOutOfResources;
  case CL_INVALID_WORK_GROUP_SIZE:
  case CL_INVALID_WORK_ITEM_SIZE:
  case CL_INVALID_GLOBAL_WORK_SIZE:
    return ErrorCode::InvalidConfiguration;
  case CL_INVALID_VALUE:
    return ErrorCode::InvalidValue;
  default:
    return ErrorCode::DriverFailure;
  }
}

Status clStatus(cl_int E, const std::string &What) {
  if (E == CL_SUCCESS)
    return Status::ok();
  return Status(mapError(E), "opencl: " + What + " failed: " + errorName(E) +
                                 " (" + std::to_string(E) + ")");
}

std::string deviceString(const API &A, cl_device_id D, cl_device_info I) {
  size_t N = 0;
  if (A.clGetDeviceInfo(D, I, 0, nullptr, &N) != CL_SUCCESS || N == 0)
    return "";
  std::string S(N, '\0');
  if (A.clGetDeviceInfo(D, I, N, S.data(), nullptr) != CL_SUCCESS)
    return "";
  while (!S.empty() && (S.back() == '\0' || S.back() == ' '))
    S.pop_back();
  return S;
}

} // namespace cl

namespace {

using namespace cl;

//===----------------------------------------------------------------------===//
// Backend
//===----------------------------------------------------------------------===//

/// CPU OpenCL drivers that run a work-group's work-items in loops (PoCL)
/// keep one copy per work-item of every private variable live across a
/// barrier on the worker thread's stack: CUDA kernels with large private
/// arrays (a 32 KiB table per thread, 256 threads) overflow the default
/// 8 MiB. Threads created from now on (the driver's workers are created
/// after discovery starts) get HETGPU_OPENCL_THREAD_STACK_MB (default 256)
/// MiB of stack: address space, committed only when touched.
void enlargeThreadStacks() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    size_t MB = 256;
    if (const char *E = getenv("HETGPU_OPENCL_THREAD_STACK_MB"); E && *E)
      MB = strtoull(E, nullptr, 10);
    if (MB == 0)
      return;
    pthread_attr_t Attr;
    if (pthread_getattr_default_np(&Attr))
      return;
    size_t Cur = 0;
    pthread_attr_getstacksize(&Attr, &Cur);
    if (Cur < MB << 20 && !pthread_attr_setstacksize(&Attr, MB << 20))
      pthread_setattr_default_np(&Attr);
    pthread_attr_destroy(&Attr);
  });
}

class OpenCLBackend final : public Backend {
public:
  const char *name() const override { return "opencl"; }
  std::string version() const override { return Versions; }

private:
  std::string Versions; ///< "<platform name>: <CL_PLATFORM_VERSION>; ..."

  void notePlatformVersion(const API &A, cl_platform_id P) {
    auto Info = [&](cl_platform_info What) {
      char Buf[256] = {0};
      if (A.clGetPlatformInfo(P, What, sizeof Buf - 1, Buf, nullptr))
        return std::string();
      return std::string(Buf);
    };
    Versions += (Versions.empty() ? "" : "; ") + Info(CL_PLATFORM_NAME) + ": " +
                Info(CL_PLATFORM_VERSION);
  }

public:
  Status discover(std::vector<std::unique_ptr<Device>> &Out) override {
    std::string Err;
    enlargeThreadStacks();
    const API *A = loadAPI(Err);
    if (!A)
      return Status(ErrorCode::NotSupported, Err);
    cl_uint NP = 0;
    cl_int R = A->clGetPlatformIDs(0, nullptr, &NP);
    if (R == CL_PLATFORM_NOT_FOUND_KHR || (R == CL_SUCCESS && NP == 0))
      return Status(ErrorCode::NotSupported,
                    "no OpenCL platform is installed (ICD loader "
                    "found no vendor in /etc/OpenCL/vendors)");
    if (R)
      return clStatus(R, "clGetPlatformIDs");
    std::vector<cl_platform_id> Ps(NP);
    A->clGetPlatformIDs(NP, Ps.data(), nullptr);
    std::string Skipped;
    size_t Before = Out.size();
    for (cl_platform_id P : Ps) {
      cl_uint ND = 0;
      if (A->clGetDeviceIDs(P, CL_DEVICE_TYPE_ALL, 0, nullptr, &ND) || ND == 0)
        continue;
      notePlatformVersion(*A, P);
      std::vector<cl_device_id> Ds(ND);
      A->clGetDeviceIDs(P, CL_DEVICE_TYPE_ALL, ND, Ds.data(), nullptr);
      for (cl_device_id D : Ds) {
        std::string Name = deviceString(*A, D, CL_DEVICE_NAME);
        auto SVM = deviceValue<cl_device_svm_capabilities>(
            *A, D, CL_DEVICE_SVM_CAPABILITIES, 0);
        if (!(SVM & (CL_DEVICE_SVM_COARSE_GRAIN_BUFFER |
                     CL_DEVICE_SVM_FINE_GRAIN_BUFFER))) {
          Skipped += " " + Name + ": no shared virtual memory;";
          continue;
        }
        std::string IL = deviceString(*A, D, CL_DEVICE_IL_VERSION);
        std::string Ext = deviceString(*A, D, CL_DEVICE_EXTENSIONS);
        bool HasIL =
            IL.find("SPIR-V") != std::string::npos && A->clCreateProgramWithIL;
        bool HasSPIR = Ext.find("cl_khr_spir") != std::string::npos;
        // HETGPU_OPENCL_PATH=spir|il forces one ingestion path.
        if (const char *F = getenv("HETGPU_OPENCL_PATH")) {
          if (std::string(F) == "spir")
            HasIL = false;
          else if (std::string(F) == "il")
            HasSPIR = false;
        }
        if (!HasIL && !HasSPIR) {
          Skipped += " " + Name + ": takes neither SPIR-V nor SPIR;";
          continue;
        }
        // A SPIR-only device cannot load a module without the Khronos
        // translator: not offered (a program that uses every device would
        // fail on it; seen with PoCL 5.0 on a machine without llvm-spirv).
        std::string NoTool;
        if (!HasIL && findSPIRVTranslator(NoTool).empty()) {
          Skipped += " " + Name + ": takes SPIR 1.2 only, and " + NoTool + ";";
          continue;
        }
        cl_context_properties CP[] = {
            0x1084 /*CL_CONTEXT_PLATFORM*/,
            reinterpret_cast<cl_context_properties>(P), 0};
        cl_int E = CL_SUCCESS;
        cl_context Ctx = A->clCreateContext(CP, 1, &D, nullptr, nullptr, &E);
        if (!Ctx) {
          Skipped += " " + Name + ": clCreateContext: " + errorName(E) + ";";
          continue;
        }
        auto Dev = std::make_unique<CLDevice>(
            *A, P, D, Ctx, (SVM & CL_DEVICE_SVM_FINE_GRAIN_BUFFER) != 0, HasIL);
        if (Status S = Dev->init()) {
          Skipped += " " + Name + ": " + S.Message + ";";
          continue;
        }
        Out.push_back(std::move(Dev));
      }
    }
    if (!Skipped.empty())
      log(LogLevel::Info, "opencl: devices skipped:" + Skipped);
    if (Out.size() == Before)
      return Status(
          ErrorCode::NotSupported,
          "no usable OpenCL device" +
              (Skipped.empty() ? std::string() : " (skipped:" + Skipped + ")"));
    return Status::ok();
  }
};

} // namespace

std::unique_ptr<Backend> createOpenCLBackend() {
  return std::make_unique<OpenCLBackend>();
}

} // namespace rt
} // namespace hetgpu
