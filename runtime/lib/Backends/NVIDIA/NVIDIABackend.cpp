//===- NVIDIABackend.cpp - NVIDIA GPUs through the CUDA driver API --------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// `hetgpu::rt::createNVIDIABackend()`: devices, memory, PTX modules,
/// streams and events on top of the CUDA driver API (CudaDriver.h, loaded
/// with dlopen). Each device uses its primary context, made current on the
/// calling thread before every driver call. The lowering target is nvptx
/// with the device's sm_XY and a PTX ISA version the driver accepts. The
/// classes are in NVIDIADevice.h; this file holds discovery.
///
//===----------------------------------------------------------------------===//

#include "Backends/NVIDIA/NVIDIADevice.h"
#include "Backends/NVIDIA/VisibleDevices.h"
#include "Core/Log.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <optional>

namespace hetgpu {
namespace rt {

std::unique_ptr<Backend> createNVIDIABackend();

namespace cu {

ErrorCode mapResult(CUresult R) {
  switch (R) {
  case CUDA_SUCCESS:
    return ErrorCode::Success;
  case CUDA_ERROR_INVALID_VALUE:
  case CUDA_ERROR_INVALID_HANDLE:
    return ErrorCode::InvalidValue;
  case CUDA_ERROR_OUT_OF_MEMORY:
    return ErrorCode::OutOfMemory;
  case CUDA_ERROR_NOT_READY:
    return ErrorCode::NotReady;
  case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES:
    return ErrorCode::LaunchOutOfResources;
  case CUDA_ERROR_ASSERT:
    return ErrorCode::Assert;
  // The kernel faults keep their CUDA codes (all sticky).
  case CUDA_ERROR_ILLEGAL_ADDRESS:
    return ErrorCode::IllegalAddress;
  case CUDA_ERROR_INVALID_ADDRESS_SPACE:
    return ErrorCode::InvalidAddressSpace;
  case CUDA_ERROR_ILLEGAL_INSTRUCTION:
    return ErrorCode::IllegalInstruction;
  case CUDA_ERROR_MISALIGNED_ADDRESS:
    return ErrorCode::MisalignedAddress;
  case CUDA_ERROR_LAUNCH_TIMEOUT:
  case CUDA_ERROR_INVALID_PC:
  case CUDA_ERROR_LAUNCH_FAILED:
    return ErrorCode::LaunchFailure;
  case CUDA_ERROR_INVALID_IMAGE:
  case CUDA_ERROR_NO_BINARY_FOR_GPU:
  case CUDA_ERROR_INVALID_PTX:
  case CUDA_ERROR_JIT_COMPILER_NOT_FOUND:
  case CUDA_ERROR_UNSUPPORTED_PTX_VERSION:
    return ErrorCode::NoBinaryForGpu;
  case CUDA_ERROR_NOT_FOUND:
    return ErrorCode::InvalidSymbol;
  case CUDA_ERROR_NOT_SUPPORTED:
    return ErrorCode::NotSupported;
  default:
    return ErrorCode::DriverFailure;
  }
}

Status check(const Driver &D, CUresult R, const char *What) {
  if (R == CUDA_SUCCESS)
    return Status::ok();
  return Status(mapResult(R), std::string(What) + ": " + D.describe(R));
}

} // namespace cu

namespace {

using namespace cu;

class NVIDIABackend final : public Backend {
public:
  const char *name() const override { return "nvidia"; }

  Status discover(std::vector<std::unique_ptr<Device>> &Out) override {
    std::string Err;
    const Driver *DP = loadDriver(Err);
    if (!DP)
      return Status(ErrorCode::NotSupported, Err);
    const Driver &D = *DP;
    // hetGPU applies CUDA_VISIBLE_DEVICES itself (visibleOrdinals); the
    // driver, which reads it in cuInit, sees every GPU.
    // MIG instances are the driver's to select: a list naming one is left
    // to it.
    const char *VisibleEnv = std::getenv("CUDA_VISIBLE_DEVICES");
    if (VisibleEnv &&
        (std::strstr(VisibleEnv, "MIG-") || std::strstr(VisibleEnv, "mig-")))
      VisibleEnv = nullptr;
    std::optional<std::string> Visible;
    if (VisibleEnv) {
      Visible = VisibleEnv;
      unsetenv("CUDA_VISIBLE_DEVICES");
    }
    CUresult InitResult = D.Init(0);
    if (Visible)
      setenv("CUDA_VISIBLE_DEVICES", Visible->c_str(), 1);
    if (Status St = check(D, InitResult, "cuInit"))
      return St;
    int Version = 0;
    D.DriverGetVersion(&Version);
    const char *Lib = std::getenv("HETGPU_LIBCUDA");
    VersionText = "CUDA driver " + std::to_string(Version / 1000) + "." +
                  std::to_string(Version % 1000 / 10) + " (" +
                  (Lib && *Lib ? Lib : "libcuda.so.1") + ")";
    int Count = 0;
    if (Status St = check(D, D.DeviceGetCount(&Count), "cuDeviceGetCount"))
      return St;
    if (Count == 0)
      return Status(ErrorCode::NotSupported, "cuDeviceGetCount: no NVIDIA GPU");
    std::vector<int> Ordinals;
    if (Status St = applyVisibleDevices(D, Visible, Count, Ordinals))
      return St;
    unsigned MaxPTX = maxPTXVersionForDriver(Version);
    for (int I : Ordinals) {
      CUdevice Dev = 0;
      if (Status St = check(D, D.DeviceGet(&Dev, I), "cuDeviceGet"))
        return St;
      auto Attr = [&](CUdevice_attribute A, int Default) {
        int V = 0;
        return D.DeviceGetAttribute(&V, A, Dev) == CUDA_SUCCESS ? V : Default;
      };
      DeviceProperties P;
      char Name[256] = {0};
      D.DeviceGetName(Name, sizeof(Name) - 1, Dev);
      P.Name = Name;
      P.Vendor = "NVIDIA";
      P.Kind = BackendKind::NVIDIA;
      P.ComputeMajor = Attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 7);
      P.ComputeMinor = Attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 0);
      P.Target = "nvptx";
      P.Arch = "sm_" + std::to_string(P.ComputeMajor) +
               std::to_string(P.ComputeMinor);
      P.Features = "+ptx" + std::to_string(MaxPTX);
      size_t Total = 0;
      D.DeviceTotalMem(&Total, Dev);
      P.TotalMemory = Total;
      P.MultiProcessorCount = Attr(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 1);
      P.MaxThreadsPerBlock =
          Attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 1024);
      P.MaxBlockDim[0] = Attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, 1024);
      P.MaxBlockDim[1] = Attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y, 1024);
      P.MaxBlockDim[2] = Attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, 64);
      P.MaxGridDim[0] = Attr(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, 2147483647);
      P.MaxGridDim[1] = Attr(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, 65535);
      P.MaxGridDim[2] = Attr(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z, 65535);
      P.SharedMemPerBlock =
          Attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, 48 << 10);
      P.SharedMemPerBlockOptin =
          Attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
               static_cast<int>(P.SharedMemPerBlock));
      P.SharedMemPerMultiprocessor = Attr(
          CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, 64 << 10);
      P.TotalConstMem =
          Attr(CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY, 64 << 10);
      P.RegsPerBlock = Attr(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK, 65536);
      P.MaxThreadsPerMultiProcessor =
          Attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, 2048);
      P.MaxBlocksPerMultiProcessor =
          Attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR, 32);
      P.ClockRateKHz = Attr(CU_DEVICE_ATTRIBUTE_CLOCK_RATE, 1000000);
      P.MemoryClockRateKHz =
          Attr(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, 1000000);
      P.MemoryBusWidth = Attr(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, 64);
      P.L2CacheSize = Attr(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, 0);
      P.PciBusId = Attr(CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, 0);
      P.Integrated = Attr(CU_DEVICE_ATTRIBUTE_INTEGRATED, 0) != 0;
      P.ConcurrentKernels =
          Attr(CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS, 1) != 0;
      P.ManagedMemory = Attr(CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY, 0) != 0;

      CUcontext Ctx = nullptr;
      if (Status St = check(D, D.DevicePrimaryCtxRetain(&Ctx, Dev),
                            "cuDevicePrimaryCtxRetain"))
        return St;
      if (logEnabled(LogLevel::Info))
        log(LogLevel::Info, "nvidia: device " + std::to_string(I) + ": " +
                                P.Name + " (" + P.Arch + ", driver " +
                                std::to_string(Version) + ", " + P.Features +
                                ")");
      Out.push_back(std::make_unique<NVIDIADevice>(D, Dev, Ctx, std::move(P)));
      // Before any module is loaded and before the host arena is mapped.
      if (Out.size() == 1)
        reserveArenaRange(D, Ctx);
    }
    return Status::ok();
  }

  std::string version() const override { return VersionText; }

private:
  std::string VersionText;

  /// The driver ordinals to use, in order: all of them, or those
  /// CUDA_VISIBLE_DEVICES lists (by index or by GPU-<uuid> prefix).
  static Status applyVisibleDevices(const Driver &D,
                                    const std::optional<std::string> &Visible,
                                    int Count, std::vector<int> &Ordinals) {
    if (!Visible) {
      for (int I = 0; I < Count; ++I)
        Ordinals.push_back(I);
      return Status::ok();
    }
    std::vector<std::string> Uuids;
    for (int I = 0; I < Count; ++I) {
      CUdevice Dev = 0;
      CUuuid U = {};
      if (D.DeviceGet(&Dev, I) != CUDA_SUCCESS ||
          D.DeviceGetUuid(&U, Dev) != CUDA_SUCCESS)
        std::fill(std::begin(U.Bytes), std::end(U.Bytes), 0);
      Uuids.push_back(formatUuid(U.Bytes));
    }
    std::string Stopped;
    Ordinals = visibleOrdinals(*Visible, Uuids, Stopped);
    if (!Stopped.empty())
      log(LogLevel::Warn, "CUDA_VISIBLE_DEVICES='" + *Visible +
                              "': the list ends at '" + Stopped +
                              "', which names no NVIDIA GPU (" +
                              std::to_string(Count) + " found)");
    if (Ordinals.empty())
      return Status(ErrorCode::NotSupported,
                    "CUDA_VISIBLE_DEVICES='" + *Visible +
                        "' leaves no NVIDIA GPU visible");
    return Status::ok();
  }
};

} // namespace

std::unique_ptr<Backend> createNVIDIABackend() {
  return std::make_unique<NVIDIABackend>();
}

} // namespace rt
} // namespace hetgpu
