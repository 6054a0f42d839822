//===- hetgpu/contract.h - Named facts of separately compiled device code -===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
//
// Components of a device link (hetgpu-cc -dc objects, archive members) state
// the compile-time facts they share, and the device link checks them
// (docs/SeparateCompilation.md, "Contracts"):
//
//   HETGPU_EXPORT_FACT(TILE, 64);   // this component defines TILE = 64
//   HETGPU_REQUIRE_FACT(TILE, 64);  // this component was compiled for 64
//                                   // (array sizes, unrolled loops...)
//   HETGPU_IMPORT_FACT(STAGES);     // this component reads STAGES at run
//   ... HETGPU_FACT(STAGES) ...     // time; the link folds in the value
//
// Host code reads a fact as a __constant__ symbol:
//   cudaMemcpyFromSymbol(&v, HETGPU_FACT(STAGES), sizeof(long long));
//
// A required fact that another component exports with another value, a
// fact exported twice, or one required or imported and exported by no
// component is a device-link error naming the fact and the components.
// Geometric facts of the whole component (its device functions as well as
// its kernels), checked by the device link against every kernel whose call
// graph reaches the component and, after the link, against each launch:
//
//   HETGPU_REQUIRE_BLOCK_SIZE(256); // the code needs exactly 256 threads
//                                   // per block (a fixed blockDim)
//   HETGPU_MAX_BLOCK_SIZE(128);     // compiled for at most 128 threads per
//                                   // block (shared arrays, registers)
//   HETGPU_REQUIRE_FULL_WARPS();    // a whole number of 32-thread warps
//                                   // (also derived from full-mask
//                                   // __shfl_*_sync / __syncwarp / votes)
//
// Values are integer constant expressions (long long). Use the macros at
// global namespace scope (the variables are then not mangled). The
// spellings below are the ABI the compiler reads
// (include/hetgpu/IR/Contracts.h).
//
//===----------------------------------------------------------------------===//

#ifndef HETGPU_CONTRACT_H
#define HETGPU_CONTRACT_H

#define HETGPU_EXPORT_FACT(NAME, VALUE)                                        \
  __constant__ __attribute__((used)) long long __hetgpu_fact_##NAME = (VALUE)

#define HETGPU_REQUIRE_FACT(NAME, VALUE)                                       \
  static __constant__ __attribute__((used))                                    \
  long long __hetgpu_require_fact_##NAME = (VALUE)

#define HETGPU_IMPORT_FACT(NAME)                                               \
  extern __constant__ long long __hetgpu_fact_##NAME

#define HETGPU_FACT(NAME) (__hetgpu_fact_##NAME)

#define HETGPU_REQUIRE_BLOCK_SIZE(THREADS)                                     \
  static __constant__ __attribute__((used))                                    \
  long long __hetgpu_block_size = (THREADS)

#define HETGPU_MAX_BLOCK_SIZE(THREADS)                                         \
  static __constant__ __attribute__((used))                                    \
  long long __hetgpu_max_block_size = (THREADS)

#define HETGPU_REQUIRE_FULL_WARPS()                                            \
  static __constant__ __attribute__((used)) long long __hetgpu_full_warps = 32

#endif // HETGPU_CONTRACT_H
