// __trap() and a failing assert() end the launch through the services,
// naming the failed assertion; a passing assert does nothing.
// RUN: %hetir %s -o %t.bc
// RUN: not hetgpu-host-run --block=32 %t.bc _Z4trapPii buf:i32:32 i32=5 \
// RUN:   | FileCheck --check-prefix=TRAP %s
// RUN: not hetgpu-host-run --block=32 %t.bc _Z5checkPii buf:i32:32 i32=7 \
// RUN:   | FileCheck --check-prefix=ASSERT %s
// RUN: hetgpu-host-run --block=32 %t.bc _Z5checkPii buf:i32:32 i32=40 \
// RUN:   | FileCheck --check-prefix=PASS %s
// TRAP: launch failed: trap
// ASSERT: launch failed: assert: {{.*}}exec-trap-assert.cu:{{[0-9]+}}: {{.*}}check{{.*}}: Assertion `t != bad` failed.
// PASS: arg0: 0 1 2 3
#include <cassert>

__global__ void trap(int *out, int bad) {
  int t = threadIdx.x;
  if (t == bad)
    __trap();
  out[t] = t;
}

__global__ void check(int *out, int bad) {
  int t = threadIdx.x;
  assert(t != bad);
  out[t] = t;
}
