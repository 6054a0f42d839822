// Constructs the headers deliberately do not provide fail at compile time
// with a diagnostic that names them.
// RUN: not %clangxx %cuda_device -fsyntax-only -DTILE %s 2>&1 | FileCheck %s --check-prefix=TILE
// RUN: not %clangxx %cuda_device -fsyntax-only -DDRIVER %s 2>&1 | FileCheck %s --check-prefix=DRIVER
// RUN: not %clangxx %cuda_device -fsyntax-only -DHOSTFN %s 2>&1 | FileCheck %s --check-prefix=HOSTFN
// Negative twin: the supported neighbours compile.
// RUN: %clangxx %cuda_device -fsyntax-only %s
#include <cooperative_groups.h>
#include <cuda.h>
namespace cg = cooperative_groups;

__global__ void k(int *p) {
#ifdef TILE
  // TILE: error: static assertion failed {{.*}}hetGPU: thread_block_tile<N> needs N a power of two <= 1024
  auto t = cg::tiled_partition<48>(cg::this_thread_block());
  // TILE: error: static assertion failed {{.*}}hetGPU: shuffles, votes and matches exist only for tiles of at most 32 threads
  auto w = cg::tiled_partition<64>(cg::this_thread_block());
  p[1] = w.shfl(p[2], 0);
#else
  auto t = cg::tiled_partition<32>(cg::this_thread_block());
  auto w = cg::tiled_partition<64>(cg::this_thread_block());
  p[1] = t.shfl(p[2], 0) + w.size();
#endif
  p[0] = t.size();
#ifdef HOSTFN
  // A host-only library function stays host-only.
  // HOSTFN: error: no matching function for call to 'qsort'
  qsort(p, 4, 4, nullptr);
#endif
}

int host() {
#ifdef DRIVER
  // The CUDA driver API is not provided, only the runtime API.
  // DRIVER: error: use of undeclared identifier 'cuInit'
  return cuInit(0);
#else
  static_assert(CUDA_VERSION >= 12000, "cuda.h defines CUDA_VERSION");
  return 0;
#endif
}
