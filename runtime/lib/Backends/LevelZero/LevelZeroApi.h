//===- LevelZeroApi.h - The Level Zero API subset the backend loads -*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Types, constants and entry points of the oneAPI Level Zero core API
/// (1.x) that the Level Zero backend uses, declared here with the layouts
/// and values of the specification's ze_api.h so the runtime builds without
/// Level Zero headers. Entry points are resolved with dlsym from
/// libze_loader.so.1.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_RUNTIME_BACKENDS_LEVELZERO_LEVELZEROAPI_H
#define HETGPU_RUNTIME_BACKENDS_LEVELZERO_LEVELZEROAPI_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace hetgpu {
namespace rt {
namespace ze {

using ze_result_t = uint32_t;
using ze_structure_type_t = uint32_t;
using ze_bool_t = uint8_t;

using ze_driver_handle_t = struct _ze_driver_handle_t *;
using ze_device_handle_t = struct _ze_device_handle_t *;
using ze_context_handle_t = struct _ze_context_handle_t *;
using ze_command_list_handle_t = struct _ze_command_list_handle_t *;
using ze_module_handle_t = struct _ze_module_handle_t *;
using ze_module_build_log_handle_t = struct _ze_module_build_log_handle_t *;
using ze_kernel_handle_t = struct _ze_kernel_handle_t *;
using ze_event_pool_handle_t = struct _ze_event_pool_handle_t *;
using ze_event_handle_t = struct _ze_event_handle_t *;

constexpr ze_result_t ZE_RESULT_SUCCESS = 0;
constexpr ze_result_t ZE_RESULT_NOT_READY = 1;
constexpr ze_result_t ZE_RESULT_ERROR_DEVICE_LOST = 0x70000001;
constexpr ze_result_t ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY = 0x70000002;
constexpr ze_result_t ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY = 0x70000003;
constexpr ze_result_t ZE_RESULT_ERROR_MODULE_BUILD_FAILURE = 0x70000004;
constexpr ze_result_t ZE_RESULT_ERROR_UNINITIALIZED = 0x78000001;
constexpr ze_result_t ZE_RESULT_ERROR_UNSUPPORTED_FEATURE = 0x78000003;
constexpr ze_result_t ZE_RESULT_ERROR_INVALID_ARGUMENT = 0x78000004;
constexpr ze_result_t ZE_RESULT_ERROR_INVALID_KERNEL_NAME = 0x78000011;
constexpr ze_result_t ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION = 0x78000013;

constexpr ze_structure_type_t ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES = 0x3;
constexpr ze_structure_type_t ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES = 0x4;
constexpr ze_structure_type_t ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES = 0x5;
constexpr ze_structure_type_t ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES = 0x7;
constexpr ze_structure_type_t ZE_STRUCTURE_TYPE_CONTEXT_DESC = 0xd;
constexpr ze_structure_type_t ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC = 0xe;
constexpr ze_structure_type_t ZE_STRUCTURE_TYPE_EVENT_POOL_DESC = 0x10;
constexpr ze_structure_type_t ZE_STRUCTURE_TYPE_EVENT_DESC = 0x11;
constexpr ze_structure_type_t ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC = 0x15;
constexpr ze_structure_type_t ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC = 0x16;
constexpr ze_structure_type_t ZE_STRUCTURE_TYPE_MODULE_DESC = 0x1b;
constexpr ze_structure_type_t ZE_STRUCTURE_TYPE_KERNEL_DESC = 0x1d;

constexpr uint32_t ZE_DEVICE_TYPE_GPU = 1;
constexpr uint32_t ZE_DEVICE_PROPERTY_FLAG_INTEGRATED = 1u << 0;
constexpr uint32_t ZE_COMMAND_QUEUE_FLAG_IN_ORDER = 1u << 1;
constexpr uint32_t ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS = 2;
constexpr uint32_t ZE_EVENT_POOL_FLAG_HOST_VISIBLE = 1u << 0;
constexpr uint32_t ZE_EVENT_SCOPE_FLAG_HOST = 1u << 2;
constexpr uint32_t ZE_MODULE_FORMAT_IL_SPIRV = 0;
constexpr uint32_t ZE_MAX_DEVICE_NAME = 256;
constexpr uint32_t ZE_SUBGROUPSIZE_COUNT = 8;

struct ze_device_properties_t {
  ze_structure_type_t stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
  void *pNext = nullptr;
  uint32_t type = 0;
  uint32_t vendorId = 0;
  uint32_t deviceId = 0;
  uint32_t flags = 0;
  uint32_t subdeviceId = 0;
  uint32_t coreClockRate = 0; ///< MHz
  uint64_t maxMemAllocSize = 0;
  uint32_t maxHardwareContexts = 0;
  uint32_t maxCommandQueuePriority = 0;
  uint32_t numThreadsPerEU = 0;
  uint32_t physicalEUSimdWidth = 0;
  uint32_t numEUsPerSubslice = 0;
  uint32_t numSubslicesPerSlice = 0;
  uint32_t numSlices = 0;
  uint64_t timerResolution = 0; ///< ns per tick with this stype
  uint32_t timestampValidBits = 0;
  uint32_t kernelTimestampValidBits = 0;
  uint8_t uuid[16] = {};
  char name[ZE_MAX_DEVICE_NAME] = {};
};

struct ze_device_compute_properties_t {
  ze_structure_type_t stype = ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES;
  void *pNext = nullptr;
  uint32_t maxTotalGroupSize = 0;
  uint32_t maxGroupSizeX = 0, maxGroupSizeY = 0, maxGroupSizeZ = 0;
  uint32_t maxGroupCountX = 0, maxGroupCountY = 0, maxGroupCountZ = 0;
  uint32_t maxSharedLocalMemory = 0;
  uint32_t numSubGroupSizes = 0;
  uint32_t subGroupSizes[ZE_SUBGROUPSIZE_COUNT] = {};
};

struct ze_device_module_properties_t {
  ze_structure_type_t stype = ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES;
  void *pNext = nullptr;
  uint32_t spirvVersionSupported = 0; ///< (major << 16) | minor
  uint32_t flags = 0;
  uint32_t fp16flags = 0, fp32flags = 0, fp64flags = 0;
  uint32_t maxArgumentsSize = 0;
  uint32_t printfBufferSize = 0;
  uint8_t nativeKernelSupported[16] = {};
};

struct ze_device_memory_properties_t {
  ze_structure_type_t stype = ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES;
  void *pNext = nullptr;
  uint32_t flags = 0;
  uint32_t maxClockRate = 0;
  uint32_t maxBusWidth = 0;
  uint64_t totalSize = 0;
  char name[ZE_MAX_DEVICE_NAME] = {};
};

struct ze_context_desc_t {
  ze_structure_type_t stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC;
  const void *pNext = nullptr;
  uint32_t flags = 0;
};

struct ze_command_queue_desc_t {
  ze_structure_type_t stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC;
  const void *pNext = nullptr;
  uint32_t ordinal = 0;
  uint32_t index = 0;
  uint32_t flags = 0;
  uint32_t mode = 0;
  uint32_t priority = 0;
};

struct ze_event_pool_desc_t {
  ze_structure_type_t stype = ZE_STRUCTURE_TYPE_EVENT_POOL_DESC;
  const void *pNext = nullptr;
  uint32_t flags = 0;
  uint32_t count = 0;
};

struct ze_event_desc_t {
  ze_structure_type_t stype = ZE_STRUCTURE_TYPE_EVENT_DESC;
  const void *pNext = nullptr;
  uint32_t index = 0;
  uint32_t signal = 0;
  uint32_t wait = 0;
};

struct ze_device_mem_alloc_desc_t {
  ze_structure_type_t stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC;
  const void *pNext = nullptr;
  uint32_t flags = 0;
  uint32_t ordinal = 0;
};

struct ze_host_mem_alloc_desc_t {
  ze_structure_type_t stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC;
  const void *pNext = nullptr;
  uint32_t flags = 0;
};

struct ze_module_desc_t {
  ze_structure_type_t stype = ZE_STRUCTURE_TYPE_MODULE_DESC;
  const void *pNext = nullptr;
  uint32_t format = ZE_MODULE_FORMAT_IL_SPIRV;
  size_t inputSize = 0;
  const uint8_t *pInputModule = nullptr;
  const char *pBuildFlags = nullptr;
  const void *pConstants = nullptr;
};

struct ze_kernel_desc_t {
  ze_structure_type_t stype = ZE_STRUCTURE_TYPE_KERNEL_DESC;
  const void *pNext = nullptr;
  uint32_t flags = 0;
  const char *pKernelName = nullptr;
};

struct ze_group_count_t {
  uint32_t groupCountX = 1, groupCountY = 1, groupCountZ = 1;
};

#define HETGPU_ZE_FUNCTIONS(X)                                                 \
  X(zeInit, (uint32_t))                                                        \
  X(zeDriverGet, (uint32_t *, ze_driver_handle_t *))                           \
  X(zeDeviceGet, (ze_driver_handle_t, uint32_t *, ze_device_handle_t *))       \
  X(zeDeviceGetProperties, (ze_device_handle_t, ze_device_properties_t *))     \
  X(zeDeviceGetComputeProperties,                                              \
    (ze_device_handle_t, ze_device_compute_properties_t *))                    \
  X(zeDeviceGetModuleProperties,                                               \
    (ze_device_handle_t, ze_device_module_properties_t *))                     \
  X(zeDeviceGetMemoryProperties,                                               \
    (ze_device_handle_t, uint32_t *, ze_device_memory_properties_t *))         \
  X(zeContextCreate,                                                           \
    (ze_driver_handle_t, const ze_context_desc_t *, ze_context_handle_t *))    \
  X(zeContextDestroy, (ze_context_handle_t))                                   \
  X(zeCommandListCreateImmediate,                                              \
    (ze_context_handle_t, ze_device_handle_t, const ze_command_queue_desc_t *, \
     ze_command_list_handle_t *))                                              \
  X(zeCommandListDestroy, (ze_command_list_handle_t))                          \
  X(zeCommandListAppendMemoryCopy,                                             \
    (ze_command_list_handle_t, void *, const void *, size_t,                   \
     ze_event_handle_t, uint32_t, ze_event_handle_t *))                        \
  X(zeCommandListAppendMemoryFill,                                             \
    (ze_command_list_handle_t, void *, const void *, size_t, size_t,           \
     ze_event_handle_t, uint32_t, ze_event_handle_t *))                        \
  X(zeCommandListAppendLaunchKernel,                                           \
    (ze_command_list_handle_t, ze_kernel_handle_t, const ze_group_count_t *,   \
     ze_event_handle_t, uint32_t, ze_event_handle_t *))                        \
  X(zeCommandListAppendWaitOnEvents,                                           \
    (ze_command_list_handle_t, uint32_t, ze_event_handle_t *))                 \
  X(zeCommandListAppendWriteGlobalTimestamp,                                   \
    (ze_command_list_handle_t, uint64_t *, ze_event_handle_t, uint32_t,        \
     ze_event_handle_t *))                                                     \
  X(zeCommandListHostSynchronize, (ze_command_list_handle_t, uint64_t))        \
  X(zeMemAllocDevice,                                                          \
    (ze_context_handle_t, const ze_device_mem_alloc_desc_t *, size_t, size_t,  \
     ze_device_handle_t, void **))                                             \
  X(zeMemAllocShared,                                                          \
    (ze_context_handle_t, const ze_device_mem_alloc_desc_t *,                  \
     const ze_host_mem_alloc_desc_t *, size_t, size_t, ze_device_handle_t,     \
     void **))                                                                 \
  X(zeMemAllocHost, (ze_context_handle_t, const ze_host_mem_alloc_desc_t *,    \
                     size_t, size_t, void **))                                 \
  X(zeMemFree, (ze_context_handle_t, void *))                                  \
  X(zeModuleCreate,                                                            \
    (ze_context_handle_t, ze_device_handle_t, const ze_module_desc_t *,        \
     ze_module_handle_t *, ze_module_build_log_handle_t *))                    \
  X(zeModuleDestroy, (ze_module_handle_t))                                     \
  X(zeModuleBuildLogGetString, (ze_module_build_log_handle_t, size_t *, char *)) \
  X(zeModuleBuildLogDestroy, (ze_module_build_log_handle_t))                   \
  X(zeKernelCreate,                                                            \
    (ze_module_handle_t, const ze_kernel_desc_t *, ze_kernel_handle_t *))      \
  X(zeKernelDestroy, (ze_kernel_handle_t))                                     \
  X(zeKernelSetGroupSize, (ze_kernel_handle_t, uint32_t, uint32_t, uint32_t))  \
  X(zeKernelSetArgumentValue,                                                  \
    (ze_kernel_handle_t, uint32_t, size_t, const void *))                      \
  X(zeEventPoolCreate,                                                         \
    (ze_context_handle_t, const ze_event_pool_desc_t *, uint32_t,              \
     ze_device_handle_t *, ze_event_pool_handle_t *))                          \
  X(zeEventPoolDestroy, (ze_event_pool_handle_t))                              \
  X(zeEventCreate,                                                             \
    (ze_event_pool_handle_t, const ze_event_desc_t *, ze_event_handle_t *))    \
  X(zeEventDestroy, (ze_event_handle_t))                                       \
  X(zeEventHostSynchronize, (ze_event_handle_t, uint64_t))                     \
  X(zeEventQueryStatus, (ze_event_handle_t))                                   \
  X(zeEventHostReset, (ze_event_handle_t))

struct API {
#define HETGPU_ZE_MEMBER(Name, Params) ze_result_t(*Name) Params = nullptr;
  HETGPU_ZE_FUNCTIONS(HETGPU_ZE_MEMBER)
#undef HETGPU_ZE_MEMBER
};

/// The API of libze_loader.so.1 (or $HETGPU_LEVEL_ZERO_LIBRARY), loaded
/// once; null with \p Error set ("libze_loader.so.1 not found ...").
const API *loadAPI(std::string &Error);

/// Name of a result code ("ZE_RESULT_ERROR_DEVICE_LOST").
const char *resultName(ze_result_t R);

} // namespace ze
} // namespace rt
} // namespace hetgpu

#endif // HETGPU_RUNTIME_BACKENDS_LEVELZERO_LEVELZEROAPI_H
