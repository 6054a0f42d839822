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

#endif // HETGPU_CONTRACT_H
