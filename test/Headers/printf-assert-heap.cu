// Device printf (clang's vprintf lowering, which hetgpu-raise maps to
// __hetgpu_printf), assert -> __hetgpu_assert_fail, __trap, clocks, and the
// device heap (malloc/free/new/delete) -> __hetgpu_malloc/__hetgpu_free.
// RUN: %clangxx %cuda_device -O3 -emit-llvm -S %s -o - \
// RUN:   | FileCheck %s --implicit-check-not=llvm.nvvm --implicit-check-not=asm \
// RUN:       --implicit-check-not="@malloc(" --implicit-check-not="@free(" \
// RUN:       --implicit-check-not="@__assertfail" --implicit-check-not="@printf("
// With NDEBUG the assertion disappears (negative twin).
// RUN: %clangxx %cuda_device -DNDEBUG -O3 -emit-llvm -S %s -o - \
// RUN:   | FileCheck %s --check-prefix=NDEBUG
#include <cassert>
#include <cstdio>
#include <cstdlib>

// CHECK: @[[$FMT:.*]] = {{.*}} c"x=%d y=%f s=%s\0A\00"
// CHECK: @[[$MSG:.*]] = {{.*}} c"x != 42\00"
// CHECK-LABEL: define {{.*}} @_Z{{[0-9]+}}printsif(
// CHECK: call i32 @vprintf(ptr {{.*}}@[[$FMT]], ptr
__global__ void prints(int x, float y) {
  printf("x=%d y=%f s=%s\n", x, y, "str");
}

// CHECK-LABEL: define {{.*}} @_Z{{[0-9]+}}assertsi(
// CHECK: icmp eq i32 %0, 42
// CHECK: call void @__hetgpu_assert_fail(ptr {{.*}}@[[$MSG]], ptr {{.*}}, i32 {{.*}}[[#@LINE+5]], ptr
// CHECK-NEXT: unreachable
// NDEBUG-LABEL: define {{.*}} @_Z{{[0-9]+}}assertsi(
// NDEBUG-NOT: __hetgpu_assert_fail
// NDEBUG: ret void
__global__ void asserts(int x) { assert(x != 42); }

// CHECK-LABEL: define {{.*}} @_Z{{[0-9]+}}trapsi(
// CHECK: call void @__hetgpu_trap()
// CHECK-NEXT: unreachable
__global__ void traps(int x) {
  if (x == 3)
    __trap();
}

// CHECK-LABEL: define {{.*}} @_Z{{[0-9]+}}clocksPx(
// CHECK: call {{.*}}i64 @__hetgpu_clock64()
// CHECK: call {{.*}}i32 @__hetgpu_clock()
// CHECK: call {{.*}}i64 @__hetgpu_globaltimer()
__global__ void clocks(long long *t) {
  t[0] = clock64();
  t[1] = clock();
  t[2] = __globaltimer();
}

// CHECK-LABEL: define {{.*}} @_Z{{[0-9]+}}heapPi(
// CHECK: [[P:%.*]] = {{.*}}call {{.*}}ptr @__hetgpu_malloc(i64 {{.*}}64)
// CHECK: call void @__hetgpu_free(ptr {{.*}}[[P]])
// operator new/delete (clang's <new> wrapper) use the same heap.
// CHECK: call {{.*}}ptr @__hetgpu_malloc(i64 {{.*}}12)
// CHECK: call void @__hetgpu_free(
__global__ void heap(int *out) {
  int *p = (int *)malloc(16 * sizeof(int));
  p[threadIdx.x] = 1;
  out[0] = p[3];
  free(p);
  int *q = new int[3];
  q[threadIdx.x] = 2;
  out[1] = q[1];
  delete[] q;
}
