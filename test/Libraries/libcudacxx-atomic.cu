// hetGPU's libcu++ subset: cuda::atomic / cuda::std::atomic / atomic_ref with
// memory orders and scopes in device code, and cuda::std type traits and
// limits in device code, checked against host arithmetic.
// REQUIRES: built-target-host
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_DEVICE=cpu %t | FileCheck %s
// CHECK: counter 65536
// CHECK: max 65535 min 0
// CHECK: cas-sum ok
// CHECK: float-add 32768
// CHECK: ref histogram ok
// CHECK: limits ok
// CHECK: ALL PASS

#include <cuda/atomic>
#include <cuda/std/atomic>
#include <cuda/std/cstdint>
#include <cuda/std/limits>
#include <cuda/std/type_traits>

#include <cstdio>

struct Counters {
  cuda::atomic<int, cuda::thread_scope_device> Count;
  cuda::std::atomic<unsigned> Max, Min;
  cuda::std::atomic<long long> CasSum;
  cuda::atomic<float> FloatSum;
};

__global__ void bump(Counters *C, unsigned *Hist) {
  unsigned Id = blockIdx.x * blockDim.x + threadIdx.x;
  C->Count.fetch_add(1, cuda::memory_order_relaxed);
  C->Max.fetch_max(Id);
  C->Min.fetch_min(Id, cuda::std::memory_order_acq_rel);
  long long Old = C->CasSum.load(cuda::std::memory_order_acquire);
  while (!C->CasSum.compare_exchange_weak(Old, Old + Id,
                                          cuda::std::memory_order_acq_rel,
                                          cuda::std::memory_order_acquire))
    ;
  C->FloatSum += 0.5f;
  cuda::atomic_ref<unsigned, cuda::thread_scope_block> H(Hist[Id % 16]);
  ++H;
  cuda::atomic_thread_fence(cuda::memory_order_seq_cst, cuda::thread_scope_device);
}

__global__ void limits(int *Out) {
  static_assert(cuda::std::is_integral<cuda::std::uint32_t>::value, "");
  Out[0] = cuda::std::numeric_limits<int>::max() == 2147483647 &&
           cuda::std::numeric_limits<cuda::std::int8_t>::min() == -128 &&
           cuda::std::is_same<cuda::std::make_unsigned_t<int>, unsigned>::value;
}

int main() {
  Counters *C;
  unsigned *Hist;
  int *Flag;
  cudaMallocManaged(&C, sizeof(Counters));
  cudaMallocManaged(&Hist, 16 * sizeof(unsigned));
  cudaMallocManaged(&Flag, sizeof(int));
  C->Count.store(0);
  C->Max.store(0);
  C->Min.store(~0u);
  C->CasSum.store(0);
  C->FloatSum.store(0);
  for (int I = 0; I < 16; ++I)
    Hist[I] = 0;
  bump<<<256, 256>>>(C, Hist);
  limits<<<1, 1>>>(Flag);
  cudaDeviceSynchronize();
  int Fails = 0;
  std::printf("counter %d\n", C->Count.load());
  std::printf("max %u min %u\n", C->Max.load(), C->Min.load());
  long long N = 65536;
  bool CasOk = C->CasSum.load() == N * (N - 1) / 2;
  std::printf("cas-sum %s\n", CasOk ? "ok" : "FAILED");
  std::printf("float-add %.0f\n", C->FloatSum.load());
  bool HistOk = true;
  for (int I = 0; I < 16; ++I)
    HistOk &= Hist[I] == 4096;
  std::printf("ref histogram %s\n", HistOk ? "ok" : "FAILED");
  std::printf("limits %s\n", *Flag ? "ok" : "FAILED");
  Fails += C->Count.load() != 65536 || !CasOk || !HistOk || !*Flag ||
           C->FloatSum.load() != 32768.0f;
  std::printf(Fails ? "FAILURES\n" : "ALL PASS\n");
  return Fails;
}
