//===- hetgpu-nvidia-transfer.cpp - GPU -> GPU moves of arena memory, directly -------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// hetgpu-nvidia-transfer [MB]: drives the NVIDIA backend's device interface
/// without the CUDA runtime on top, to check what live migration between two
/// GPUs uses (Device::transferArenaRange, peer access, Queue::copyPeer):
/// allocations at unified (arena) addresses move GPU 0 -> GPU 1 -> GPU 0 with
/// their bytes and addresses, at peer-to-peer speed, and the errors are the
/// documented ones. Runs on the stand-in driver (FAKE_CUDA_DEVICES=2,
/// test/Migration/nvidia2-fake-transfer.test) and on a machine with two GPUs
/// (bench/multigpu/run-x2.sh). Prints one line per check; exit status 1 if
/// a check failed, 2 without two GPUs.
///
//===----------------------------------------------------------------------===//

#include "Core/Device.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

namespace hetgpu {
namespace rt {
std::unique_ptr<Backend> createNVIDIABackend();
} // namespace rt
} // namespace hetgpu

using namespace hetgpu::rt;

static const char *codeName(ErrorCode C) {
  switch (C) {
  case ErrorCode::Success: return "Success";
  case ErrorCode::InvalidValue: return "InvalidValue";
  case ErrorCode::OutOfMemory: return "OutOfMemory";
  case ErrorCode::InvalidDevicePointer: return "InvalidDevicePointer";
  case ErrorCode::NotSupported: return "NotSupported";
  default: return "OtherError";
  }
}

static int Failures = 0;

static void report(const char *What, const Status &S) {
  if (S.isOk())
    std::printf("%s: ok\n", What);
  else
    std::printf("%s: %s (%s)\n", What, codeName(S.Code), S.Message.c_str());
}

static void expect(bool Ok, const char *What) {
  std::printf("%s: %s\n", What, Ok ? "PASS" : "FAIL");
  Failures += !Ok;
}

static double msSince(std::chrono::steady_clock::time_point T) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - T)
      .count();
}

/// Reads [P, P + N) through a queue of \p D.
static std::vector<uint32_t> readBack(Device &D, void *P, size_t N) {
  std::vector<uint32_t> Out(N / 4, 0);
  std::unique_ptr<Queue> Q;
  if (D.createQueue(Q) || Q->memcpy(Out.data(), P, N, CopyKind::DeviceToHost) ||
      Q->synchronize())
    std::fill(Out.begin(), Out.end(), 0xdeadbeef);
  return Out;
}

int main(int Argc, char **Argv) {
  // Device memory at unified addresses, as in a migratable process (an
  // explicit HETGPU_ARENA=0 shows the refusal).
  setenv("HETGPU_ARENA", "1", /*overwrite=*/0);
  size_t MB = Argc > 1 ? std::strtoul(Argv[1], nullptr, 10) : 40;
  if (!MB)
    MB = 40;
  std::unique_ptr<Backend> B = createNVIDIABackend();
  std::vector<std::unique_ptr<Device>> Devs;
  if (Status S = B->discover(Devs)) {
    std::printf("discover: %s\n", S.Message.c_str());
    return 2;
  }
  if (Devs.size() < 2) {
    std::printf("need two GPUs, found %zu\n", Devs.size());
    return 2;
  }
  Device &G0 = *Devs[0], &G1 = *Devs[1];
  std::printf("gpus: %zu (%s, %s)\n", Devs.size(), G0.properties().Name.c_str(),
              G1.properties().Name.c_str());
  std::printf("can access peer: 0->1 %d, 1->0 %d\n", int(G0.canAccessPeer(G1)),
              int(G1.canAccessPeer(G0)));
  Status Cap = G0.transferArenaRange(G1, nullptr, 0);
  report("direct move 0->1 possible", Cap);
  if (Cap)
    return 0; // the negative twins stop here

  // A (MB MiB: spans chunks unless tiny) and a small B, each with its own
  // pattern; B also gets a pointer to A (device pointers stay valid).
  const size_t NA = MB << 20, NB = 1 << 20;
  void *A = nullptr, *Bp = nullptr;
  report("allocate on gpu 0", G0.allocate(NA, A));
  report("allocate on gpu 0 (small)", G0.allocate(NB, Bp));
  if (!A || !Bp)
    return 1;
  std::vector<uint32_t> HA(NA / 4), HB(NB / 4);
  for (size_t I = 0; I < HA.size(); ++I)
    HA[I] = uint32_t(I * 2654435761u + 7);
  for (size_t I = 0; I < HB.size(); ++I)
    HB[I] = uint32_t(~I);
  std::memcpy(HB.data(), &A, sizeof A);
  {
    std::unique_ptr<Queue> Q;
    Status S = G0.createQueue(Q);
    if (S.isOk())
      S = Q->memcpy(A, HA.data(), NA, CopyKind::HostToDevice);
    if (S.isOk())
      S = Q->memcpy(Bp, HB.data(), NB, CopyKind::HostToDevice);
    if (S.isOk())
      S = Q->synchronize();
    report("fill on gpu 0", S);
  }

  // GPU 0 -> GPU 1.
  auto T = std::chrono::steady_clock::now();
  Status S1 = G0.transferArenaRange(G1, A, NA);
  double Ms = msSince(T);
  Status S2 = G0.transferArenaRange(G1, Bp, NB);
  report("move 0->1", S1);
  report("move 0->1 (small)", S2);
  std::printf("MOVE gpu0->gpu1 %zu MB: %.3f ms (%.1f GB/s)\n", MB, Ms,
              NA / (Ms * 1e6));
  expect(readBack(G1, A, NA) == HA && readBack(G1, Bp, NB) == HB,
         "read on gpu 1 after the move: same bytes at the same addresses");
  // The source gave the range away.
  Status Again = G0.transferArenaRange(G1, A, NA);
  report("move 0->1 again", Again);
  expect(Again.Code == ErrorCode::InvalidDevicePointer,
         "a range gpu 0 no longer holds is refused");

  // Kernels of GPU 0 may use GPU 1's memory (peer access), and peer copies
  // run straight between the GPUs.
  report("gpu 0 enables peer access to gpu 1", G0.enablePeerAccess(G1));
  {
    void *C = nullptr;
    report("allocate on gpu 0 (copy target)", G0.allocate(NB, C));
    std::unique_ptr<Queue> Q;
    Status S = G0.createQueue(Q);
    if (S.isOk())
      S = Q->copyPeer(C, G0, Bp, G1, NB);
    if (S.isOk())
      S = Q->synchronize();
    report("peer copy gpu 1 -> gpu 0 on a gpu 0 queue", S);
    expect(S.isOk() && readBack(G0, C, NB) == HB, "peer copy bytes");
    if (C)
      G0.release(C);
  }
  report("gpu 0 disables peer access to gpu 1", G0.disablePeerAccess(G1));

  // GPU 1 -> GPU 0.
  T = std::chrono::steady_clock::now();
  S1 = G1.transferArenaRange(G0, A, NA);
  Ms = msSince(T);
  S2 = G1.transferArenaRange(G0, Bp, NB);
  report("move 1->0", S1);
  report("move 1->0 (small)", S2);
  std::printf("MOVE gpu1->gpu0 %zu MB: %.3f ms (%.1f GB/s)\n", MB, Ms,
              NA / (Ms * 1e6));
  expect(readBack(G0, A, NA) == HA && readBack(G0, Bp, NB) == HB,
         "read on gpu 0 after moving back: same bytes at the same addresses");

  // Errors: not arena memory, and a device of no NVIDIA kind.
  int Local = 0;
  report("move of a host pointer", G0.transferArenaRange(G1, &Local, 4));
  report("release on gpu 0", G0.release(A));
  report("release on gpu 0 (small)", G0.release(Bp));
  std::printf("%s\n", Failures ? "FAILED" : "ALL PASS");
  return Failures ? 1 : 0;
}
