//===- TTSimLaunch.cpp - Launches on the tt-sim cores ---------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// One launch: the descriptor, arguments, printf ring and heap are placed
/// in device DRAM, the module's cores (or cores started for this launch
/// alone) run the grid, and the ring's printf records, a device-side
/// assert or trap and the cores' exit statuses become output and Status.
///
//===----------------------------------------------------------------------===//
#include "Backends/TTSim/TTSimDevice.h"
#include "Core/Printf.h"

#include "hetgpu/ABI/BlockExecutor.h"
#include "hetgpu/ABI/RVManycorePrintf.h"

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <sys/wait.h>

using namespace hetgpu;
using namespace hetgpu::rt;
using namespace hetgpu::rt::ttsim;

namespace {

/// Formats one record with the runtime's printf formatter (the one every
/// in-process backend uses), after pointing each %s slot of a copy of the
/// argument buffer at the string copied into the record.
std::string formatRecord(const char *Rec) {
  rvmc_printf_rec H;
  std::memcpy(&H, Rec, sizeof(H));
  const char *Fmt = Rec + sizeof(H);
  const char *Args = Fmt + ((H.fmt_len + 1 + 7) & ~7u);
  const char *Strs = Args + ((H.args_len + 7) & ~7u);
  std::vector<char> Buf(Args, Args + H.args_len);
  Buf.resize(H.args_len + 8);
  uint32_t Off = 0;
  rvmc_fmt_piece P;
  for (uint32_t Pos = 0; rvmc_fmt_next(Fmt, Pos, &P); Pos += P.len) {
    for (uint32_t S = 0; S < P.stars; ++S)
      Off = rvmc_fmt_align(Off, 4) + 4;
    if (!P.size)
      continue;
    Off = rvmc_fmt_align(Off, P.size);
    if (P.kind == RVMC_FMT_STRING && Off + 8 <= H.args_len) {
      uint64_t S;
      std::memcpy(&S, Args + Off, 8);
      const char *Str = (S == ~0ull || S >= H.str_len) ? nullptr : Strs + S;
      std::memcpy(Buf.data() + Off, &Str, 8);
    }
    Off += P.size;
  }
  return formatDevicePrintf(Fmt, Buf.data());
}

/// Prints the printf records of a launch's ring, in the order they were
/// reserved, and says how many did not fit.
void printRing(const rvmc_ring &R, uint64_t RingData,
               const std::string &Kernel) {
  const rvmc_ring *Ring = &R;
  uint64_t Used = std::min<uint64_t>(Ring->head, Ring->capacity);
  std::string Text;
  for (uint64_t At = 0; At + sizeof(rvmc_printf_rec) <= Used;) {
    const char *Rec = reinterpret_cast<const char *>(RingData + At);
    rvmc_printf_rec H;
    std::memcpy(&H, Rec, sizeof(H));
    if (H.size < sizeof(H) || At + H.size > Used)
      break;
    Text += formatRecord(Rec);
    At += H.size;
  }
  if (!Text.empty()) {
    std::fwrite(Text.data(), 1, Text.size(), stdout);
    std::fflush(stdout);
  }
  if (Ring->dropped)
    std::fprintf(stderr,
                 "tt-sim: %u printf records of '%s' did not fit in the %llu "
                 "byte ring (HETGPU_TTSIM_PRINTF_KB)\n",
                 Ring->dropped, Kernel.c_str(),
                 (unsigned long long)Ring->capacity);
}

/// The error of a finished launch: a device-side assert or trap the
/// descriptor reports, or a core that did not exit normally (\p Log: the
/// cores' stderr).
Status launchStatus(const rvmc_launch &Desc, const std::vector<int> &Statuses,
                    const std::string &Log, const std::string &Kernel,
                    const std::string &Qemu) {
  const rvmc_launch *L = &Desc;
  if (L->error_kind == RVMC_ERR_ASSERT || L->error_kind == RVMC_ERR_TRAP) {
    std::string Where = " (kernel '" + Kernel + "', block " +
                        std::to_string(L->error_block) + ", core " +
                        std::to_string(L->error_core) + ")";
    std::string Text(L->error_text, strnlen(L->error_text, RVMC_ERROR_TEXT));
    std::fprintf(stderr, "%s%s\n", Text.c_str(), Where.c_str());
    return Status(L->error_kind == RVMC_ERR_ASSERT ? ErrorCode::Assert
                                                   : ErrorCode::LaunchFailure,
                  "tt-sim: " + Text + Where);
  }
  for (size_t C = 0; C < Statuses.size(); ++C) {
    int St = Statuses[C];
    std::string What;
    // A core killed by a memory fault (qemu ends itself with the guest's
    // signal) is CUDA's illegal address, as on a GPU.
    ErrorCode Code = ErrorCode::LaunchFailure;
    if (St != -1 && WIFSIGNALED(St) &&
        (WTERMSIG(St) == SIGSEGV || WTERMSIG(St) == SIGBUS))
      Code = ErrorCode::IllegalAddress;
    if (St == -1)
      What = "could not be waited for";
    else if (WIFSIGNALED(St))
      What = "was killed by signal " + std::to_string(WTERMSIG(St)) +
             " (a memory fault or stack overflow in the kernel)";
    else if (WIFEXITED(St) && WEXITSTATUS(St) == 127)
      What = "could not execute " + Qemu;
    else if (WIFEXITED(St) && WEXITSTATUS(St) != RVMC_EXIT_OK)
      What = "exited with status " + std::to_string(WEXITSTATUS(St));
    if (What.empty())
      continue;
    std::string Msg = "tt-sim: core " + std::to_string(C) +
                      " of the launch "
                      "of '" +
                      Kernel + "' " + What;
    // qemu reports guest faults on stderr ("uncaught target signal").
    if (!Log.empty())
      Msg += ": " + Log.substr(0, Log.find('\n', 0) == std::string::npos
                                      ? Log.size()
                                      : Log.find('\n', 0));
    return Status(Code, Msg);
  }
  return Status::ok();
}

} // namespace

Status TTSimDevice::checkLaunch(const TTSimKernel &K, const LaunchParams &P,
                                LaunchLayout &Out) const {
  const container::KernelInfo &KI = K.Info;
  uint64_t Blocks = uint64_t(P.Grid[0]) * P.Grid[1] * P.Grid[2];
  uint64_t Threads = uint64_t(P.Block[0]) * P.Block[1] * P.Block[2];
  if (Blocks == 0 || Threads == 0 || Threads > Props.MaxThreadsPerBlock ||
      P.Block[0] > Props.MaxBlockDim[0] || P.Block[1] > Props.MaxBlockDim[1] ||
      P.Block[2] > Props.MaxBlockDim[2] || P.Grid[1] > Props.MaxGridDim[1] ||
      P.Grid[2] > Props.MaxGridDim[2])
    return Status(
        ErrorCode::InvalidConfiguration,
        "tt-sim: invalid launch configuration for '" + KI.Name + "': grid " +
            std::to_string(P.Grid[0]) + "x" + std::to_string(P.Grid[1]) + "x" +
            std::to_string(P.Grid[2]) + ", block " +
            std::to_string(P.Block[0]) + "x" + std::to_string(P.Block[1]) +
            "x" + std::to_string(P.Block[2]));
  // Core SRAM holds static shared, then dynamic shared (16-byte aligned):
  // shared memory must fit. The block executor's per-thread states and
  // frames (the spill state of the SIMT->MIMD lowering) follow in SRAM when
  // they fit there too, else they go to a per-core area in device DRAM.
  Out.Static = std::max<uint64_t>(KI.StaticShared, K.ImageShared);
  Out.DynOff = (Out.Static + 15) & ~uint64_t(15);
  uint64_t Shared = (Out.DynOff + P.DynamicShared + 63) & ~uint64_t(63);
  if (Out.DynOff + P.DynamicShared > RVMC_SRAM_SIZE)
    return Status(ErrorCode::LaunchOutOfResources,
                  "tt-sim: kernel '" + KI.Name + "' needs " +
                      std::to_string(Out.DynOff + P.DynamicShared) +
                      " bytes of shared memory (" + std::to_string(Out.Static) +
                      " static + " + std::to_string(P.DynamicShared) +
                      " dynamic); a core's SRAM has " +
                      std::to_string(RVMC_SRAM_SIZE));
  Out.Spill = 0;
  if (K.Frame != NoExecutor)
    Out.Spill = ((Threads * sizeof(hetgpu_thread_state) + 63) & ~uint64_t(63)) +
                Threads * K.Frame;
  Out.SpillInDram = Shared + Out.Spill > RVMC_SRAM_SIZE;
  return Status::ok();
}

Status TTSimDevice::runLaunch(TTSimKernel &K, const LaunchParams &P,
                              const std::vector<char> &ArgBytes) {
  const container::KernelInfo &KI = K.Info;
  LaunchLayout Lay;
  if (Status S = checkLaunch(K, P, Lay))
    return S;
  uint64_t Blocks = uint64_t(P.Grid[0]) * P.Grid[1] * P.Grid[2];
  // Descriptor, argument array and bytes, printf ring, heap: one block.
  size_t NP = KI.Params.size();
  uint64_t DescBytes = (sizeof(rvmc_launch) + 63) & ~uint64_t(63);
  uint64_t ArrBytes = (NP * 8 + 63) & ~uint64_t(63);
  uint64_t ArgAreaBytes = (ArgBytes.size() + 63) & ~uint64_t(63);
  uint64_t RingHdr = (sizeof(rvmc_ring) + 63) & ~uint64_t(63);
  uint64_t HeapHdr = (sizeof(rvmc_heap) + 63) & ~uint64_t(63);
  uint64_t Total =
      DescBytes + ArrBytes + ArgAreaBytes + RingHdr + Cfg.PrintfBytes + HeapHdr;
  DramBlock Block(Mem);
  if (Status S = Mem.allocate(Total, Block.Addr, 4096))
    return S;
  DramBlock Heap(Mem);
  bool WantHeap = KI.Features & container::FeatMalloc;
  if (WantHeap)
    if (Status S = Mem.allocate(Cfg.HeapBytes, Heap.Addr, 4096))
      return S;
  unsigned N = unsigned(std::min<uint64_t>(Cfg.Cores, Blocks));
  // Thread states and frames that do not fit in SRAM: one area per core.
  DramBlock Spill(Mem);
  uint64_t SpillStride = (Lay.Spill + 63) & ~uint64_t(63);
  if (Lay.SpillInDram)
    if (Status S = Mem.allocate(SpillStride * N, Spill.Addr, 4096))
      return Status(S.Code, "tt-sim: kernel '" + KI.Name +
                                "': " + std::to_string(Lay.Spill) +
                                " bytes of per-thread state per core do not "
                                "fit in SRAM and not in DRAM: " +
                                S.Message);
  char *Base = Block.as<char>();
  auto *L = reinterpret_cast<rvmc_launch *>(Base);
  uint64_t ArrAddr = Block.Addr + DescBytes;
  uint64_t ArgAddr = ArrAddr + ArrBytes;
  uint64_t RingAddr = ArgAddr + ArgAreaBytes;
  uint64_t RingData = RingAddr + RingHdr;
  uint64_t HeapAddr = RingData + Cfg.PrintfBytes;
  // The block is reused memory: clear every header the cores read.
  std::memset(Base, 0, DescBytes + ArrBytes);
  std::memset(reinterpret_cast<void *>(RingAddr), 0, RingHdr);
  std::memset(reinterpret_cast<void *>(HeapAddr), 0, HeapHdr);
  std::memcpy(reinterpret_cast<void *>(ArgAddr), ArgBytes.data(),
              ArgBytes.size());
  for (size_t I = 0; I < NP; ++I) {
    uint64_t A = ArgAddr + KI.Params[I].Offset;
    std::memcpy(reinterpret_cast<void *>(ArrAddr + I * 8), &A, 8);
  }
  auto *Ring = reinterpret_cast<rvmc_ring *>(RingAddr);
  Ring->data = RingData;
  Ring->capacity = Cfg.PrintfBytes;
  if (WantHeap) {
    auto *H = reinterpret_cast<rvmc_heap *>(HeapAddr);
    H->base = Heap.Addr;
    H->size = Cfg.HeapBytes;
    H->next = 0;
  }

  L->abi_version = RVMC_ABI_VERSION;
  L->num_cores = N;
  L->block_fn = K.BlockFn;
  L->args = ArrAddr;
  for (int I = 0; I < 3; ++I) {
    L->grid[I] = P.Grid[I];
    L->block[I] = P.Block[I];
  }
  L->num_blocks = Blocks;
  L->static_shared = Lay.Static;
  L->dynamic_offset = Lay.DynOff;
  L->dynamic_shared = P.DynamicShared;
  L->sched = Cfg.Sched;
  L->heap = WantHeap ? HeapAddr : 0;
  L->ring = RingAddr;
  L->state = 0;
  L->yield_flag = 0;
  for (unsigned C = 0; C < N; ++C) {
    L->first[C] = Blocks * C / N;
    L->end[C] = Blocks * (C + 1) / N;
  }
  L->image_base = K.ImageBase;
  L->tls_image = K.ImageBase + K.Tls.VAddr;
  L->tls_filesz = K.Tls.FileSize;
  L->tls_memsz = K.Tls.MemSize;
  L->tls_align = K.Tls.Align;
  L->spill = Spill.Addr;
  L->spill_stride = Spill.Addr ? SpillStride : 0;
  uint64_t DramSize = Mem.highWater();

  // The module's cores run it; when another stream's launch holds them (or
  // HETGPU_TTSIM_PERSISTENT=0), cores started for this launch alone.
  std::string Log;
  std::vector<int> Statuses;
  Status Start;
  std::unique_lock<std::mutex> Lock(K.Pool->M, std::defer_lock);
  if (Cfg.Persistent && Lock.try_lock()) {
    Start =
        K.Pool->Group.run(Block.Addr, DramSize, N, Cfg.TimeoutS, Statuses, Log);
    Lock.unlock();
  } else {
    ttsim::CoreGroup Once(Cfg.Qemu, Mem.fd(), K.ImageFd, "one launch");
    Start = Once.run(Block.Addr, DramSize, N, Cfg.TimeoutS, Statuses, Log);
  }

  printRing(*Ring, RingData, KI.Name);
  if (Start)
    return Start;
  if (Status S = launchStatus(*L, Statuses, Log, KI.Name, Cfg.Qemu))
    return S;
  if (!Log.empty())
    std::fwrite(Log.data(), 1, Log.size(), stderr);
  return Status::ok();
}
