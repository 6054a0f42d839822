// A checkpoint file restored in a second process: process 1 checkpoints a
// launch running in another host thread (suspended at a safe point, the
// file written, the launch carries on to its end), prints the result and
// exits; process 2, the same program with RESTORE set, makes the same
// allocations (the arena hands out the same addresses), restores the file
// and so finishes the kernel from the saved safe point, from the memory as
// it was at the checkpoint: the same result. The host side of the program
// (its own variables, open files) is the program's business or CRIU's
// (docs/Migration.md, "Restoring in another process").
// REQUIRES: built-target-host, built-target-spirv, pocl
// RUN: hetgpu-cc %s -o %t
// RUN: rm -f %t.ck
// RUN: env HETGPU_DEVICE=cpu HETGPU_MIGRATE=on:sync CKPT=%t.ck %t > %t.p1
// RUN: FileCheck --check-prefix=P1 %s < %t.p1
// RUN: env HETGPU_DEVICE=cpu HETGPU_MIGRATE=on CKPT=%t.ck RESTORE=cpu %t > %t.p2
// RUN: env HETGPU_DEVICE=cpu HETGPU_MIGRATE=on:to=opencl CKPT=%t.ck RESTORE=opencl %t > %t.p3
// RUN: FileCheck --check-prefix=P2 %s < %t.p2
// RUN: FileCheck --check-prefix=P3 %s < %t.p3
// RUN: grep RESULT %t.p1 > %t.r1
// RUN: grep RESULT %t.p2 | diff %t.r1 -
// RUN: grep RESULT %t.p3 | diff %t.r1 -
// A process whose allocations differ is refused, by name.
// RUN: env HETGPU_DEVICE=cpu HETGPU_MIGRATE=on CKPT=%t.ck RESTORE=cpu SHIFT=1 %t > %t.p4
// RUN: FileCheck --check-prefix=P4 %s < %t.p4
// P1: checkpoint 0, suspended 1
// P1: RESULT {{[1-9][0-9]*}}
// P2: restore 0 on cpu
// P2: RESULT {{[1-9][0-9]*}}
// P3: restore 0 on opencl
// P3: RESULT {{[1-9][0-9]*}}
// P4: restore refused: {{.+}}
// SPDX-License-Identifier: Apache-2.0
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <hetgpu/hetgpu.h>
#include <thread>

// A block-uniform loop (safe points) with a barrier per step.
__global__ void iterate(unsigned *v, int steps) {
  __shared__ unsigned s[64];
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x, x = v[t];
  for (int i = 0; i < steps; ++i) {
    s[threadIdx.x] = x;
    __syncthreads();
    x = x * 1664525u + s[(threadIdx.x + 1) % 64] + i;
    __syncthreads();
  }
  v[t] = x;
}

int main() {
  const int NB = 4, NT = 64, N = NB * NT, Steps = 200000;
  const char *Ck = getenv("CKPT"), *Target = getenv("RESTORE");
  if (getenv("SHIFT")) {
    void *Extra;
    cudaMalloc(&Extra, 1 << 20);
  }
  unsigned *v;
  cudaMalloc(&v, N * sizeof(unsigned));
  auto result = [&] {
    unsigned h[N];
    cudaMemcpy(h, v, sizeof h, cudaMemcpyDeviceToHost);
    unsigned long long s = 0;
    for (int i = 0; i < N; ++i)
      s = s * 31 + h[i];
    return s | 1;
  };
  if (Target) {
    int rc = hetgpuRestore(Ck, Target);
    if (rc) {
      printf("restore refused: %s\n", hetgpuMigrationLastError());
      return 0;
    }
    const char *B = "?";
    hetgpuGetDeviceInfo(0, &B, nullptr, nullptr);
    printf("restore %d on %s\nRESULT %llu\n", rc, B, result());
    return 0;
  }
  unsigned h[N];
  for (int i = 0; i < N; ++i)
    h[i] = i * 7 + 1;
  cudaMemcpy(v, h, sizeof h, cudaMemcpyHostToDevice);
  unsigned long long Before = 0, Now = 0, Susp = 0;
  hetgpuMigrationGetStats(&Before, nullptr, nullptr, nullptr, nullptr);
  std::thread Runner([&] {
    iterate<<<NB, NT>>>(v, Steps);
    cudaDeviceSynchronize();
  });
  for (int W = 0; W < 20000 && Now == Before; ++W) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    hetgpuMigrationGetStats(&Now, nullptr, nullptr, nullptr, nullptr);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  int rc = hetgpuCheckpoint(nullptr, Ck);
  Runner.join();
  hetgpuMigrationGetStats(nullptr, &Susp, nullptr, nullptr, nullptr);
  printf("checkpoint %d, suspended %d\nRESULT %llu\n", rc, Susp > 0, result());
  return 0;
}
