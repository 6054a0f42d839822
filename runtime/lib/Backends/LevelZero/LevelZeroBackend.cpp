//===- LevelZeroBackend.cpp - Intel GPUs through oneAPI Level Zero --------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// `hetgpu::rt::createLevelZeroBackend()`: GPU devices of every Level Zero
/// driver. Modules are hetGPU SPIR-V (lib/Targets/SPIRV, kernel ABI in
/// ABI/SPIRVKernel.h, set up by Backends/SPIRV/SPIRVModule.h) built with
/// zeModuleCreate; streams are in-order immediate command lists; device
/// memory is zeMemAllocDevice (pointers are USM device addresses, valid in
/// kernels as they are), the globals block and the printf buffer are shared
/// (host-visible) allocations; events are host-visible events plus global
/// timestamps for elapsed times. The classes are in LevelZeroDevice.h; this
/// file holds discovery.
///
/// This backend is compiled and its discovery runs everywhere, but no
/// machine it was written on has Level Zero: see docs/targets/SPIRV.md for
/// what has and has not been exercised.
///
//===----------------------------------------------------------------------===//

#include "Backends/LevelZero/LevelZeroDevice.h"

#include <cstdio>

namespace hetgpu {
namespace rt {

std::unique_ptr<Backend> createLevelZeroBackend();

Status ze::zeStatus(ze_result_t R, const std::string &What) {
  if (R == ZE_RESULT_SUCCESS)
    return Status::ok();
  ErrorCode C = ErrorCode::DriverFailure;
  switch (R) {
  case ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY:
  case ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY:
    C = ErrorCode::OutOfMemory;
    break;
  case ZE_RESULT_NOT_READY:
    C = ErrorCode::NotReady;
    break;
  case ZE_RESULT_ERROR_INVALID_ARGUMENT:
    C = ErrorCode::InvalidValue;
    break;
  case ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION:
    C = ErrorCode::InvalidConfiguration;
    break;
  case ZE_RESULT_ERROR_DEVICE_LOST:
    C = ErrorCode::LaunchFailure;
    break;
  default:
    break;
  }
  char Hex[16];
  snprintf(Hex, sizeof Hex, "0x%x", R);
  return Status(C, "level-zero: " + What + " failed: " + resultName(R) + " (" +
                       Hex + ")");
}

namespace {

using namespace ze;

//===----------------------------------------------------------------------===//
// Backend
//===----------------------------------------------------------------------===//

class LevelZeroBackend final : public Backend {
public:
  const char *name() const override { return "level-zero"; }
  Status discover(std::vector<std::unique_ptr<Device>> &Out) override {
    std::string Err;
    const API *A = loadAPI(Err);
    if (!A)
      return Status(ErrorCode::NotSupported, Err);
    if (Status S = zeStatus(A->zeInit(0), "zeInit"))
      return Status(ErrorCode::NotSupported, S.Message);
    uint32_t ND = 0;
    if (Status S = zeStatus(A->zeDriverGet(&ND, nullptr), "zeDriverGet"))
      return Status(ErrorCode::NotSupported, S.Message);
    if (ND == 0)
      return Status(ErrorCode::NotSupported,
                    "no Level Zero driver is installed");
    std::vector<ze_driver_handle_t> Drivers(ND);
    A->zeDriverGet(&ND, Drivers.data());
    size_t Before = Out.size();
    std::string Skipped;
    for (ze_driver_handle_t Drv : Drivers) {
      uint32_t NDev = 0;
      if (A->zeDeviceGet(Drv, &NDev, nullptr) != ZE_RESULT_SUCCESS || !NDev)
        continue;
      std::vector<ze_device_handle_t> Devs(NDev);
      A->zeDeviceGet(Drv, &NDev, Devs.data());
      ze_context_desc_t CD;
      for (ze_device_handle_t D : Devs) {
        ze_device_properties_t P;
        if (A->zeDeviceGetProperties(D, &P) != ZE_RESULT_SUCCESS ||
            P.type != ZE_DEVICE_TYPE_GPU)
          continue;
        ze_context_handle_t Ctx;
        if (Status S = zeStatus(A->zeContextCreate(Drv, &CD, &Ctx),
                                "zeContextCreate")) {
          Skipped += " " + S.Message + ";";
          continue;
        }
        auto Dev = std::make_unique<ZEDevice>(*A, Drv, D, Ctx);
        if (Status S = Dev->init()) {
          Skipped += " " + S.Message + ";";
          continue;
        }
        Out.push_back(std::move(Dev));
      }
    }
    if (Out.size() == Before)
      return Status(ErrorCode::NotSupported,
                    "no usable GPU" + (Skipped.empty()
                                           ? std::string()
                                           : " (skipped:" + Skipped + ")"));
    return Status::ok();
  }
};

} // namespace

std::unique_ptr<Backend> createLevelZeroBackend() {
  return std::make_unique<LevelZeroBackend>();
}

} // namespace rt
} // namespace hetgpu
