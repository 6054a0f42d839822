// test/Migration/Inputs/lists.cuh - linked lists whose links are device
// addresses, shared by the migration programs: a move that does not keep
// every allocation at its address breaks them.
// SPDX-License-Identifier: Apache-2.0
#ifndef HETGPU_TEST_MIGRATION_LISTS_CUH
#define HETGPU_TEST_MIGRATION_LISTS_CUH

#include <cstdio>

struct Node {
  Node *next;
  int value;
};

/// N lists of L nodes in managed memory, each a permutation cycle; returns
/// the heads. `Sums` gets N + 1 ints (per-thread sums and their total).
inline Node **makeLists(int N, int L, int **Sums) {
  Node *Nodes;
  Node **Heads;
  cudaMallocManaged(&Nodes, size_t(N) * L * sizeof(Node));
  cudaMallocManaged(&Heads, N * sizeof(Node *));
  cudaMallocManaged(Sums, (N + 1) * sizeof(int));
  for (int I = 0; I < N; ++I) {
    for (int K = 0; K < L; ++K) {
      Nodes[I * L + K].value = (I * 31 + K * 7) % 101;
      Nodes[I * L + K].next = &Nodes[I * L + (K * 5 + 3) % L];
    }
    Heads[I] = &Nodes[I * L];
  }
  (*Sums)[N] = 0;
  return Heads;
}

/// Each thread walks its list one hop per step, with two barriers per step
/// around a shared-memory exchange; per-thread sums and their atomic total.
__global__ void chase(Node **heads, int *sums, int steps) {
  __shared__ int hops[128];
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  Node *p = heads[t];
  int sum = 0;
  for (int i = 0; i < steps; ++i) {
    sum += p->value;
    p = p->next;
    hops[threadIdx.x] = sum & 0xff;
    __syncthreads();
    sum += hops[(threadIdx.x + 1) % blockDim.x];
    __syncthreads();
  }
  sums[t] = sum;
  atomicAdd(&sums[gridDim.x * blockDim.x], sum);
}

/// Prints "chase ok <total>" when the per-thread sums add up to the total
/// the kernel accumulated atomically.
inline void reportChase(const int *Sums, int N) {
  long Total = 0;
  for (int I = 0; I < N; ++I)
    Total += Sums[I];
  std::printf("chase %s %d\n", Total == Sums[N] ? "ok" : "FAIL", Sums[N]);
}

#endif
