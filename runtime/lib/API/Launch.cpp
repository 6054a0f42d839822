//===- Launch.cpp - CUDA kernel launches ----------------------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// cudaLaunchKernel (what `<<<...>>>` ends in, after Registration.cpp's call
/// configuration): the launch configuration is checked as CUDA does (not
/// sticky), the kernel is loaded on the stream's device (translated through
/// the JIT cache at first use), and the launch is queued on the stream, or
/// handed to the migration service when the process is migratable.
/// cudaLaunchCooperativeKernel: the same, with the grid checked against
/// what the device runs at once (cudaErrorCooperativeLaunchTooLarge), never
/// migrated. On OpenCL and Level Zero a kernel that calls grid_group::sync()
/// runs in rounds (Core/GridRounds.h), in a cooperative launch or not.
///
//===----------------------------------------------------------------------===//

#include "API/CudaAPI.h"
#include "API/EagerCoalesce.h"
#include "Core/GridRounds.h"
#include "Core/KernelMemCheck.h"
#include "Core/Log.h"
#include "Core/MigrationService.h"

using namespace hetgpu;
using namespace hetgpu::rt;
using namespace hetgpu::rt::api;

namespace {

/// The most blocks of \p K a cooperative launch may have on \p P's device,
/// all running at once: the CPU device gives each block of a cooperative
/// launch its own thread (up to CPUCooperativeBlocks); GPUs hold what the
/// occupancy calculator gives per multiprocessor; devices that run one
/// block per core at a time (tt-sim) one block per core. OpenCL and Level
/// Zero promise no work-groups running at once; their grid barriers end
/// rounds of the launch (Core/GridRounds.h), which hold for any grid: the
/// limit is what the occupancy calculator gives for the whole device, as on
/// a GPU, so a grid sized the usual way (blocks per multiprocessor times
/// multiprocessors) is accepted. Under memcheck their translation keeps the
/// spin barrier: 0, no cooperative launch.
constexpr uint64_t CPUCooperativeBlocks = 1024;
uint64_t cooperativeBlockLimit(const DeviceProperties &P,
                               const container::KernelInfo *K,
                               uint64_t Threads, size_t Shared) {
  switch (P.Kind) {
  case BackendKind::CPU:
    return CPUCooperativeBlocks;
  case BackendKind::NVIDIA:
  case BackendKind::HIP:
    return uint64_t(occupancy(P, K, int(Threads), Shared)) *
           P.MultiProcessorCount;
  case BackendKind::TTSim:
    return P.MultiProcessorCount;
  case BackendKind::OpenCL:
  case BackendKind::LevelZero:
    if (!runsGridSyncInRounds(P))
      return 0;
    return uint64_t(occupancy(P, K, int(Threads), Shared)) *
           P.MultiProcessorCount;
  }
  return 0;
}

/// The block size a device-linked kernel's components assume (launch rules
/// of the contract link, docs/SeparateCompilation.md): a launch that breaks
/// one is refused with cudaErrorInvalidConfiguration, as CUDA refuses a
/// block its kernel was not built for, and the log names who assumes what.
cudaError_t checkLaunchRules(const container::KernelInfo &Info,
                             uint64_t Threads) {
  for (const container::LaunchRule &R : Info.LaunchRules) {
    bool Ok = R.K == container::LaunchRule::Exactly ? Threads == R.Value
              : R.K == container::LaunchRule::MultipleOf
                  ? Threads % R.Value == 0
                  : Threads <= R.Value;
    if (Ok)
      continue;
    log(LogLevel::Warn,
        "launch of '" + Info.Demangled + "' with " + std::to_string(Threads) +
            " threads per block refused: the block size must be " +
            container::launchRuleKindName(R.K) + " " + std::to_string(R.Value) +
            ", because " + R.Why);
    return cudaErrorInvalidConfiguration;
  }
  return cudaSuccess;
}

} // namespace

cudaError_t api::checkLaunchConfig(const KernelRecord &K,
                                   const DeviceProperties &P, const dim3 &Grid,
                                   const dim3 &Block, uint64_t Shared) {
  // Checked as CUDA 13 does (not sticky): every dimension out of range is
  // cudaErrorInvalidValue there (CUDA 12 returned
  // cudaErrorInvalidConfiguration).
  uint64_t Threads = uint64_t(Block.x) * Block.y * Block.z;
  if (!Grid.x || !Grid.y || !Grid.z || !Block.x || !Block.y || !Block.z ||
      Threads > P.MaxThreadsPerBlock || Block.x > P.MaxBlockDim[0] ||
      Block.y > P.MaxBlockDim[1] || Block.z > P.MaxBlockDim[2] ||
      Grid.x > P.MaxGridDim[0] || Grid.y > P.MaxGridDim[1] ||
      Grid.z > P.MaxGridDim[2])
    return cudaErrorInvalidValue;
  if (!K.Info)
    return cudaSuccess;
  if (K.Info->MaxThreads && Threads > K.Info->MaxThreads)
    return cudaErrorLaunchOutOfResources;
  if (cudaError_t E = checkLaunchRules(*K.Info, Threads))
    return E;
  uint64_t Limit = K.MaxDynamicShared >= 0
                       ? uint64_t(K.MaxDynamicShared)
                       : (P.SharedMemPerBlock > K.Info->StaticShared
                              ? P.SharedMemPerBlock - K.Info->StaticShared
                              : 0);
  return Shared > Limit ? cudaErrorInvalidValue : cudaSuccess;
}

namespace {

cudaError_t launch(const void *Func, dim3 Grid, dim3 Block, void **Args,
                   size_t Shared, cudaStream_t Stream, bool Cooperative = false,
                   bool MayHold = false) {
  // (Not resolve(): a launch that may join the eager window does not flush
  // it; eagerOffer decides.)
  StreamObj *S;
  if (cudaError_t E = RT().resolveStream(Stream, S))
    return E;
  if (int St = S->Ctx->Sticky.load())
    return static_cast<cudaError_t>(St);
  // CUDA 13 (measured on an H200) answers a pointer that is no registered
  // kernel with cudaErrorInvalidResourceHandle (CUDA 12:
  // cudaErrorInvalidDeviceFunction).
  KernelRecord *K = RT().findKernel(Func);
  if (!K)
    return cudaErrorInvalidResourceHandle;
  DeviceContext &Ctx = *S->Ctx;
  const DeviceProperties &P = Ctx.Dev->properties();
  if (cudaError_t E = checkLaunchConfig(*K, P, Grid, Block, Shared))
    return E;
  uint64_t Threads = uint64_t(Block.x) * Block.y * Block.z;
  if (Cooperative) {
    uint64_t Limit = cooperativeBlockLimit(P, K->Info, Threads, Shared);
    if (Limit == 0 && memCheckEnabled() &&
        (P.Kind == BackendKind::OpenCL || P.Kind == BackendKind::LevelZero)) {
      log(LogLevel::Warn, "cudaLaunchCooperativeKernel: " + P.Name +
                              " runs no cooperative launches under "
                              "HETGPU_MEMCHECK (its grid barriers need the "
                              "launch in rounds, which memcheck's "
                              "translation does not have)");
      return cudaErrorNotSupported;
    }
    if (uint64_t(Grid.x) * Grid.y * Grid.z > Limit)
      return cudaErrorCooperativeLaunchTooLarge;
  }
  // Stream capture (Capture.cpp): a kernel node with a copy of the
  // arguments instead of a launch. Cooperative launches are not captured.
  if (Cooperative) {
    if (cudaError_t E = captureRefuse(*S, "cudaLaunchCooperativeKernel"))
      return E;
  } else {
    bool Captured;
    if (cudaError_t E = captureWork(
            *S, "cudaLaunchKernel",
            [&](GraphNode &N) {
              N.Kind = NodeKind::Kernel;
              cudaKernelNodeParams KP = {const_cast<void *>(Func), Grid,
                                         Block, unsigned(Shared), Args,
                                         nullptr};
              return setKernelParams(N, &KP, "cudaLaunchKernel");
            },
            Captured))
      return E;
    if (Captured)
      return cudaSuccess;
  }
  Kernel *Kn;
  if (cudaError_t E = RT().getKernel(Ctx, *K, Kn))
    return E;
  // Coalescing of eager launches (API/EagerCoalesce.h): only plain
  // launches are held; any other on a stream with a held one flushes it.
  bool Plain = MayHold && !Cooperative &&
               !(K->Info && gridRoundsKernel(P, *K->Info)) &&
               !activeMigrationService() && !memCheckEnabled();
  if (!Plain)
    eagerFlushStream(*S);
  LaunchParams LP;
  LP.Grid[0] = Grid.x;
  LP.Grid[1] = Grid.y;
  LP.Grid[2] = Grid.z;
  LP.Block[0] = Block.x;
  LP.Block[1] = Block.y;
  LP.Block[2] = Block.z;
  LP.DynamicShared = Shared;
  LP.Args = Args;
  LP.Cooperative = Cooperative;
  // A kernel with grid barriers on a device without residency runs in
  // rounds (never migrated: its state buffer is the rounds'). So does a
  // cooperative launch of a migration-instrumented kernel: with the yield
  // flag clear no block suspends at a loop safe point, so it is one round,
  // the launch as it is.
  if ((K->Info && gridRoundsKernel(P, *K->Info)) ||
      (Cooperative && activeMigrationService())) {
    std::lock_guard<std::recursive_mutex> Lock(Ctx.M);
    RT().orderLegacy(*S);
    return mapStatus(Ctx, gridRoundsLaunch(Ctx, *S, *Kn, LP));
  }
  // (A cooperative launch is never migrated: a block suspended at a safe
  // point would leave the others waiting at the grid barrier.)
  MigrationService *Mig = activeMigrationService();
  if (Mig) {
    // Live migration (Core/MigrationService.h): a migratable launch.
    {
      std::lock_guard<std::recursive_mutex> Lock(Ctx.M);
      RT().orderLegacy(*S);
    }
    return mapStatus(Ctx, Mig->launch(Ctx, *S, *Kn, *K, LP));
  }
  std::lock_guard<std::recursive_mutex> Lock(Ctx.M);
  if (Plain) {
    bool Held;
    eagerOffer(*S, *K, *Kn, Func, Grid, Block, Args, Shared, Held);
    if (Held)
      return cudaSuccess;
  }
  RT().orderLegacy(*S);
  if (memCheckEnabled())
    return mapStatus(Ctx, memCheckedLaunch(Ctx, *S, *Kn, *K, LP));
  return mapStatus(Ctx, S->Q->launch(*Kn, LP));
}

} // namespace

cudaError_t api::launchKernel(const void *Func, dim3 Grid, dim3 Block,
                              void **Args, size_t Shared,
                              cudaStream_t Stream) {
  return launch(Func, Grid, Block, Args, Shared, Stream);
}

HETGPU_API cudaError_t cudaLaunchKernel(const void *Func, dim3 Grid,
                                        dim3 Block, void **Args, size_t Shared,
                                        cudaStream_t Stream) {
  return ret(launch(Func, Grid, Block, Args, Shared, Stream,
                    /*Cooperative=*/false, /*MayHold=*/true));
}

HETGPU_API cudaError_t cudaLaunchCooperativeKernel(const void *Func,
                                                   dim3 Grid, dim3 Block,
                                                   void **Args, size_t Shared,
                                                   cudaStream_t Stream) {
  return ret(launch(Func, Grid, Block, Args, Shared, Stream,
                    /*Cooperative=*/true));
}
