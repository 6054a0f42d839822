// CUDA 12.8's __nv_atomic_* builtins: plain LLVM atomics with the requested
// ordering, no syncscope (every scope runs at system scope), no NVVM
// intrinsics or inline asm; CONSUME is ACQUIRE; a compare-exchange runs with
// the stronger of its orders. Constant orders/scopes CUDA rejects are errors.
// RUN: %clangxx %cuda_device -O3 -emit-llvm -S %s -o - \
// RUN:   | FileCheck %s --implicit-check-not=llvm.nvvm --implicit-check-not=asm \
// RUN:       --implicit-check-not=syncscope --implicit-check-not=__atomic_
// RUN: %clangxx %cuda_host -fsyntax-only %s
// RUN: not %clangxx %cuda_device -fsyntax-only -DERRORS %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ERR

// CHECK-LABEL: define {{.*}} @_Z10loadsstorePiPyPfP6Pair16Ph(
// CHECK: load atomic i32, ptr %0 monotonic, align 4
// CHECK: load atomic i32, ptr %0 acquire, align 4
// CHECK: load atomic i64, ptr %1 seq_cst, align 8
// CHECK: load atomic i32, ptr %2 acquire, align 4
// CHECK: load atomic i32, ptr %3 monotonic, align 2
// CHECK: load atomic i8, ptr %4 monotonic, align 1
// CHECK: store atomic i32 {{.*}}, ptr %0 release, align 4
// CHECK: store atomic i64 7, ptr %1 seq_cst, align 8
// CHECK: store atomic i32 {{.*}}, ptr %2 monotonic, align 4
// CHECK: store atomic i32 {{.*}}, ptr %3 release, align 2
// CHECK: ret void
struct Pair16 {
  short a, b;
};
__global__ void loadsstore(int *i, unsigned long long *u, float *f, Pair16 *p,
                           unsigned char *c) {
  int a = __nv_atomic_load_n(i, __NV_ATOMIC_RELAXED);
  int b = __nv_atomic_load_n(i, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_BLOCK);
  unsigned long long d = __nv_atomic_load_n(u, __NV_ATOMIC_SEQ_CST,
                                            __NV_THREAD_SCOPE_DEVICE);
  float e;
  __nv_atomic_load(f, &e, __NV_ATOMIC_CONSUME, __NV_THREAD_SCOPE_CLUSTER);
  Pair16 q;
  __nv_atomic_load(p, &q, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_THREAD);
  unsigned char ch = __nv_atomic_load_n(c, __NV_ATOMIC_RELAXED);
  __nv_atomic_store_n(i, a + b + ch, __NV_ATOMIC_RELEASE,
                      __NV_THREAD_SCOPE_SYSTEM);
  __nv_atomic_store_n(u, 7ull + 0 * d, __NV_ATOMIC_SEQ_CST);
  e += 1.0f;
  __nv_atomic_store(f, &e, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_BLOCK);
  q.a += 1;
  __nv_atomic_store(p, &q, __NV_ATOMIC_RELEASE);
}

// CHECK-LABEL: define {{.*}} @_Z3rmwPiPjPxPyPfPd(
// CHECK: atomicrmw add ptr %0, i32 1 monotonic
// CHECK: atomicrmw add ptr %1, i32 2 acquire
// CHECK: atomicrmw sub ptr %2, i64 3 release
// CHECK: atomicrmw fadd ptr %4, float 4.000000e+00 acq_rel
// CHECK: atomicrmw fsub ptr %5, double 5.000000e+00 seq_cst
// CHECK: atomicrmw and ptr %1, i32 6 monotonic
// CHECK: atomicrmw or ptr %3, i64 7 monotonic
// CHECK: atomicrmw xor ptr %0, i32 8 monotonic
// CHECK: atomicrmw min ptr %0, i32 9 monotonic
// CHECK: atomicrmw umin ptr %1, i32 10 monotonic
// CHECK: atomicrmw max ptr %2, i64 11 monotonic
// CHECK: atomicrmw umax ptr %3, i64 12 seq_cst
// CHECK: atomicrmw add ptr %0, i32 13 monotonic
// CHECK: atomicrmw sub ptr %1, i32 14 monotonic
// CHECK: atomicrmw and ptr %0, i32 15 release
// CHECK: atomicrmw or ptr %1, i32 16 monotonic
// CHECK: atomicrmw xor ptr %3, i64 17 monotonic
// CHECK: atomicrmw min ptr %2, i64 18 monotonic
// CHECK: atomicrmw umax ptr %1, i32 19 monotonic
// CHECK: atomicrmw fadd ptr %4, float 2.000000e+01 monotonic
// CHECK: ret void
__global__ void rmw(int *i, unsigned *u, long long *ll, unsigned long long *ull,
                    float *f, double *d) {
  int r = __nv_atomic_fetch_add(i, 1, __NV_ATOMIC_RELAXED);
  r += __nv_atomic_fetch_add(u, 2, __NV_ATOMIC_ACQUIRE,
                             __NV_THREAD_SCOPE_BLOCK);
  r += __nv_atomic_fetch_sub(ll, 3, __NV_ATOMIC_RELEASE);
  r += __nv_atomic_fetch_add(f, 4, __NV_ATOMIC_ACQ_REL);
  r += __nv_atomic_fetch_sub(d, 5, __NV_ATOMIC_SEQ_CST);
  r += __nv_atomic_fetch_and(u, 6, __NV_ATOMIC_RELAXED);
  r += __nv_atomic_fetch_or(ull, 7, __NV_ATOMIC_RELAXED);
  r += __nv_atomic_fetch_xor(i, 8, __NV_ATOMIC_RELAXED);
  r += __nv_atomic_fetch_min(i, 9, __NV_ATOMIC_RELAXED);
  r += __nv_atomic_fetch_min(u, 10, __NV_ATOMIC_RELAXED);
  r += __nv_atomic_fetch_max(ll, 11, __NV_ATOMIC_RELAXED);
  r += __nv_atomic_fetch_max(ull, 12, __NV_ATOMIC_SEQ_CST);
  __nv_atomic_add(i, 13, __NV_ATOMIC_RELAXED);
  __nv_atomic_sub(u, 14, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
  __nv_atomic_and(i, 15, __NV_ATOMIC_RELEASE);
  __nv_atomic_or(u, 16, __NV_ATOMIC_RELAXED);
  __nv_atomic_xor(ull, 17, __NV_ATOMIC_RELAXED);
  __nv_atomic_min(ll, 18, __NV_ATOMIC_RELAXED);
  __nv_atomic_max(u, 19, __NV_ATOMIC_RELAXED);
  __nv_atomic_add(f, 20, __NV_ATOMIC_RELAXED);
  i[1] = r;
}

// CHECK-LABEL: define {{.*}} @_Z4xchgPiPyPfPt(
// CHECK: atomicrmw xchg ptr %0, i32 1 monotonic
// CHECK: atomicrmw xchg ptr %1, i64 2 acq_rel
// CHECK: atomicrmw xchg ptr %2, i32 1077936128 seq_cst
// CHECK: cmpxchg ptr %0, i32 {{.*}}, i32 4 monotonic monotonic
// CHECK: cmpxchg ptr %1, i64 {{.*}}, i64 5 acquire acquire
// CHECK: cmpxchg ptr %0, i32 {{.*}}, i32 6 acq_rel acquire
// CHECK: cmpxchg ptr %0, i32 {{.*}}, i32 7 release monotonic
// CHECK: cmpxchg ptr %2, i32 {{.*}}, i32 {{.*}} seq_cst seq_cst
// CHECK: cmpxchg ptr %3, i16 {{.*}}, i16 9 monotonic monotonic
// CHECK: fence seq_cst
// CHECK: ret void
__global__ void xchg(int *i, unsigned long long *u, float *f,
                     unsigned short *s) {
  int r = __nv_atomic_exchange_n(i, 1, __NV_ATOMIC_RELAXED);
  r += (int)__nv_atomic_exchange_n(u, 2, __NV_ATOMIC_ACQ_REL,
                                   __NV_THREAD_SCOPE_BLOCK);
  float v = 3.0f, old;
  __nv_atomic_exchange(f, &v, &old, __NV_ATOMIC_SEQ_CST);
  int e = r;
  bool ok = __nv_atomic_compare_exchange_n(i, &e, 4, false, __NV_ATOMIC_RELAXED,
                                           __NV_ATOMIC_RELAXED);
  unsigned long long ue = 0;
  ok &= __nv_atomic_compare_exchange_n(u, &ue, 5, true, __NV_ATOMIC_RELAXED,
                                       __NV_ATOMIC_ACQUIRE);
  ok &= __nv_atomic_compare_exchange_n(i, &e, 6, false, __NV_ATOMIC_RELEASE,
                                       __NV_ATOMIC_ACQUIRE);
  ok &= __nv_atomic_compare_exchange_n(i, &e, 7, false, __NV_ATOMIC_RELEASE,
                                       __NV_ATOMIC_RELAXED,
                                       __NV_THREAD_SCOPE_DEVICE);
  float fd = 8.0f;
  ok &= __nv_atomic_compare_exchange(f, &old, &fd, false, __NV_ATOMIC_SEQ_CST,
                                     __NV_ATOMIC_RELAXED);
  unsigned short se = 0;
  ok &= __nv_atomic_compare_exchange_n(s, &se, 9, false, __NV_ATOMIC_RELAXED,
                                       __NV_ATOMIC_RELAXED);
  i[1] = ok + e + (int)ue + se + (int)old;
  __nv_atomic_thread_fence(__NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_BLOCK);
}

// Fences at any scope are plain system-scope fences.
// CHECK-LABEL: define {{.*}} @_Z6fencesPi(
// CHECK: store i32 1
// CHECK-NEXT: fence acquire
// CHECK: store i32 2
// CHECK-NEXT: fence release
// CHECK: store i32 3
// CHECK-NEXT: fence seq_cst
// CHECK-NEXT: ret void
__global__ void fences(int *p) {
  p[0] = 1;
  __nv_atomic_thread_fence(__NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_DEVICE);
  p[1] = 2;
  __nv_atomic_thread_fence(__NV_ATOMIC_RELEASE);
  p[2] = 3;
  __nv_atomic_thread_fence(__NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_SYSTEM);
}

#ifdef ERRORS
// ERR: error: invalid memory order for an atomic load
// ERR: error: invalid memory order for an atomic store
// ERR: error: invalid __nv_atomic thread scope
// ERR: error: invalid __nv_atomic memory order
// ERR: error: static assertion failed{{.*}}__nv_atomic_fetch_and: T must be a 4- or 8-byte integer
// ERR: error: static assertion failed{{.*}}__nv_atomic_exchange_n: T must be 4 or 8 bytes
__global__ void bad(int *i, float *f, unsigned short *s) {
  __nv_atomic_load_n(i, __NV_ATOMIC_RELEASE);
  __nv_atomic_store_n(i, 1, __NV_ATOMIC_ACQUIRE);
  __nv_atomic_fetch_add(i, 1, __NV_ATOMIC_RELAXED, 5);
  __nv_atomic_fetch_add(i, 1, 6);
  __nv_atomic_fetch_and(f, 1.0f, __NV_ATOMIC_RELAXED);
  __nv_atomic_exchange_n(s, 1, __NV_ATOMIC_RELAXED);
}
#endif
