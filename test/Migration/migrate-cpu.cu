// Live migration on the CPU device: kernels with barriers in loops, static
// and dynamic shared memory, a private array live across barriers, warp
// shuffles, atomics and pointers stored in device memory are suspended at
// random safe points (several seeds), checkpointed through a file, restored
// and resumed; the results equal those of a run without migration.
// REQUIRES: built-target-host
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_DEVICE="cpu" %t > %t.ref
// RUN: FileCheck --check-prefix=REF %s < %t.ref
// RUN: for s in 1 2 3 4 5; do \
// RUN:   env HETGPU_DEVICE="cpu" HETGPU_MIGRATE=random:seed=$s:file=%t.ckpt:verbose %t > %t.out.$s 2> %t.err.$s || exit 1; \
// RUN:   diff %t.ref %t.out.$s || exit 1; \
// RUN:   grep -q 'hetgpu-migrate: .* suspended' %t.err.$s || exit 1; \
// RUN: done
// RUN: cat %t.err.1 %t.err.2 %t.err.3 %t.err.4 %t.err.5 | FileCheck --check-prefix=MIG %s
// RUN: FileCheck --check-prefix=STATS %s < %t.err.1
// STATS: STATS enabled=1 launches=3 migrations={{[1-9]}}
// The file left by the last run is valid; a damaged one is refused.
// RUN: env HETGPU_DEVICE="cpu" CHECK_CKPT=%t.ckpt %t 2>&1 >/dev/null | FileCheck --check-prefix=VALID %s
// VALID: STATS enabled=0 launches=0 migrations=0
// VALID: VALIDATE 0
// The time trigger suspends the long-running kernel too.
// RUN: env HETGPU_DEVICE="cpu" HETGPU_MIGRATE=after_ms=1:verbose %t > %t.out.t 2> %t.err.t
// RUN: diff %t.ref %t.out.t
// RUN: grep -q 'hetgpu-migrate: .* suspended' %t.err.t
// A damaged checkpoint file is refused with the reason and nothing is
// written back from it (the launch resumes from the in-memory image).
// RUN: for f in truncate flip version; do \
// RUN:   env HETGPU_DEVICE="cpu" HETGPU_MIGRATE=random:seed=2:file=%t.ckpt:fault=$f %t > %t.out.$f 2> %t.err.$f || exit 1; \
// RUN:   diff %t.ref %t.out.$f || exit 1; \
// RUN: done
// RUN: FileCheck --check-prefix=TRUNC %s < %t.err.truncate
// RUN: env HETGPU_DEVICE="cpu" CHECK_CKPT=%t.ckpt %t 2>&1 >/dev/null | FileCheck --check-prefix=INVALID %s
// INVALID: VALIDATE -1 checkpoint refused: format version 99
// RUN: FileCheck --check-prefix=FLIP %s < %t.err.flip
// RUN: FileCheck --check-prefix=VERS %s < %t.err.version
// TRUNC: checkpoint refused: payload is {{[0-9]+}} bytes, the header says {{[0-9]+}} (truncated file?); resuming from the in-memory checkpoint
// FLIP: checkpoint refused: checksum mismatch (corrupted file)
// VERS: checkpoint refused: format version 99, this runtime reads version {{[0-9]+}}
// A bad spec is refused by name and the program still runs unmigrated.
// RUN: env HETGPU_DEVICE="cpu" HETGPU_MIGRATE=sometimes %t 2>&1 | FileCheck --check-prefix=BAD %s
// REF: reduce 0 ok
// REF: chase ok
// REF: stencil ok
// MIG-DAG: hetgpu-migrate: _Z6reducePKjPyi suspended
// MIG-DAG: hetgpu-migrate: _Z5chasePP4NodePii suspended
// MIG-DAG: hetgpu-migrate: _Z7stencilPfi suspended
// BAD: HETGPU_MIGRATE='sometimes': cannot parse 'sometimes'
// BAD: stencil ok
#include <cstdio>
#include <cstdlib>
#include "Inputs/lists.cuh"
#include <hetgpu/hetgpu.h>

__global__ void reduce(const unsigned *in, unsigned long long *out, int rounds) {
  __shared__ unsigned s[256];
  unsigned t = threadIdx.x;
  unsigned long long acc = 0;
  for (int r = 0; r < rounds; ++r) {
    s[t] = in[(blockIdx.x * 256 + t + r * 7) % (gridDim.x * 256)] + r;
    __syncthreads();
    for (unsigned k = 128; k >= 32; k >>= 1) {
      if (t < k)
        s[t] += s[t + k];
      __syncthreads();
    }
    unsigned v = t < 32 ? s[t] : 0;
    for (int o = 16; o > 0; o >>= 1)
      v += __shfl_down_sync(0xffffffffu, v, o);
    if (t == 0)
      acc += v;
    __syncthreads();
  }
  if (t == 0)
    atomicAdd(out, acc);
}

// Dynamic shared memory, a private array live across barriers, pointers
// into both.
__global__ void stencil(float *data, int iters) {
  extern __shared__ float buf[];
  float priv[4];
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  for (int j = 0; j < 4; ++j)
    priv[j] = data[g] * (j + 1);
  float *mine = &buf[t];
  float *pp = &priv[t & 3];
  for (int i = 0; i < iters; ++i) {
    *mine = data[g] + *pp;
    __syncthreads();
    float l = buf[(t + blockDim.x - 1) % blockDim.x];
    float r = buf[(t + 1) % blockDim.x];
    __syncthreads();
    data[g] = 0.25f * (l + r) + 0.5f * *mine;
    priv[i & 3] += 1.0f;
  }
}

int main() {
  const int B = 64, R = 200;
  unsigned *in;
  unsigned long long *out;
  cudaMallocManaged(&in, B * 256 * sizeof(unsigned));
  cudaMallocManaged(&out, sizeof(unsigned long long));
  unsigned long long expect = 0;
  for (int i = 0; i < B * 256; ++i)
    in[i] = (i * 2654435761u) >> 20;
  *out = 0;
  for (int r = 0; r < R; ++r)
    for (int i = 0; i < B * 256; ++i)
      expect += in[(i + r * 7) % (B * 256)] + r;
  reduce<<<B, 256>>>(in, out, R);
  cudaDeviceSynchronize();
  printf("reduce %d %s\n", 0, *out == expect ? "ok" : "FAIL");
  printf("reduce value %llu\n", *out);

  const int NB = 8, NT = 128, N = NB * NT, L = 64, S = 300;
  int *sums;
  Node **heads = makeLists(N, L, &sums);
  chase<<<NB, NT>>>(heads, sums, S);
  cudaDeviceSynchronize();
  reportChase(sums, N);

  const int SB = 16, ST = 64;
  float *data;
  cudaMallocManaged(&data, SB * ST * sizeof(float));
  for (int i = 0; i < SB * ST; ++i)
    data[i] = float(i % 17);
  stencil<<<SB, ST, ST * sizeof(float)>>>(data, 400);
  cudaError_t e = cudaDeviceSynchronize();
  double cs = 0;
  for (int i = 0; i < SB * ST; ++i)
    cs += data[i] * (i % 5 + 1);
  printf("stencil %s %.6f\n", e == cudaSuccess ? "ok" : cudaGetErrorString(e), cs);
  unsigned long long launches = 0, migrations = 0, bytes = 0;
  hetgpuMigrationGetStats(&launches, &migrations, &bytes, nullptr, nullptr);
  fprintf(stderr, "STATS enabled=%d launches=%llu migrations=%llu\n",
          hetgpuMigrationEnabled(), launches, migrations);
  if (const char *ck = getenv("CHECK_CKPT")) {
    const char *why = nullptr;
    int rc = hetgpuCheckpointValidate(ck, &why);
    fprintf(stderr, "VALIDATE %d %s\n", rc, why);
  }
  return 0;
}
