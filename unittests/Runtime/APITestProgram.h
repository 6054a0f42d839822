//===- APITestProgram.h - The program the CUDA API tests drive --*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// What the tests of CudaAPITest.cpp share with APITestProgram.cpp, which
/// registers the containers (a hand-written host-target module returned by a
/// stand-in translator) and holds main(): the host stubs and variable
/// shadows, the launch helper and the JIT cache directory.
///
//===----------------------------------------------------------------------===//

#ifndef HETGPU_UNITTESTS_RUNTIME_APITESTPROGRAM_H
#define HETGPU_UNITTESTS_RUNTIME_APITESTPROGRAM_H

#include "cuda_runtime_api.h"

#include <string>

namespace apitest {

// Host stubs and shadows (APITestProgram.cpp): only their addresses matter.
extern char vecAdd, blockSum, dynShared, printer, asserter, trapper,
    addToCounter, readTable, structArg, slowSet, services, bounded,
    notInContainer, faulter;
extern char addToCounter2, counter2; // second container (another .cu file)
extern char badKernel;               // malformed container
extern char brokenKernel;            // container whose translation fails
extern int counter;                  // host shadows of __device__ variables
extern float table[4];
extern int neverRegistered;

/// What `kernel<<<Grid, Block, Shared, Stream>>>(args...)` compiles to.
template <typename... Ts>
cudaError_t launch(const void *Stub, dim3 Grid, dim3 Block, size_t Shared,
                   cudaStream_t Stream, Ts... Args) {
  __cudaPushCallConfiguration(Grid, Block, Shared, Stream);
  dim3 G, B;
  size_t S;
  cudaStream_t St;
  if (__cudaPopCallConfiguration(&G, &B, &S, &St) != cudaSuccess)
    return cudaErrorMissingConfiguration;
  void *ArgPtrs[] = {&Args..., nullptr};
  return cudaLaunchKernel(Stub, G, B, ArgPtrs, S, St);
}

/// The JIT cache directory of this run (HETGPU_CACHE_DIR).
extern std::string CacheDir;

} // namespace apitest

#endif // HETGPU_UNITTESTS_RUNTIME_APITESTPROGRAM_H
