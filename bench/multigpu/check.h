// bench/multigpu/check.h - CK(call): a CUDA call that must succeed; prints
// FAIL with the call and its error name, then exits 1.
// SPDX-License-Identifier: Apache-2.0
#ifndef HETGPU_BENCH_MULTIGPU_CHECK_H
#define HETGPU_BENCH_MULTIGPU_CHECK_H
#include <cstdio>
#include <cstdlib>

#define CK(X)                                                                  \
  do {                                                                         \
    cudaError_t E_ = (X);                                                      \
    if (E_ != cudaSuccess) {                                                   \
      printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #X,                   \
             cudaGetErrorName(E_));                                            \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

#endif
