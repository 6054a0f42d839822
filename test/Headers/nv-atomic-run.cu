// End to end on the CPU device: the __nv_atomic_* builtins under contention
// give CUDA's results (counters, min/max, a lock built from compare-exchange
// with acquire and a release store, exchange, generic load/store).
// REQUIRES: target-host
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_DEVICE=cpu %t | FileCheck %s
#include <cstdio>

struct State {
  unsigned long long sum;
  int count, lock, mn, mx, guarded;
  unsigned bits, ored;
  double dsum;
  int xchg_seen;
};

__global__ void contend(State *s) {
  int t = (int)(blockIdx.x * blockDim.x + threadIdx.x);
  __nv_atomic_fetch_add(&s->sum, (unsigned long long)t, __NV_ATOMIC_RELAXED,
                        __NV_THREAD_SCOPE_DEVICE);
  __nv_atomic_add(&s->count, 1, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_BLOCK);
  __nv_atomic_min(&s->mn, 1000 - t, __NV_ATOMIC_RELAXED);
  __nv_atomic_fetch_max(&s->mx, t * 3, __NV_ATOMIC_RELAXED);
  __nv_atomic_and(&s->bits, ~(1u << (t % 32)), __NV_ATOMIC_RELAXED);
  __nv_atomic_fetch_or(&s->ored, 1u << (t % 32), __NV_ATOMIC_RELAXED);
  __nv_atomic_fetch_sub(&s->dsum, 0.5, __NV_ATOMIC_RELAXED);
  // A spin lock: acquire CAS, a non-atomic update, release store. Only one
  // lane per warp contends at a time, so the lock cannot deadlock a warp.
  for (int lane = 0; lane < 32; ++lane) {
    if ((int)(threadIdx.x % 32) != lane)
      continue;
    int expected = 0;
    while (!__nv_atomic_compare_exchange_n(&s->lock, &expected, 1, false,
                                           __NV_ATOMIC_ACQUIRE,
                                           __NV_ATOMIC_RELAXED)) {
      expected = 0;
      __nanosleep(10);
    }
    int g;
    __nv_atomic_load(&s->guarded, &g, __NV_ATOMIC_RELAXED);
    g += 2;
    __nv_atomic_store(&s->guarded, &g, __NV_ATOMIC_RELAXED);
    __nv_atomic_store_n(&s->lock, 0, __NV_ATOMIC_RELEASE);
  }
  if (__nv_atomic_exchange_n(&s->xchg_seen, 1, __NV_ATOMIC_ACQ_REL) == 0)
    __nv_atomic_fetch_add(&s->guarded, 1000, __NV_ATOMIC_RELAXED);
  __nv_atomic_thread_fence(__NV_ATOMIC_SEQ_CST);
}

int main() {
  State h = {};
  h.mn = 1 << 30;
  h.mx = -1;
  h.bits = 0xffffffffu;
  h.dsum = 1000.0;
  State *d;
  cudaMalloc(&d, sizeof(State));
  cudaMemcpy(d, &h, sizeof(State), cudaMemcpyHostToDevice);
  contend<<<4, 64>>>(d);
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess)
    e = cudaDeviceSynchronize();
  cudaMemcpy(&h, d, sizeof(State), cudaMemcpyDeviceToHost);
  // CHECK: err 0
  printf("err %d\n", (int)e);
  // 256 threads: sum 0..255 = 32640
  // CHECK-NEXT: sum 32640 count 256
  printf("sum %llu count %d\n", h.sum, h.count);
  // CHECK-NEXT: min 745 max 765
  printf("min %d max %d\n", h.mn, h.mx);
  // CHECK-NEXT: bits 0 ored ffffffff
  printf("bits %x ored %x\n", h.bits, h.ored);
  // CHECK-NEXT: dsum 872.0
  printf("dsum %.1f\n", h.dsum);
  // CHECK-NEXT: guarded 1512 lock 0 xchg 1
  printf("guarded %d lock %d xchg %d\n", h.guarded, h.lock, h.xchg_seen);
  return 0;
}
