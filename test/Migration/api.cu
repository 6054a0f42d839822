// The migration API of hetgpu.h (docs/Migration.md): hetgpuMigrateDevice
// moves an idle device (allocations, module variables) to another device
// and later launches run there under the same device number;
// hetgpuCheckpoint of an idle stream holds the device's memory, and
// hetgpuRestore puts it back (and moves the device); hetgpuCheckpoint of a
// launch running in another host thread suspends it at a safe point and
// writes it out while it carries on; restoring that file later on another
// device rolls memory back to the checkpoint and finishes the kernel from
// the saved safe point there, with the same result as the original run.
// Damaged or mismatched checkpoints and unknown devices are refused.
// Suspending a launch from another thread needs watched launches
// (`:sync`); with plain `on` launches are asynchronous and the checkpoint
// waits for the running kernel, then holds the device's memory (no
// suspension), which restores to the same result.
// REQUIRES: built-target-host, built-target-spirv, pocl
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_DEVICE=cpu HETGPU_MIGRATE=on:sync:to=opencl CKPT=%t.ck %t > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: FileCheck --check-prefix=ERR %s < %t.err
// RUN: env HETGPU_DEVICE=cpu HETGPU_MIGRATE=on:to=opencl CKPT=%t.cka %t > %t.outa 2>&1
// RUN: FileCheck --check-prefix=ASYNC %s < %t.outa
// ASYNC: migrate 0, now on opencl, same pointer 1
// ASYNC: sum on opencl 18064
// ASYNC: running checkpoint 0, suspended launch finished: 1, suspensions 0
// ASYNC: restore running 0 on opencl, same result 1
// ASYNC: ALL DONE
// RUN: env HETGPU_DEVICE=cpu CKPT=%t.ck2 not %t 2>&1 | FileCheck --check-prefix=OFF %s
// CHECK: start on cpu, sum 8982
// CHECK: migrate 0, now on opencl, same pointer 1
// CHECK: stream/events after the move: no error no error no error no error
// CHECK: sum on opencl 18064
// CHECK: counter 3
// CHECK: idle checkpoint 0 valid 0
// CHECK: restore 0 ({{.*}}), now on cpu, data restored 1
// CHECK: running checkpoint 0, suspended launch finished: 1, suspensions 1
// CHECK: restore running 0 on opencl, same result 1
// CHECK: damaged: checkpoint refused: checksum mismatch (corrupted file)
// CHECK: unknown: hetgpuMigrateDevice(0, nosuch): no such device
// CHECK: ALL DONE
// ERR: hetgpu: error: checkpoint refused: checksum mismatch (corrupted file)
// ERR: hetgpu: error: hetgpuMigrateDevice(0, nosuch): no such device
// OFF: needs a migratable process (HETGPU_MIGRATE
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <hetgpu/hetgpu.h>
#include <string>
#include <thread>

struct Node {
  Node *next;
  int value;
};

__device__ int counter;

// Pointers in device memory, one hop per barrier step.
__global__ void walk(Node **heads, int *sums, int steps) {
  __shared__ int hops[2][64];
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  Node *p = heads[t];
  int sum = 0;
  for (int i = 0; i < steps; ++i) {
    sum += p->value;
    p = p->next;
    hops[i & 1][threadIdx.x] = sum & 0xff;
    __syncthreads();
    sum += hops[i & 1][(threadIdx.x + 1) % blockDim.x] & 1;
  }
  sums[t] = sum;
  if (t == 0)
    atomicAdd(&counter, 1);
}

static const char *backend() {
  const char *B = "?";
  hetgpuGetDeviceInfo(0, &B, nullptr, nullptr);
  return B;
}

int main() {
  const int NB = 4, NT = 64, N = NB * NT, L = 16;
  Node *nodes, **heads;
  int *sums;
  cudaMalloc(&nodes, N * L * sizeof(Node));
  cudaMalloc(&heads, N * sizeof(Node *));
  cudaMalloc(&sums, N * sizeof(int));
  Node *hn = new Node[N * L];
  Node **hh = new Node *[N];
  for (int i = 0; i < N; ++i) {
    for (int k = 0; k < L; ++k)
      hn[i * L + k] = {&nodes[i * L + (k * 3 + 1) % L], (i + k) % 7};
    hh[i] = &nodes[i * L];
  }
  cudaMemcpy(nodes, hn, N * L * sizeof(Node), cudaMemcpyHostToDevice);
  cudaMemcpy(heads, hh, N * sizeof(Node *), cudaMemcpyHostToDevice);
  int zero = 0;
  cudaMemcpyToSymbol(counter, &zero, sizeof zero);
  auto total = [&] {
    int h[N];
    cudaMemcpy(h, sums, sizeof h, cudaMemcpyDeviceToHost);
    long s = 0;
    for (int i = 0; i < N; ++i)
      s += h[i];
    return s;
  };
  walk<<<NB, NT>>>(heads, sums, 10);
  cudaDeviceSynchronize();
  printf("start on %s, sum %ld\n", backend(), total());

  // A stream and events made before the move keep working after it.
  cudaStream_t St;
  cudaEvent_t E0, E1, E2;
  cudaStreamCreate(&St);
  cudaEventCreate(&E0);
  cudaEventCreate(&E1);
  cudaEventCreate(&E2);
  cudaEventRecord(E0, St);
  walk<<<NB, NT, 0, St>>>(heads, sums, 5); // queued work finishes first
  int rc = hetgpuMigrateDevice(0, "opencl");
  if (rc)
    printf("migrate failed: %s\n", hetgpuMigrationLastError());
  Node *check = nullptr;
  cudaMemcpy(&check, heads, sizeof check, cudaMemcpyDeviceToHost);
  printf("migrate %d, now on %s, same pointer %d\n", rc, backend(),
         check == &nodes[0]);
  cudaEventRecord(E1, St);
  walk<<<NB, NT, 0, St>>>(heads, sums, 20);
  cudaEventRecord(E2, St);
  cudaError_t Es = cudaEventSynchronize(E2);
  float Ms = -1;
  cudaError_t Et = cudaEventElapsedTime(&Ms, E1, E2);
  printf("stream/events after the move: %s %s %s %s\n", cudaGetErrorString(Es),
         cudaGetErrorString(cudaEventQuery(E0)), cudaGetErrorString(Et),
         cudaGetErrorString(cudaStreamSynchronize(St)));
  printf("sum on %s %ld\n", backend(), total());
  int c = 0;
  cudaMemcpyFromSymbol(&c, counter, sizeof c);
  printf("counter %d\n", c); // __device__ variable carried across

  // Idle checkpoint: the device's memory alone; restored on the CPU.
  std::string Ck = getenv("CKPT");
  rc = hetgpuCheckpoint(nullptr, Ck.c_str());
  printf("idle checkpoint %d valid %d\n", rc,
         hetgpuCheckpointValidate(Ck.c_str(), nullptr));
  if (rc) {
    printf("%s\n", hetgpuMigrationLastError());
    return 1;
  }
  cudaMemset(heads, 0, N * sizeof(Node *));
  rc = hetgpuRestore(Ck.c_str(), "cpu");
  cudaMemcpy(&check, heads, sizeof check, cudaMemcpyDeviceToHost);
  printf("restore %d (%s), now on %s, data restored %d\n", rc,
         hetgpuMigrationLastError(), backend(), check == &nodes[0]);

  // A launch running in another thread is checkpointed at a safe point,
  // then finishes; restoring the file on OpenCL finishes it again from
  // that point, from the memory as it was then.
  std::string Ck2 = Ck + ".running";
  long Original = -1;
  unsigned long long Before = 0, Now = 0;
  hetgpuMigrationGetStats(&Before, nullptr, nullptr, nullptr, nullptr);
  std::thread Runner([&] {
    walk<<<NB, NT>>>(heads, sums, 40000);
    cudaDeviceSynchronize();
    Original = total();
  });
  // Wait until the launch has begun (a fixed delay raced with a loaded
  // machine), then a little longer so that it runs.
  for (int W = 0; W < 20000 && Now == Before; ++W) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    hetgpuMigrationGetStats(&Now, nullptr, nullptr, nullptr, nullptr);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  rc = hetgpuCheckpoint(nullptr, Ck2.c_str());
  Runner.join();
  unsigned long long Susp = 0;
  hetgpuMigrationGetStats(nullptr, &Susp, nullptr, nullptr, nullptr);
  printf("running checkpoint %d, suspended launch finished: %d, suspensions %llu\n",
         rc, Original > 0, Susp);
  cudaMemset(sums, 0, N * sizeof(int));
  rc = hetgpuRestore(Ck2.c_str(), "opencl");
  printf("restore running %d on %s, same result %d\n", rc, backend(),
         total() == Original);

  // Refusals.
  FILE *F = fopen(Ck2.c_str(), "r+b");
  fseek(F, -1, SEEK_END);
  fputc(0x5a, F);
  fclose(F);
  rc = hetgpuRestore(Ck2.c_str(), "cpu");
  printf("damaged: %s\n", hetgpuMigrationLastError());
  rc = hetgpuMigrateDevice(0, "nosuch");
  printf("unknown: %s\n", hetgpuMigrationLastError());
  printf("ALL DONE\n");
  return 0;
}
