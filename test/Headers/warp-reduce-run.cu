// End to end on the CPU device: every __reduce_<op>_sync overload (signed
// and unsigned add/min/max, and/or/xor) over a full and a partial mask,
// __activemask inside a divergent branch, and __nanosleep.
// REQUIRES: target-host
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_DEVICE=cpu %t | FileCheck %s
// __nanosleep spins on clock64, which every target has (OpenCL has no
// global timer).
// RUN: %clangxx %cuda_device -O2 -emit-llvm -S %s -o - \
// RUN:   | FileCheck %s --check-prefix=IR --implicit-check-not=globaltimer
// IR: call {{.*}}i64 @__hetgpu_clock64()
#include <cstdio>

struct R {
  int sadd, smin, smax;
  unsigned uadd, umin, umax, uand, uor, uxor;
  int podd_min;
  unsigned podd_max, podd_xor, active_even, active_all;
};

__global__ void k(R *r) {
  unsigned lane = threadIdx.x % 32;
  int s = (int)lane - 20;          // -20 .. 11
  unsigned u = 0x80000000u | lane; // bit 31 set everywhere
  __nanosleep(100);
  int sadd = __reduce_add_sync(0xffffffffu, s);
  int smin = __reduce_min_sync(0xffffffffu, s);
  int smax = __reduce_max_sync(0xffffffffu, s);
  unsigned uadd = __reduce_add_sync(0xffffffffu, u);
  unsigned umin = __reduce_min_sync(0xffffffffu, u);
  unsigned umax = __reduce_max_sync(0xffffffffu, u);
  unsigned uand = __reduce_and_sync(0xffffffffu, u);
  unsigned uor = __reduce_or_sync(0xffffffffu, u);
  unsigned uxor = __reduce_xor_sync(0xffffffffu, u ^ (lane == 5 ? 0x1234u : 0u));
  if (lane == 0) {
    r->sadd = sadd, r->smin = smin, r->smax = smax;
    r->uadd = uadd, r->umin = umin, r->umax = umax;
    r->uand = uand, r->uor = uor, r->uxor = uxor;
  }
  if (lane & 1) { // odd lanes only
    int m = __reduce_min_sync(0xaaaaaaaau, s);
    unsigned x = __reduce_max_sync(0xaaaaaaaau, u);
    unsigned y = __reduce_xor_sync(0xaaaaaaaau, lane * lane);
    if (lane == 1)
      r->podd_min = m, r->podd_max = x, r->podd_xor = y;
  } else {
    unsigned a = __activemask();
    if (lane == 0)
      r->active_even = a;
  }
  unsigned all = __activemask();
  if (lane == 0)
    r->active_all = all;
}

int main() {
  R *d, h = {};
  cudaMalloc(&d, sizeof(R));
  cudaMemset(d, 0, sizeof(R));
  k<<<1, 32>>>(d);
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess)
    e = cudaDeviceSynchronize();
  cudaMemcpy(&h, d, sizeof(R), cudaMemcpyDeviceToHost);
  // CHECK: err 0
  printf("err %d\n", (int)e);
  // sum(-20..11) = -144
  // CHECK-NEXT: signed -144 -20 11
  printf("signed %d %d %d\n", h.sadd, h.smin, h.smax);
  // 32 * 0x80000000 wraps to 0, + 496
  // CHECK-NEXT: unsigned 496 80000000 8000001f 80000000 8000001f 1234
  printf("unsigned %u %x %x %x %x %x\n", h.uadd, h.umin, h.umax, h.uand, h.uor,
         h.uxor);
  // odd lanes 1..31: min s = -19, max u = 0x8000001f, xor of 1*1, 3*3, .., 31*31 = 0x380
  // CHECK-NEXT: partial -19 8000001f 380
  printf("partial %d %x %x\n", h.podd_min, h.podd_max, h.podd_xor);
  // CHECK-NEXT: active 55555555 ffffffff
  printf("active %x %x\n", h.active_even, h.active_all);
  return 0;
}
