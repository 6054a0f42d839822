// grid_group::sync() (a grid-wide barrier) is not supported: using it, as a
// member or through cg::sync, is a compile-time error naming the construct
// and the reason, on the device and on the host side.
// RUN: not %clangxx %cuda_device -fsyntax-only %s 2>&1 | FileCheck %s
// RUN: not %clangxx %cuda_device -fsyntax-only -DFREE_FUNCTION %s 2>&1 \
// RUN:   | FileCheck %s
// RUN: not %clangxx %cuda_host -fsyntax-only %s 2>&1 | FileCheck %s
// Negative twin: the grid group without sync() compiles.
// RUN: %clangxx %cuda_device -fsyntax-only -DNO_SYNC %s
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// CHECK: error: static assertion failed {{.*}}hetGPU: grid_group::sync() (a grid-wide barrier) is not supported: it needs a cooperative launch
__global__ void k(int *p) {
  cg::grid_group g = cg::this_grid();
  p[g.thread_rank()] = 1;
#if defined(FREE_FUNCTION)
  cg::sync(g);
#elif !defined(NO_SYNC)
  g.sync();
#endif
  p[0] = 2;
}
