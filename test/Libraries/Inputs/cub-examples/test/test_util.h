//===- test_util.h - The helpers CUB's examples include -------*- CUDA -*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// CUB's examples (/usr/share/doc/libcub-dev/examples/{block,device}) include
/// "../../test/test_util.h" from CUB's source tree, which Debian does not
/// ship. This is hetGPU's own stand-in with the interface the examples use:
/// command-line flags, device start-up, a deterministic random-bit source,
/// SafeBitCast,
/// result comparison against a host reference (0: equal), a GPU timer and
/// AssertEquals, which exits with status 1 on a mismatch. Point the compiler
/// at it with `-I <this folder>/../examples/device` so that the examples'
/// relative include resolves here.
///
//===----------------------------------------------------------------------===//
#ifndef HETGPU_TEST_CUB_TEST_UTIL_H
#define HETGPU_TEST_CUB_TEST_UTIL_H

#include <cub/util_debug.cuh>
#include <cub/util_type.cuh>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

/// `--name` and `--name=value` arguments.
struct CommandLineArgs {
  std::vector<std::string> Keys, Values;
  CommandLineArgs(int Argc, char **Argv) {
    for (int I = 1; I < Argc; ++I) {
      std::string A = Argv[I];
      if (A.rfind("--", 0) != 0 && A.rfind("-", 0) == 0)
        A = "-" + A;
      if (A.rfind("--", 0) != 0)
        continue;
      size_t Eq = A.find('=');
      Keys.push_back(A.substr(2, Eq == std::string::npos ? std::string::npos
                                                           : Eq - 2));
      Values.push_back(Eq == std::string::npos ? "" : A.substr(Eq + 1));
    }
  }
  bool CheckCmdLineFlag(const char *Name) const {
    for (const std::string &K : Keys)
      if (K == Name)
        return true;
    return false;
  }
  template <typename T> void GetCmdLineArgument(const char *Name, T &Out) const {
    for (size_t I = 0; I < Keys.size(); ++I)
      if (Keys[I] == Name) {
        std::istringstream In(Values[I]);
        In >> Out;
      }
  }
  /// Selects `--device=N` (default 0) and prints which device runs.
  cudaError_t DeviceInit(int Dev = -1) {
    if (Dev < 0) {
      Dev = 0;
      GetCmdLineArgument("device", Dev);
    }
    cudaError_t E = cudaSetDevice(Dev);
    if (E != cudaSuccess)
      return E;
    cudaDeviceProp P;
    E = cudaGetDeviceProperties(&P, Dev);
    if (E == cudaSuccess)
      std::printf("Using device %d: %s\n", Dev, P.name);
    std::fflush(stdout);
    return E;
  }
};

/// Fills \p Key with pseudo-random bits (the same sequence every run). With
/// \p EntropyReduction > 0 each word is the AND of that many more draws,
/// which makes set bits rarer.
template <typename K>
void RandomBits(K &Key, int EntropyReduction = 0, int BeginBit = 0,
                int EndBit = sizeof(K) * 8) {
  static unsigned long long State = 0x9e3779b97f4a7c15ull;
  auto Next = [] {
    State ^= State << 13;
    State ^= State >> 7;
    State ^= State << 17;
    return State;
  };
  unsigned char Bytes[sizeof(K)];
  for (size_t I = 0; I < sizeof(K); ++I) {
    unsigned long long W = Next();
    for (int R = 0; R < EntropyReduction; ++R)
      W &= Next();
    Bytes[I] = static_cast<unsigned char>(W >> 24);
  }
  // Keep only the bits in [BeginBit, EndBit).
  for (int B = 0; B < int(sizeof(K) * 8); ++B)
    if (B < BeginBit || B >= EndBit)
      Bytes[B / 8] &= static_cast<unsigned char>(~(1u << (B % 8)));
  std::memcpy(&Key, Bytes, sizeof(K));
  if constexpr (std::is_floating_point<K>::value)
    if (!std::isfinite(Key))
      Key = K(0);
}

/// The bits of \p From as a \p To of the same size.
template <typename To, typename From>
__host__ __device__ To SafeBitCast(const From &In) {
  static_assert(sizeof(To) == sizeof(From), "SafeBitCast: sizes differ");
  To Out;
  __builtin_memcpy(&Out, &In, sizeof(To));
  return Out;
}

template <typename T> bool testUtilEqual(const T &A, const T &B) {
  if constexpr (std::is_floating_point<T>::value)
    return A == B || std::fabs(A - B) <= 1e-5 * std::fmax(std::fabs(A), std::fabs(B));
  else
    return A == B;
}

template <typename T> void testUtilPrint(const T &V) {
  if constexpr (std::is_arithmetic<T>::value)
    std::cout << +V;
  else
    std::cout << "?";
}

/// 0 when the \p N values at device address \p D equal \p Ref, else 1.
template <typename T>
int CompareDeviceResults(const T *Ref, const T *D, size_t N, bool Verbose = true,
                         bool Display = false) {
  std::vector<T> H(N);
  if (N && cudaMemcpy(H.data(), D, N * sizeof(T), cudaMemcpyDeviceToHost) !=
               cudaSuccess)
    return 1;
  for (size_t I = 0; I < N; ++I)
    if (!testUtilEqual(H[I], Ref[I])) {
      if (Verbose) {
        std::cout << "INCORRECT: [" << I << "]: ";
        testUtilPrint(H[I]);
        std::cout << " != ";
        testUtilPrint(Ref[I]);
        std::cout << "\n";
      }
      return 1;
    }
  if (Display) {
    for (size_t I = 0; I < N; ++I) {
      testUtilPrint(H[I]);
      std::cout << (I + 1 < N ? ", " : "\n");
    }
  }
  return 0;
}

template <typename T> void DisplayResults(const T *H, size_t N) {
  for (size_t I = 0; I < N; ++I) {
    testUtilPrint(H[I]);
    std::cout << (I + 1 < N ? ", " : "");
  }
  std::cout << "\n";
}

#define AssertEquals(A, B)                                                     \
  do {                                                                         \
    if ((A) != (B)) {                                                          \
      std::cerr << "(" << __FILE__ << ":" << __LINE__ << ") mismatch\n";        \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

/// Elapsed time between Start() and Stop() in milliseconds, on the GPU.
struct GpuTimer {
  cudaEvent_t Begin, End;
  GpuTimer() {
    cudaEventCreate(&Begin);
    cudaEventCreate(&End);
  }
  ~GpuTimer() {
    cudaEventDestroy(Begin);
    cudaEventDestroy(End);
  }
  void Start() { cudaEventRecord(Begin, 0); }
  void Stop() { cudaEventRecord(End, 0); }
  float ElapsedMillis() {
    float Ms = 0;
    cudaEventSynchronize(End);
    cudaEventElapsedTime(&Ms, Begin, End);
    return Ms;
  }
};

#endif // HETGPU_TEST_CUB_TEST_UTIL_H
