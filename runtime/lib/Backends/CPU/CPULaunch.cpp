//===- CPULaunch.cpp - Grid launches on the CPU backend's pool ------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Runs a grid: the blocks of a launch are spread over the device's thread
/// pool, each worker with its own shared memory and hetgpu_block_ctx.
/// Device-side printf, assert, trap, malloc and clocks are the services of
/// include/hetgpu/ABI/BlockABI.h given to the translated code; assert and
/// trap leave the block by longjmp, and so do faults (FaultGuard.h).
///
//===----------------------------------------------------------------------===//

#include "Backends/CPU/CPUDevice.h"

#include <atomic>
#include <csignal>
#include <functional>
#include <pthread.h>
#include <sched.h>
#include <vector>
#include "Core/Log.h"
#include "Core/Printf.h"

#include <algorithm>
#include <cstdio>

using namespace hetgpu;
using namespace hetgpu::rt;
using namespace hetgpu::rt::cpu;

namespace {

Worker &workerOf(void *RT) { return *static_cast<Worker *>(RT); }

int servicePrintf(void *, const char *Format, const void *Args) {
  return devicePrintf(Format, Args);
}

[[noreturn]] void serviceAssert(void *RT, const char *Message, const char *File,
                                uint32_t Line, const char *Function) {
  Worker &W = workerOf(RT);
  const uint32_t *B = W.Ctx.block_idx;
  // CUDA's format. ABI/BlockABI.h does not pass the thread index to the
  // service, so the thread part names the block only.
  char Buf[1024];
  snprintf(Buf, sizeof(Buf),
           "%s:%u: %s: block: [%u,%u,%u], thread: [?,?,?] Assertion `%s` "
           "failed.\n",
           File ? File : "?", Line, Function ? Function : "?", B[0], B[1], B[2],
           Message ? Message : "?");
  fflush(stdout);
  fputs(Buf, stderr);
  fflush(stderr);
  W.Launch->fail(ErrorCode::Assert, "device-side assert in kernel " +
                                        *W.Launch->KernelName + ": " +
                                        std::string(Buf, strlen(Buf) - 1));
  longjmp(W.Jmp, 1);
}

[[noreturn]] void serviceTrap(void *RT) {
  Worker &W = workerOf(RT);
  const uint32_t *B = W.Ctx.block_idx;
  W.Launch->fail(ErrorCode::LaunchFailure,
                 "kernel " + *W.Launch->KernelName + " trapped in block [" +
                     std::to_string(B[0]) + "," + std::to_string(B[1]) + "," +
                     std::to_string(B[2]) + "]");
  longjmp(W.Jmp, 1);
}

void *serviceMalloc(void *, uint64_t Size) { return malloc(Size); }
void serviceFree(void *, void *P) { free(P); }

uint64_t serviceClock64(void *) {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(
          Clock::now().time_since_epoch())
          .count());
}

uint64_t serviceGlobalTimer(void *) {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(
          std::chrono::system_clock::now().time_since_epoch())
          .count());
}

/// Ends launch \p W runs with the sticky error of the fault that left its
/// block: cudaErrorIllegalAddress for wild accesses and stack overflows (as
/// an H200 reports them), cudaErrorLaunchFailure for traps.
void failOnFault(Worker &W) {
  const uint32_t *B = W.Ctx.block_idx;
  bool Address = W.Fault.Signal == SIGSEGV || W.Fault.Signal == SIGBUS;
  std::string Msg = "kernel " + *W.Launch->KernelName + ", block [" +
                    std::to_string(B[0]) + "," + std::to_string(B[1]) + "," +
                    std::to_string(B[2]) + "]: " + W.Fault.describe();
  // The first fault of a launch is reported (the others skip their blocks).
  if (!W.Launch->Failed.load())
    log(LogLevel::Error, Msg);
  W.Launch->fail(Address ? ErrorCode::IllegalAddress
                         : ErrorCode::LaunchFailure,
                 std::move(Msg));
}

/// Runs one block; returns false when a service or a fault left it by
/// longjmp. Kept small and separate so nothing lives across setjmp.
__attribute__((noinline)) bool runBlock(Worker &W, hetgpu_block_fn Fn,
                                        void **Args) {
  prepareFaultThread();
  if (int Why = setjmp(W.Jmp)) {
    leaveFaultScope();
    if (Why == FaultJump)
      failOnFault(W);
    return false;
  }
  enterFaultScope(&W.Jmp, &W.Fault);
  Fn(Args, &W.Ctx);
  leaveFaultScope();
  return true;
}
} // namespace

namespace {
/// Runs Body(B) for every block B < N on a thread of its own at once (a
/// cooperative launch: a grid barrier needs every block running), on
/// stacks of StackBytes. The threads start their blocks only once all of
/// them exist; false (no block run) when one cannot be started.
bool runBlocksAtOnce(uint64_t N, size_t StackBytes,
                     const std::function<void(uint64_t)> &Body) {
  struct Shared {
    const std::function<void(uint64_t)> *Body;
    std::atomic<int> Go{0}; // 0: wait, 1: run, -1: give up
  } Sh;
  Sh.Body = &Body;
  struct Arg {
    Shared *Sh;
    uint64_t B;
  };
  std::vector<Arg> Args(N);
  std::vector<pthread_t> Threads;
  pthread_attr_t Attr;
  pthread_attr_init(&Attr);
  setWorkerStack(Attr, StackBytes);
  bool Ok = true;
  for (uint64_t B = 1; B < N && Ok; ++B) {
    Args[B] = {&Sh, B};
    pthread_t T;
    Ok = pthread_create(
             &T, &Attr,
             [](void *P) -> void * {
               auto *A = static_cast<Arg *>(P);
               int Go;
               while ((Go = A->Sh->Go.load(std::memory_order_acquire)) == 0)
                 sched_yield();
               if (Go > 0)
                 (*A->Sh->Body)(A->B);
               return nullptr;
             },
             &Args[B]) == 0;
    if (Ok)
      Threads.push_back(T);
  }
  pthread_attr_destroy(&Attr);
  Sh.Go.store(Ok ? 1 : -1, std::memory_order_release);
  if (Ok)
    Body(0);
  for (pthread_t T : Threads)
    pthread_join(T, nullptr);
  return Ok;
}
} // namespace

Status CPUDevice::runGrid(CPUKernel &K, const LaunchParams &P, ArgPack &Args) {
  std::call_once(PoolOnce, [this] {
    // The queue thread that runs a grid takes blocks too: Workers threads
    // in all.
    Pool = std::make_unique<ThreadPool>(Workers - 1, workerStackBytes());
    // One more state for grids run by the calling queue thread itself.
    WorkerStates = std::vector<Worker>(Pool->size() + 1);
  });
  // The worker states are the device's: one grid at a time (the pool runs
  // one loop at a time anyway).
  std::lock_guard<std::mutex> GridLock(GridM);
  uint64_t GX = P.Grid[0], GY = P.Grid[1];
  uint64_t NumBlocks = GX * GY * P.Grid[2];
  // A cooperative launch has a state per block, each block a thread.
  std::vector<Worker> BlockStates(P.Cooperative ? NumBlocks : 0);
  std::vector<Worker> &States = P.Cooperative ? BlockStates : WorkerStates;
  const container::KernelInfo &Info = K.info();
  uint64_t StaticAligned = (Info.StaticShared + 15) / 16 * 16;
  uint64_t SharedBytes = StaticAligned + P.DynamicShared;
  LaunchState L;
  L.KernelName = &Info.Name;
  for (Worker &W : States) {
    W.ensureShared(std::max<uint64_t>(SharedBytes, 16));
    if (!W.Shared)
      return Status(ErrorCode::OutOfMemory, "cannot allocate shared memory");
    W.Launch = &L;
    W.Services = {&W,
                  &servicePrintf,
                  &serviceAssert,
                  &serviceTrap,
                  &serviceMalloc,
                  &serviceFree,
                  &serviceClock64,
                  &serviceGlobalTimer};
    hetgpu_block_ctx &C = W.Ctx;
    memset(&C, 0, sizeof(C));
    for (int I = 0; I < 3; ++I) {
      C.grid_dim[I] = P.Grid[I];
      C.block_dim[I] = P.Block[I];
    }
    C.shared = W.Shared;
    C.dynamic_shared_offset = StaticAligned;
    C.dynamic_shared_size = P.DynamicShared;
    C.services = &W.Services;
    C.state = nullptr;
    C.yield_flag = nullptr;
  }
  hetgpu_block_fn Fn = K.Fn;
  void **A = Args.args();
  auto Body = [&](uint64_t B, unsigned WId) {
    if (L.Failed.load(std::memory_order_relaxed))
      return;
    Worker &W = States[WId];
    W.Ctx.block_idx[0] = static_cast<uint32_t>(B % GX);
    W.Ctx.block_idx[1] = static_cast<uint32_t>((B / GX) % GY);
    W.Ctx.block_idx[2] = static_cast<uint32_t>(B / (GX * GY));
    runBlock(W, Fn, A);
  };
  if (P.Cooperative) {
    if (!runBlocksAtOnce(NumBlocks, workerStackBytes(),
                         [&](uint64_t B) { Body(B, unsigned(B)); }))
      return Status(ErrorCode::LaunchOutOfResources,
                    "cpu: cannot start a thread for each of the " +
                        std::to_string(NumBlocks) +
                        " blocks of the cooperative launch of " + Info.Name);
  } else {
    Pool->parallelFor(NumBlocks, Body);
  }
  std::lock_guard<std::mutex> Lock(L.M);
  return L.Error;
}
