//===- OpenCLApi.h - The OpenCL API subset the backend loads -----*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Types, constants and entry points of the OpenCL 2.1 API that the OpenCL
/// backend uses, declared here (values as in Khronos' CL/cl.h) so the
/// runtime builds without OpenCL headers. The entry points are resolved with
/// dlsym from the ICD loader (libOpenCL.so.1) in OpenCLBackend.cpp.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_RUNTIME_BACKENDS_OPENCL_OPENCLAPI_H
#define HETGPU_RUNTIME_BACKENDS_OPENCL_OPENCLAPI_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace hetgpu {
namespace rt {
namespace cl {

using cl_int = int32_t;
using cl_uint = uint32_t;
using cl_ulong = uint64_t;
using cl_bitfield = uint64_t;
using cl_bool = cl_uint;
using cl_device_type = cl_bitfield;
using cl_platform_info = cl_uint;
using cl_device_info = cl_uint;
using cl_device_svm_capabilities = cl_bitfield;
using cl_mem_flags = cl_bitfield;
using cl_svm_mem_flags = cl_bitfield;
using cl_queue_properties = cl_bitfield;
using cl_context_properties = intptr_t;
using cl_program_build_info = cl_uint;
using cl_kernel_info = cl_uint;
using cl_event_info = cl_uint;
using cl_profiling_info = cl_uint;

using cl_platform_id = struct _cl_platform_id *;
using cl_device_id = struct _cl_device_id *;
using cl_context = struct _cl_context *;
using cl_command_queue = struct _cl_command_queue *;
using cl_program = struct _cl_program *;
using cl_kernel = struct _cl_kernel *;
using cl_event = struct _cl_event *;

constexpr cl_int CL_SUCCESS = 0;
constexpr cl_int CL_DEVICE_NOT_FOUND = -1;
constexpr cl_int CL_MEM_OBJECT_ALLOCATION_FAILURE = -4;
constexpr cl_int CL_OUT_OF_RESOURCES = -5;
constexpr cl_int CL_OUT_OF_HOST_MEMORY = -6;
constexpr cl_int CL_BUILD_PROGRAM_FAILURE = -11;
constexpr cl_int CL_INVALID_VALUE = -30;
constexpr cl_int CL_INVALID_KERNEL_NAME = -46;
constexpr cl_int CL_INVALID_WORK_GROUP_SIZE = -54;
constexpr cl_int CL_INVALID_WORK_ITEM_SIZE = -55;
constexpr cl_int CL_INVALID_GLOBAL_WORK_SIZE = -63;
constexpr cl_int CL_PLATFORM_NOT_FOUND_KHR = -1001;

constexpr cl_device_type CL_DEVICE_TYPE_CPU = 1 << 1;
constexpr cl_device_type CL_DEVICE_TYPE_GPU = 1 << 2;
constexpr cl_device_type CL_DEVICE_TYPE_ALL = 0xFFFFFFFF;

constexpr cl_platform_info CL_PLATFORM_VERSION = 0x0901;
constexpr cl_platform_info CL_PLATFORM_NAME = 0x0902;
constexpr cl_device_info CL_DEVICE_TYPE = 0x1000;
constexpr cl_device_info CL_DEVICE_MAX_COMPUTE_UNITS = 0x1002;
constexpr cl_device_info CL_DEVICE_MAX_WORK_GROUP_SIZE = 0x1004;
constexpr cl_device_info CL_DEVICE_MAX_WORK_ITEM_SIZES = 0x1005;
constexpr cl_device_info CL_DEVICE_MAX_CLOCK_FREQUENCY = 0x100C;
constexpr cl_device_info CL_DEVICE_GLOBAL_MEM_CACHE_SIZE = 0x101E;
constexpr cl_device_info CL_DEVICE_GLOBAL_MEM_SIZE = 0x101F;
constexpr cl_device_info CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE = 0x1020;
constexpr cl_device_info CL_DEVICE_LOCAL_MEM_SIZE = 0x1023;
constexpr cl_device_info CL_DEVICE_NAME = 0x102B;
constexpr cl_device_info CL_DEVICE_VENDOR = 0x102C;
constexpr cl_device_info CL_DEVICE_VERSION = 0x102F;
constexpr cl_device_info CL_DEVICE_EXTENSIONS = 0x1030;
constexpr cl_device_info CL_DEVICE_HOST_UNIFIED_MEMORY = 0x1035;
constexpr cl_device_info CL_DEVICE_SVM_CAPABILITIES = 0x1053;
constexpr cl_device_info CL_DEVICE_IL_VERSION = 0x105B;
constexpr cl_device_info CL_DEVICE_SUB_GROUP_SIZES_INTEL = 0x4108;

constexpr cl_device_svm_capabilities CL_DEVICE_SVM_COARSE_GRAIN_BUFFER = 1 << 0;
constexpr cl_device_svm_capabilities CL_DEVICE_SVM_FINE_GRAIN_BUFFER = 1 << 1;

constexpr cl_queue_properties CL_QUEUE_PROPERTIES = 0x1093;
constexpr cl_queue_properties CL_QUEUE_PROFILING_ENABLE = 1 << 1;
constexpr cl_svm_mem_flags CL_MEM_READ_WRITE = 1 << 0;
constexpr cl_svm_mem_flags CL_MEM_SVM_FINE_GRAIN_BUFFER = 1 << 10;
constexpr cl_program_build_info CL_PROGRAM_BUILD_LOG = 0x1183;
constexpr cl_kernel_info CL_KERNEL_NUM_ARGS = 0x1191;
constexpr cl_event_info CL_EVENT_COMMAND_EXECUTION_STATUS = 0x11D3;
constexpr cl_int CL_COMPLETE = 0;
constexpr cl_profiling_info CL_PROFILING_COMMAND_END = 0x1283;
constexpr cl_bool CL_TRUE = 1, CL_FALSE = 0;

/// The entry points, as function-pointer members (one X-macro list).
#define HETGPU_CL_FUNCTIONS(X)                                                 \
  X(clGetPlatformIDs, cl_int, (cl_uint, cl_platform_id *, cl_uint *))          \
  X(clGetPlatformInfo, cl_int,                                                 \
    (cl_platform_id, cl_platform_info, size_t, void *, size_t *))              \
  X(clGetDeviceIDs, cl_int,                                                    \
    (cl_platform_id, cl_device_type, cl_uint, cl_device_id *, cl_uint *))      \
  X(clGetDeviceInfo, cl_int,                                                   \
    (cl_device_id, cl_device_info, size_t, void *, size_t *))                  \
  X(clCreateContext, cl_context,                                               \
    (const cl_context_properties *, cl_uint, const cl_device_id *,             \
     void (*)(const char *, const void *, size_t, void *), void *, cl_int *))  \
  X(clReleaseContext, cl_int, (cl_context))                                    \
  X(clCreateCommandQueueWithProperties, cl_command_queue,                      \
    (cl_context, cl_device_id, const cl_queue_properties *, cl_int *))         \
  X(clReleaseCommandQueue, cl_int, (cl_command_queue))                         \
  X(clSVMAlloc, void *, (cl_context, cl_svm_mem_flags, size_t, cl_uint))       \
  X(clSVMFree, void, (cl_context, void *))                                     \
  X(clCreateProgramWithBinary, cl_program,                                     \
    (cl_context, cl_uint, const cl_device_id *, const size_t *,                \
     const unsigned char **, cl_int *, cl_int *))                              \
  X(clBuildProgram, cl_int,                                                    \
    (cl_program, cl_uint, const cl_device_id *, const char *,                  \
     void (*)(cl_program, void *), void *))                                    \
  X(clGetProgramBuildInfo, cl_int,                                             \
    (cl_program, cl_device_id, cl_program_build_info, size_t, void *,          \
     size_t *))                                                                \
  X(clReleaseProgram, cl_int, (cl_program))                                    \
  X(clCreateKernel, cl_kernel, (cl_program, const char *, cl_int *))           \
  X(clReleaseKernel, cl_int, (cl_kernel))                                      \
  X(clGetKernelInfo, cl_int,                                                   \
    (cl_kernel, cl_kernel_info, size_t, void *, size_t *))                     \
  X(clSetKernelArg, cl_int, (cl_kernel, cl_uint, size_t, const void *))        \
  X(clSetKernelArgSVMPointer, cl_int, (cl_kernel, cl_uint, const void *))      \
  X(clEnqueueNDRangeKernel, cl_int,                                            \
    (cl_command_queue, cl_kernel, cl_uint, const size_t *, const size_t *,     \
     const size_t *, cl_uint, const cl_event *, cl_event *))                   \
  X(clEnqueueSVMMemcpy, cl_int,                                                \
    (cl_command_queue, cl_bool, void *, const void *, size_t, cl_uint,         \
     const cl_event *, cl_event *))                                            \
  X(clEnqueueSVMMemFill, cl_int,                                               \
    (cl_command_queue, void *, const void *, size_t, size_t, cl_uint,          \
     const cl_event *, cl_event *))                                            \
  X(clEnqueueMarkerWithWaitList, cl_int,                                       \
    (cl_command_queue, cl_uint, const cl_event *, cl_event *))                 \
  X(clEnqueueBarrierWithWaitList, cl_int,                                      \
    (cl_command_queue, cl_uint, const cl_event *, cl_event *))                 \
  X(clFinish, cl_int, (cl_command_queue))                                      \
  X(clFlush, cl_int, (cl_command_queue))                                       \
  X(clWaitForEvents, cl_int, (cl_uint, const cl_event *))                      \
  X(clGetEventInfo, cl_int,                                                    \
    (cl_event, cl_event_info, size_t, void *, size_t *))                       \
  X(clGetEventProfilingInfo, cl_int,                                           \
    (cl_event, cl_profiling_info, size_t, void *, size_t *))                   \
  X(clReleaseEvent, cl_int, (cl_event))                                        \
  X(clRetainEvent, cl_int, (cl_event))

/// Optional entry points (OpenCL 2.1: programs from SPIR-V).
#define HETGPU_CL_OPTIONAL_FUNCTIONS(X)                                        \
  X(clCreateProgramWithIL, cl_program,                                         \
    (cl_context, const void *, size_t, cl_int *))

struct API {
#define HETGPU_CL_MEMBER(Name, Ret, Params) Ret(*Name) Params = nullptr;
  HETGPU_CL_FUNCTIONS(HETGPU_CL_MEMBER)
  HETGPU_CL_OPTIONAL_FUNCTIONS(HETGPU_CL_MEMBER)
#undef HETGPU_CL_MEMBER
};

/// The API of libOpenCL.so.1 (or $HETGPU_OPENCL_LIBRARY), loaded once; null
/// with \p Error set when the library or an entry point is missing.
const API *loadAPI(std::string &Error);

/// Name of an OpenCL error code ("CL_OUT_OF_RESOURCES").
const char *errorName(cl_int E);

} // namespace cl
} // namespace rt
} // namespace hetgpu

#endif // HETGPU_RUNTIME_BACKENDS_OPENCL_OPENCLAPI_H
