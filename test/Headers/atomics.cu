// CUDA atomics become plain `atomicrmw`/`cmpxchg` with monotonic (relaxed)
// ordering at the default scope; atomicInc/Dec and float min/max are CAS
// loops; the _block/_system variants are the same operations.
// RUN: %clangxx %cuda_device -O3 -emit-llvm -S %s -o - \
// RUN:   | FileCheck %s --implicit-check-not=llvm.nvvm --implicit-check-not=asm \
// RUN:       --implicit-check-not=seq_cst --implicit-check-not=syncscope

// CHECK-LABEL: define {{.*}} @_Z7integerPiPjPyPx(
// CHECK: atomicrmw add ptr %0, i32 1 monotonic
// CHECK: atomicrmw add ptr %1, i32 2 monotonic
// CHECK: atomicrmw add ptr %2, i64 3 monotonic
// CHECK: atomicrmw sub ptr %0, i32 4 monotonic
// CHECK: atomicrmw sub ptr %1, i32 5 monotonic
// CHECK: atomicrmw xchg ptr %0, i32 6 monotonic
// CHECK: atomicrmw xchg ptr %2, i64 7 monotonic
// CHECK: atomicrmw min ptr %0, i32 8 monotonic
// CHECK: atomicrmw umin ptr %1, i32 9 monotonic
// CHECK: atomicrmw min ptr %3, i64 10 monotonic
// CHECK: atomicrmw umin ptr %2, i64 11 monotonic
// CHECK: atomicrmw max ptr %0, i32 12 monotonic
// CHECK: atomicrmw umax ptr %1, i32 13 monotonic
// CHECK: atomicrmw max ptr %3, i64 14 monotonic
// CHECK: atomicrmw umax ptr %2, i64 15 monotonic
// CHECK: atomicrmw and ptr %0, i32 16 monotonic
// CHECK: atomicrmw or ptr %1, i32 17 monotonic
// CHECK: atomicrmw xor ptr %2, i64 18 monotonic
// CHECK: cmpxchg ptr %0, i32 19, i32 20 monotonic monotonic
// CHECK: cmpxchg ptr %1, i32 21, i32 22 monotonic monotonic
// CHECK: cmpxchg ptr %2, i64 23, i64 24 monotonic monotonic
// CHECK: ret void
__global__ void integer(int *i, unsigned *u, unsigned long long *ull,
                        long long *ll) {
  atomicAdd(i, 1);
  atomicAdd(u, 2u);
  atomicAdd(ull, 3ull);
  atomicSub(i, 4);
  atomicSub(u, 5u);
  atomicExch(i, 6);
  atomicExch(ull, 7ull);
  atomicMin(i, 8);
  atomicMin(u, 9u);
  atomicMin(ll, 10ll);
  atomicMin(ull, 11ull);
  atomicMax(i, 12);
  atomicMax(u, 13u);
  atomicMax(ll, 14ll);
  atomicMax(ull, 15ull);
  atomicAnd(i, 16);
  atomicOr(u, 17u);
  atomicXor(ull, 18ull);
  atomicCAS(i, 19, 20);
  atomicCAS(u, 21u, 22u);
  atomicCAS(ull, 23ull, 24ull);
}

// CHECK-LABEL: define {{.*}} @_Z8floatingPfPd(
// CHECK: atomicrmw fadd ptr %0, float 1.000000e+00 monotonic
// CHECK: atomicrmw fadd ptr %1, double 2.000000e+00 monotonic
// CHECK: atomicrmw xchg ptr %0, i32 1077936128 monotonic
// CHECK: ret void
__global__ void floating(float *f, double *d) {
  atomicAdd(f, 1.0f);
  atomicAdd(d, 2.0);
  atomicExch(f, 3.0f);
}

// atomicInc: old >= limit ? 0 : old + 1, as a CAS loop on the word.
// CHECK-LABEL: define {{.*}} @_Z3incPjj(
// CHECK: load atomic i32, ptr %0 monotonic
// CHECK: [[CMP:%.*]] = icmp ult i32 [[OLD:%.*]], %1
// CHECK: [[ADD:%.*]] = add i32 [[OLD]], 1
// CHECK: [[NEW:%.*]] = select i1 [[CMP]], i32 [[ADD]], i32 0
// CHECK: cmpxchg ptr %0, i32 [[OLD]], i32 [[NEW]] monotonic monotonic
__global__ void inc(unsigned *p, unsigned limit) { atomicInc(p, limit); }

// atomicDec: (old == 0 || old > limit) ? limit : old - 1.
// CHECK-LABEL: define {{.*}} @_Z3decPjj(
// CHECK: cmpxchg ptr %0
__global__ void dec(unsigned *p, unsigned limit) { atomicDec(p, limit); }

// Float min/max: CAS on the bit pattern with minnum/maxnum.
// CHECK-LABEL: define {{.*}} @_Z6minmaxPfPdfd(
// CHECK: call {{.*}}float @llvm.minnum.f32
// CHECK: cmpxchg ptr %0, i32
// CHECK: call {{.*}}double @llvm.maxnum.f64
// CHECK: cmpxchg ptr %1, i64
__global__ void minmax(float *f, double *d, float x, double y) {
  atomicMin(f, x);
  atomicMax(d, y);
}

// Scoped variants: identical relaxed operations.
// CHECK-LABEL: define {{.*}} @_Z6scopedPiPf(
// CHECK: atomicrmw add ptr %0, i32 1 monotonic
// CHECK: atomicrmw add ptr %0, i32 2 monotonic
// CHECK: atomicrmw fadd ptr %1, float 3.000000e+00 monotonic
// CHECK: cmpxchg ptr %0, i32 4, i32 5 monotonic monotonic
// CHECK: atomicrmw max ptr %0, i32 6 monotonic
__global__ void scoped(int *i, float *f) {
  atomicAdd_block(i, 1);
  atomicAdd_system(i, 2);
  atomicAdd_block(f, 3.0f);
  atomicCAS_system(i, 4, 5);
  atomicMax_block(i, 6);
}

// Shared-memory atomics work the same way (on a shared address).
// CHECK-LABEL: define {{.*}} @_Z6sharedPi(
// CHECK: atomicrmw add ptr addrspacecast (ptr addrspace(3) @{{.*}} to ptr), i32 1 monotonic
__global__ void shared(int *out) {
  __shared__ int counter;
  atomicAdd(&counter, 1);
  __syncthreads();
  out[0] = counter;
}
