//===- CudaAPITest.cpp - The CUDA runtime API on the CPU device -----------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Drives libhetgpu-rt the way a program built by hetgpu-cc does: containers
/// are registered through __cudaRegisterFatBinary/__cudaRegisterFunction/
/// __cudaRegisterVar (APITestProgram.cpp), kernels are launched with <<<>>>'s push/pop calls and
/// cudaLaunchKernel. The "translation" is a hand-written host-target module
/// (Inputs/TestKernels.c) returned by a stand-in translator
/// (Inputs/FakeTranslator.c), so these tests need no LLVM.
///
//===----------------------------------------------------------------------===//

#include "APITestProgram.h"
#include "cuda_runtime_api.h"
#include "hetgpu/IR/Container.h"
#include "hetgpu/hetgpu.h"

#include "gtest/gtest.h"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace hetgpu;
using namespace apitest;

namespace {

//===----------------------------------------------------------------------===//
// Tests
//===----------------------------------------------------------------------===//

// First test: whether this run translated (cold cache) or only read the
// cache (warm start: the translator library must not be loaded).
TEST(JITCache, ColdTranslatesWarmLoadsFromCache) {
  float A[4] = {1, 2, 3, 4}, B[4] = {10, 20, 30, 40}, C[4] = {};
  float *DA, *DB, *DC;
  ASSERT_EQ(cudaMalloc((void **)&DA, sizeof(A)), cudaSuccess);
  ASSERT_EQ(cudaMalloc((void **)&DB, sizeof(B)), cudaSuccess);
  ASSERT_EQ(cudaMalloc((void **)&DC, sizeof(C)), cudaSuccess);
  cudaMemcpy(DA, A, sizeof(A), cudaMemcpyHostToDevice);
  cudaMemcpy(DB, B, sizeof(B), cudaMemcpyHostToDevice);
  ASSERT_EQ(launch(&vecAdd, 1, 4, 0, nullptr, DA, DB, DC, 4), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(C, DC, sizeof(C), cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(C[3], 44.0f);
  bool Warm = getenv("HETGPU_TEST_EXPECT_WARM") != nullptr;
  EXPECT_EQ(hetgpuTranslatorLoaded(), Warm ? 0 : 1);
  // The entry exists in the cache directory.
  std::string Cmd = "ls '" + CacheDir + "' | grep -q '^host-.*\\.hjc$'";
  EXPECT_EQ(system(Cmd.c_str()), 0) << "no cache entry in " << CacheDir;
  cudaFree(DA);
  cudaFree(DB);
  cudaFree(DC);
}

TEST(Devices, CountPropertiesAttributes) {
  int N = 0;
  ASSERT_EQ(cudaGetDeviceCount(&N), cudaSuccess);
  EXPECT_EQ(N, 1); // HETGPU_DEVICE=cpu
  int D = -1;
  EXPECT_EQ(cudaGetDevice(&D), cudaSuccess);
  EXPECT_EQ(D, 0);
  cudaDeviceProp Prop;
  ASSERT_EQ(cudaGetDeviceProperties(&Prop, 0), cudaSuccess);
  EXPECT_NE(strstr(Prop.name, "Host CPU"), nullptr) << Prop.name;
  EXPECT_EQ(Prop.warpSize, 32);
  EXPECT_EQ(Prop.maxThreadsPerBlock, 1024);
  EXPECT_EQ(Prop.integrated, 1);
  EXPECT_GT(Prop.totalGlobalMem, 0u);
  int V = 0;
  EXPECT_EQ(cudaDeviceGetAttribute(&V, cudaDevAttrWarpSize, 0), cudaSuccess);
  EXPECT_EQ(V, 32);
  EXPECT_EQ(cudaDeviceGetAttribute(&V, cudaDevAttrMultiProcessorCount, 0),
            cudaSuccess);
  EXPECT_EQ(V, Prop.multiProcessorCount);
  EXPECT_EQ(cudaDeviceGetAttribute(&V, cudaDevAttrComputeCapabilityMajor, 0),
            cudaSuccess);
  EXPECT_EQ(V, Prop.major);
  EXPECT_EQ(cudaSetDevice(1), cudaErrorInvalidDevice);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidDevice);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_EQ(cudaGetDeviceProperties(&Prop, 7), cudaErrorInvalidDevice);
  EXPECT_EQ(cudaSetDevice(0), cudaSuccess);
  EXPECT_EQ(cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync), cudaSuccess);
  size_t L = 0;
  EXPECT_EQ(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1 << 24), cudaSuccess);
  EXPECT_EQ(cudaDeviceGetLimit(&L, cudaLimitMallocHeapSize), cudaSuccess);
  EXPECT_EQ(L, size_t(1) << 24);
  EXPECT_EQ(cudaDeviceGetLimit(&L, cudaLimitPrintfFifoSize), cudaSuccess);
  EXPECT_EQ(L, size_t(1) << 20);
  EXPECT_EQ(cudaDeviceSetCacheConfig(cudaFuncCachePreferShared), cudaSuccess);
  cudaFuncCache CC;
  EXPECT_EQ(cudaDeviceGetCacheConfig(&CC), cudaSuccess);
  EXPECT_EQ(CC, cudaFuncCachePreferShared);
  int RV = 0, DV = 0;
  EXPECT_EQ(cudaRuntimeGetVersion(&RV), cudaSuccess);
  EXPECT_EQ(cudaDriverGetVersion(&DV), cudaSuccess);
  EXPECT_EQ(RV, 12080);
  EXPECT_EQ(cudaProfilerStart(), cudaSuccess);
  EXPECT_EQ(cudaProfilerStop(), cudaSuccess);
  EXPECT_EQ(cudaThreadSynchronize(), cudaSuccess);
  const char *Backend = nullptr, *Target = nullptr;
  EXPECT_EQ(hetgpuGetDeviceInfo(0, &Backend, &Target, nullptr), 0);
  EXPECT_STREQ(Backend, "cpu");
  EXPECT_STREQ(Target, "host");
}

TEST(ErrorStrings, NamesAndStrings) {
  EXPECT_STREQ(cudaGetErrorName(cudaErrorInvalidValue), "cudaErrorInvalidValue");
  EXPECT_STREQ(cudaGetErrorString(cudaErrorInvalidValue), "invalid argument");
  EXPECT_STREQ(cudaGetErrorString(cudaSuccess), "no error");
  EXPECT_STREQ(cudaGetErrorString(static_cast<cudaError_t>(4242)),
               "unrecognized error code");
}

TEST(Memory, MallocCopyMemsetFree) {
  const int N = 1000;
  std::vector<int> H(N), Back(N);
  for (int I = 0; I < N; ++I)
    H[I] = I * 3;
  int *D = nullptr, *D2 = nullptr;
  ASSERT_EQ(cudaMalloc((void **)&D, N * sizeof(int)), cudaSuccess);
  ASSERT_EQ(cudaMalloc((void **)&D2, N * sizeof(int)), cudaSuccess);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(D) % 256, 0u);
  ASSERT_EQ(cudaMemcpy(D, H.data(), N * sizeof(int), cudaMemcpyHostToDevice),
            cudaSuccess);
  ASSERT_EQ(cudaMemcpy(D2, D, N * sizeof(int), cudaMemcpyDeviceToDevice),
            cudaSuccess);
  ASSERT_EQ(cudaMemcpy(Back.data(), D2, N * sizeof(int), cudaMemcpyDefault),
            cudaSuccess);
  EXPECT_EQ(Back, H);
  ASSERT_EQ(cudaMemset(D2, 0xff, 10 * sizeof(int)), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(Back.data(), D2, N * sizeof(int),
                       cudaMemcpyDeviceToHost),
            cudaSuccess);
  EXPECT_EQ(Back[9], -1);
  EXPECT_EQ(Back[10], 30);
  // Bad direction.
  EXPECT_EQ(cudaMemcpy(D, H.data(), 4, static_cast<cudaMemcpyKind>(7)),
            cudaErrorInvalidMemcpyDirection);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidMemcpyDirection);
  // 2D copies.
  size_t Pitch = 0;
  char *P2 = nullptr;
  ASSERT_EQ(cudaMallocPitch((void **)&P2, &Pitch, 10, 3), cudaSuccess);
  EXPECT_GE(Pitch, 10u);
  char Src[30], Dst[30] = {};
  for (int I = 0; I < 30; ++I)
    Src[I] = static_cast<char>(I);
  ASSERT_EQ(cudaMemcpy2D(P2, Pitch, Src, 10, 10, 3, cudaMemcpyHostToDevice),
            cudaSuccess);
  ASSERT_EQ(cudaMemcpy2D(Dst, 10, P2, Pitch, 10, 3, cudaMemcpyDeviceToHost),
            cudaSuccess);
  EXPECT_EQ(memcmp(Src, Dst, 30), 0);
  EXPECT_EQ(cudaFree(P2), cudaSuccess);
  size_t Free = 0, Total = 0;
  EXPECT_EQ(cudaMemGetInfo(&Free, &Total), cudaSuccess);
  EXPECT_GT(Total, 0u);
  EXPECT_LE(Free, Total);
  EXPECT_EQ(cudaFree(D), cudaSuccess);
  EXPECT_EQ(cudaFree(D2), cudaSuccess);
  EXPECT_EQ(cudaFree(nullptr), cudaSuccess);
}

TEST(Memory, FreeOfGarbageIsAnErrorAndNotSticky) {
  int Local = 0;
  EXPECT_EQ(cudaFree(&Local), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  int *D;
  ASSERT_EQ(cudaMalloc((void **)&D, 64), cudaSuccess);
  EXPECT_EQ(cudaFree(D + 1), cudaErrorInvalidValue); // interior pointer
  EXPECT_EQ(cudaFree(D), cudaSuccess);
  EXPECT_EQ(cudaFree(D), cudaErrorInvalidValue); // double free
  EXPECT_EQ(cudaFreeHost(&Local), cudaErrorInvalidValue);
  cudaGetLastError();
  // The context is still usable.
  EXPECT_EQ(cudaMalloc((void **)&D, 64), cudaSuccess);
  EXPECT_EQ(cudaFree(D), cudaSuccess);
}

TEST(Memory, HostManagedAndPointerAttributes) {
  int *H = nullptr, *M = nullptr, *D = nullptr;
  ASSERT_EQ(cudaMallocHost((void **)&H, 64), cudaSuccess);
  ASSERT_EQ(cudaMallocManaged((void **)&M, 64), cudaSuccess);
  ASSERT_EQ(cudaMalloc((void **)&D, 64), cudaSuccess);
  M[0] = 5; // managed memory is usable from the host
  cudaPointerAttributes A;
  ASSERT_EQ(cudaPointerGetAttributes(&A, D + 3), cudaSuccess);
  EXPECT_EQ(A.type, cudaMemoryTypeDevice);
  EXPECT_EQ(A.device, 0);
  EXPECT_EQ(A.devicePointer, D + 3);
  ASSERT_EQ(cudaPointerGetAttributes(&A, H), cudaSuccess);
  EXPECT_EQ(A.type, cudaMemoryTypeHost);
  EXPECT_EQ(A.hostPointer, H);
  ASSERT_EQ(cudaPointerGetAttributes(&A, M), cudaSuccess);
  EXPECT_EQ(A.type, cudaMemoryTypeManaged);
  int Local;
  ASSERT_EQ(cudaPointerGetAttributes(&A, &Local), cudaSuccess);
  EXPECT_EQ(A.type, cudaMemoryTypeUnregistered);
  void *Dev = nullptr;
  EXPECT_EQ(cudaHostGetDevicePointer(&Dev, H, 0), cudaSuccess);
  EXPECT_EQ(Dev, H);
  unsigned Flags = 99;
  EXPECT_EQ(cudaHostGetFlags(&Flags, H), cudaSuccess);
  EXPECT_EQ(Flags, 0u);
  EXPECT_EQ(cudaHostRegister(&Local, sizeof(Local), 0), cudaSuccess);
  EXPECT_EQ(cudaPointerGetAttributes(&A, &Local), cudaSuccess);
  EXPECT_EQ(A.type, cudaMemoryTypeHost);
  EXPECT_EQ(cudaHostUnregister(&Local), cudaSuccess);
  EXPECT_EQ(cudaHostUnregister(&Local), cudaErrorHostMemoryNotRegistered);
  EXPECT_EQ(cudaMemPrefetchAsync(M, 64, 0, nullptr), cudaSuccess);
  EXPECT_EQ(cudaFree(H), cudaErrorInvalidValue); // host memory: cudaFreeHost
  cudaGetLastError();
  EXPECT_EQ(cudaFreeHost(H), cudaSuccess);
  EXPECT_EQ(cudaFree(M), cudaSuccess);
  EXPECT_EQ(cudaFree(D), cudaSuccess);
}

TEST(Launch, VecAddManyBlocks) {
  const int N = 100000;
  std::vector<float> A(N), B(N), C(N);
  for (int I = 0; I < N; ++I) {
    A[I] = I * 0.5f;
    B[I] = 1.0f + I;
  }
  float *DA, *DB, *DC;
  cudaMalloc((void **)&DA, N * 4);
  cudaMalloc((void **)&DB, N * 4);
  cudaMalloc((void **)&DC, N * 4);
  cudaMemcpy(DA, A.data(), N * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(DB, B.data(), N * 4, cudaMemcpyHostToDevice);
  ASSERT_EQ(launch(&vecAdd, (N + 255) / 256, 256, 0, nullptr, DA, DB, DC, N),
            cudaSuccess);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  cudaMemcpy(C.data(), DC, N * 4, cudaMemcpyDeviceToHost);
  for (int I = 0; I < N; ++I)
    ASSERT_EQ(C[I], A[I] + B[I]) << "at " << I;
  cudaFree(DA);
  cudaFree(DB);
  cudaFree(DC);
}

TEST(Launch, StaticAndDynamicSharedMemory) {
  const int Blocks = 37, Threads = 128;
  std::vector<int> In(Blocks * Threads);
  for (size_t I = 0; I < In.size(); ++I)
    In[I] = static_cast<int>(I % 17);
  int *DIn, *DOut, *DDyn;
  cudaMalloc((void **)&DIn, In.size() * 4);
  cudaMalloc((void **)&DOut, Blocks * 4);
  cudaMalloc((void **)&DDyn, In.size() * 4);
  cudaMemcpy(DIn, In.data(), In.size() * 4, cudaMemcpyHostToDevice);
  ASSERT_EQ(launch(&blockSum, Blocks, Threads, 0, nullptr, DIn, DOut),
            cudaSuccess);
  ASSERT_EQ(launch(&dynShared, Blocks, Threads, Threads * sizeof(int), nullptr,
                   DDyn),
            cudaSuccess);
  std::vector<int> Out(Blocks), Dyn(In.size());
  cudaMemcpy(Out.data(), DOut, Blocks * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(Dyn.data(), DDyn, Dyn.size() * 4, cudaMemcpyDeviceToHost);
  for (int B = 0; B < Blocks; ++B) {
    int Ref = 0;
    for (int T = 0; T < Threads; ++T)
      Ref += In[B * Threads + T];
    EXPECT_EQ(Out[B], Ref) << "block " << B;
    for (int T = 0; T < Threads; ++T)
      ASSERT_EQ(Dyn[B * Threads + T], 3 * (Threads - 1 - T) + B);
  }
  // Too little dynamic shared memory: the kernel traps (checked by it).
  cudaFree(DIn);
  cudaFree(DOut);
  cudaFree(DDyn);
}

TEST(Launch, StructArgumentsAndAsyncArgumentCopy) {
  struct S {
    int A;
    double B;
    char C;
  } Arg = {-12, 99.0, 'q'};
  long long *DOut;
  cudaMalloc((void **)&DOut, 3 * sizeof(long long));
  cudaStream_t St;
  ASSERT_EQ(cudaStreamCreate(&St), cudaSuccess);
  int *Flag;
  cudaMallocManaged((void **)&Flag, sizeof(int));
  *Flag = 0;
  // Keep the stream busy, then launch with arguments that change right
  // after the call: the launch must use the values at call time.
  ASSERT_EQ(launch(&slowSet, 1, 1, 0, St, Flag, 7, 100), cudaSuccess);
  {
    S Local = Arg;
    ASSERT_EQ(launch(&structArg, 1, 1, 0, St, Local, DOut), cudaSuccess);
    Local = {0, 0, 0};
  }
  ASSERT_EQ(cudaStreamSynchronize(St), cudaSuccess);
  long long Out[3];
  cudaMemcpy(Out, DOut, sizeof(Out), cudaMemcpyDeviceToHost);
  EXPECT_EQ(Out[0], -12);
  EXPECT_EQ(Out[1], 99);
  EXPECT_EQ(Out[2], 'q');
  EXPECT_EQ(*Flag, 7);
  cudaStreamDestroy(St);
  cudaFree(Flag);
  cudaFree(DOut);
}

TEST(Launch, BadConfigurationsAreNotSticky) {
  // 4096 threads per block: CUDA 13 returns cudaErrorInvalidValue (CUDA 12:
  // cudaErrorInvalidConfiguration).
  EXPECT_EQ(launch(&vecAdd, 1, 4096, 0, nullptr, nullptr, nullptr, nullptr, 0),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaPeekAtLastError(), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_EQ(launch(&vecAdd, 0, 32, 0, nullptr, nullptr, nullptr, nullptr, 0),
            cudaErrorInvalidValue);
  EXPECT_EQ(launch(&vecAdd, 1, dim3(1, 1, 65), 0, nullptr, nullptr, nullptr,
                   nullptr, 0),
            cudaErrorInvalidValue);
  EXPECT_EQ(launch(&vecAdd, dim3(1, 70000, 1), 1, 0, nullptr, nullptr, nullptr,
                   nullptr, 0),
            cudaErrorInvalidValue);
  // Too much dynamic shared memory.
  EXPECT_EQ(launch(&dynShared, 1, 32, 1 << 20, nullptr, nullptr),
            cudaErrorInvalidValue);
  // More threads than __launch_bounds__.
  EXPECT_EQ(launch(&bounded, 1, 128, 0, nullptr), cudaErrorLaunchOutOfResources);
  // Not a registered kernel (CUDA 13: an invalid handle; CUDA 12:
  // cudaErrorInvalidDeviceFunction) / not in its container.
  EXPECT_EQ(launch(&neverRegistered, 1, 1, 0, nullptr),
            cudaErrorInvalidResourceHandle);
  EXPECT_EQ(launch(&notInContainer, 1, 1, 0, nullptr),
            cudaErrorInvalidDeviceFunction);
  // Invalid stream handle.
  EXPECT_EQ(launch(&trapper, 1, 1, 0, reinterpret_cast<cudaStream_t>(&counter)),
            cudaErrorInvalidResourceHandle);
  cudaGetLastError();
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  // Pop without push.
  dim3 G, B;
  size_t S;
  cudaStream_t St;
  EXPECT_EQ(__cudaPopCallConfiguration(&G, &B, &S, &St),
            cudaErrorMissingConfiguration);
  cudaGetLastError();
  // Still usable.
  int *D;
  ASSERT_EQ(cudaMalloc((void **)&D, 4), cudaSuccess);
  ASSERT_EQ(launch(&asserter, 1, 1, 0, nullptr, D), cudaSuccess);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  cudaFree(D);
}

// hetgpuPrecompile (hetgpu-precompile's entry) refuses what it cannot fill
// the cache for, with the CUDA error and a message naming it.
TEST(Precompile, RefusesBadInput) {
  const char *Why = nullptr;
  unsigned Cached = 7, Images = 7, Translated = 7;
  const char Garbage[] = "not a container, not even close to 64 bytes";
  EXPECT_EQ(hetgpuPrecompile(0, Garbage, sizeof(Garbage), &Cached, &Images,
                             &Translated, &Why),
            cudaErrorInvalidKernelImage);
  ASSERT_NE(Why, nullptr);
  EXPECT_EQ(std::string(Why).rfind("container: ", 0), 0u) << Why;
  container::Container C;
  container::ModuleInfo &M = C.Modules.emplace_back();
  M.Kind = container::ModuleKind::RelocatableHetIR;
  M.IR = "relocatable hetIR is never translated by the runtime";
  std::string Bytes = container::write(C);
  EXPECT_EQ(hetgpuPrecompile(0, Bytes.data(), Bytes.size(), nullptr, nullptr,
                             nullptr, &Why),
            cudaErrorInvalidKernelImage);
  EXPECT_NE(std::string(Why).find("relocatable"), std::string::npos) << Why;
  EXPECT_EQ(hetgpuPrecompile(1000, Bytes.data(), Bytes.size(), nullptr,
                             nullptr, nullptr, &Why),
            cudaErrorInvalidDevice);
  EXPECT_NE(std::string(Why).find("no device 1000"), std::string::npos) << Why;
}

TEST(Launch, MalformedContainerAndFailedTranslation) {
  EXPECT_EQ(launch(&badKernel, 1, 1, 0, nullptr),
            cudaErrorInvalidKernelImage);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidKernelImage);
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(launch(&brokenKernel, 1, 1, 0, nullptr),
            cudaErrorNoKernelImageForDevice);
  std::string Err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(Err.find("unsupported construct"), std::string::npos) << Err;
  EXPECT_EQ(cudaGetLastError(), cudaErrorNoKernelImageForDevice);
  // Other kernels still run.
  EXPECT_EQ(launch(&trapper, 0, 1, 0, nullptr), cudaErrorInvalidValue);
  cudaGetLastError();
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

TEST(Symbols, DeviceVariablesAndConstants) {
  int Zero = 0;
  ASSERT_EQ(cudaMemcpyToSymbol(&counter, &Zero, sizeof(int), 0,
                               cudaMemcpyHostToDevice),
            cudaSuccess);
  ASSERT_EQ(launch(&addToCounter, 10, 64, 0, nullptr, 2), cudaSuccess);
  int Got = 0;
  ASSERT_EQ(cudaMemcpyFromSymbol(&Got, &counter, sizeof(int), 0,
                                 cudaMemcpyDeviceToHost),
            cudaSuccess);
  EXPECT_EQ(Got, 10 * 64 * 2);
  // Initial values of a __constant__ come from the module; overwrite one.
  float T[4];
  ASSERT_EQ(cudaMemcpyFromSymbol(T, table, sizeof(T), 0,
                                 cudaMemcpyDeviceToHost),
            cudaSuccess);
  EXPECT_EQ(T[2], 3.0f);
  float NewV = 9.5f;
  ASSERT_EQ(cudaMemcpyToSymbol(table, &NewV, 4, 8, cudaMemcpyHostToDevice),
            cudaSuccess);
  float *DOut;
  cudaMalloc((void **)&DOut, 16);
  ASSERT_EQ(launch(&readTable, 1, 4, 0, nullptr, DOut), cudaSuccess);
  cudaMemcpy(T, DOut, 16, cudaMemcpyDeviceToHost);
  EXPECT_EQ(T[0], 1.0f);
  EXPECT_EQ(T[2], 9.5f);
  void *Addr = nullptr;
  size_t Size = 0;
  EXPECT_EQ(cudaGetSymbolAddress(&Addr, table), cudaSuccess);
  EXPECT_EQ(cudaGetSymbolSize(&Size, table), cudaSuccess);
  EXPECT_EQ(Size, 16u);
  EXPECT_EQ(static_cast<float *>(Addr)[2], 9.5f);
  // Async variants on a stream.
  cudaStream_t St;
  cudaStreamCreate(&St);
  int Five = 5;
  EXPECT_EQ(cudaMemcpyToSymbolAsync(&counter, &Five, 4, 0,
                                    cudaMemcpyHostToDevice, St),
            cudaSuccess);
  EXPECT_EQ(cudaMemcpyFromSymbolAsync(&Got, &counter, 4, 0,
                                      cudaMemcpyDeviceToHost, St),
            cudaSuccess);
  cudaStreamSynchronize(St);
  EXPECT_EQ(Got, 5);
  cudaStreamDestroy(St);
  // Errors: unknown symbol, out of range, wrong direction.
  EXPECT_EQ(cudaMemcpyToSymbol(&neverRegistered, &Zero, 4, 0,
                               cudaMemcpyHostToDevice),
            cudaErrorInvalidSymbol);
  EXPECT_EQ(cudaMemcpyToSymbol(table, T, 16, 4, cudaMemcpyHostToDevice),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpyToSymbol(table, T, 4, 0, cudaMemcpyDeviceToHost),
            cudaErrorInvalidMemcpyDirection);
  cudaGetLastError();
  cudaFree(DOut);
}

TEST(Symbols, EachTranslationUnitHasItsOwnModule) {
  int Zero = 0, A = 0, B = 0;
  cudaMemcpyToSymbol(&counter, &Zero, 4, 0, cudaMemcpyHostToDevice);
  ASSERT_EQ(cudaMemcpyToSymbol(&counter2, &Zero, 4, 0,
                               cudaMemcpyHostToDevice),
            cudaSuccess);
  ASSERT_EQ(launch(&addToCounter, 1, 1, 0, nullptr, 1), cudaSuccess);
  ASSERT_EQ(launch(&addToCounter2, 1, 1, 0, nullptr, 100), cudaSuccess);
  cudaMemcpyFromSymbol(&A, &counter, 4, 0, cudaMemcpyDeviceToHost);
  cudaMemcpyFromSymbol(&B, &counter2, 4, 0, cudaMemcpyDeviceToHost);
  EXPECT_EQ(A, 1);
  EXPECT_EQ(B, 100);
}

TEST(Printf, CudaFormattingFromKernels) {
  ::testing::internal::CaptureStdout();
  ASSERT_EQ(launch(&printer, 3, 1, 0, nullptr, 42, 2.5), cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::string Out = ::testing::internal::GetCapturedStdout();
  for (int B = 0; B < 3; ++B)
    EXPECT_NE(Out.find("x=42 y=2.50 s=hi id=" + std::to_string(B) + "\n"),
              std::string::npos)
        << Out;
}

TEST(Services, ClockMallocAndGridInfo) {
  unsigned long long *D;
  cudaMallocManaged((void **)&D, 5 * sizeof(unsigned long long));
  ASSERT_EQ(launch(&services, 3, 7, 0, nullptr, D), cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_LE(D[0], D[1]); // clock64 advances
  uint64_t Now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                     std::chrono::system_clock::now().time_since_epoch())
                     .count();
  EXPECT_LE(D[2], Now);
  EXPECT_GT(D[2], Now - 60ull * 1000000000ull); // globaltimer is wall time
  EXPECT_EQ(D[3], 1234u);
  EXPECT_EQ(D[4], 307u);
  cudaFree(D);
}

TEST(Streams, LegacyDefaultStreamOrdering) {
  // A blocking stream's slow kernel, then work on the NULL stream: the NULL
  // stream work must wait for it.
  int *Flag;
  cudaMallocManaged((void **)&Flag, sizeof(int));
  *Flag = 0;
  cudaStream_t St;
  ASSERT_EQ(cudaStreamCreate(&St), cudaSuccess);
  ASSERT_EQ(launch(&slowSet, 1, 1, 0, St, Flag, 1, 150), cudaSuccess);
  int Seen = -1;
  ASSERT_EQ(cudaMemcpy(&Seen, Flag, 4, cudaMemcpyDefault), cudaSuccess);
  EXPECT_EQ(Seen, 1) << "NULL stream did not wait for the blocking stream";
  // A non-blocking stream does not synchronise with the NULL stream.
  cudaStream_t NB;
  ASSERT_EQ(cudaStreamCreateWithFlags(&NB, cudaStreamNonBlocking), cudaSuccess);
  unsigned Flags = 0;
  EXPECT_EQ(cudaStreamGetFlags(NB, &Flags), cudaSuccess);
  EXPECT_EQ(Flags, unsigned(cudaStreamNonBlocking));
  *Flag = 0;
  ASSERT_EQ(launch(&slowSet, 1, 1, 0, NB, Flag, 2, 800), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(&Seen, Flag, 4, cudaMemcpyDefault), cudaSuccess);
  EXPECT_EQ(Seen, 0) << "NULL stream waited for a non-blocking stream";
  EXPECT_EQ(cudaStreamQuery(NB), cudaErrorNotReady);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess); // NotReady is not an error
  ASSERT_EQ(cudaStreamSynchronize(NB), cudaSuccess);
  EXPECT_EQ(cudaStreamQuery(NB), cudaSuccess);
  EXPECT_EQ(*Flag, 2);
  // Work on a blocking stream waits for earlier NULL-stream work.
  *Flag = 0;
  ASSERT_EQ(launch(&slowSet, 1, 1, 0, nullptr, Flag, 3, 150), cudaSuccess);
  int *D;
  cudaMalloc((void **)&D, 4);
  ASSERT_EQ(cudaMemcpyAsync(D, Flag, 4, cudaMemcpyDeviceToDevice, St),
            cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(St), cudaSuccess);
  int Copied = 0;
  cudaMemcpy(&Copied, D, 4, cudaMemcpyDeviceToHost);
  EXPECT_EQ(Copied, 3) << "blocking stream did not wait for the NULL stream";
  EXPECT_EQ(cudaStreamDestroy(St), cudaSuccess);
  EXPECT_EQ(cudaStreamDestroy(NB), cudaSuccess);
  EXPECT_EQ(cudaStreamDestroy(St), cudaErrorInvalidResourceHandle);
  cudaGetLastError();
  cudaFree(D);
  cudaFree(Flag);
}

TEST(Streams, AsyncCopiesOfPageableMemoryReturnWhenTheBufferIsFree) {
  cudaStream_t St;
  cudaStreamCreate(&St);
  int *Flag, *D, *Pinned;
  cudaMallocManaged((void **)&Flag, sizeof(int));
  cudaMalloc((void **)&D, sizeof(int));
  cudaMallocHost((void **)&Pinned, sizeof(int));
  ASSERT_EQ(launch(&slowSet, 1, 1, 0, St, Flag, 1, 100), cudaSuccess);
  {
    int Pageable = 11;
    ASSERT_EQ(cudaMemcpyAsync(D, &Pageable, 4, cudaMemcpyHostToDevice, St),
              cudaSuccess);
    Pageable = 22; // CUDA: the pageable buffer may be reused at once
  }
  int Back = 0;
  ASSERT_EQ(cudaMemcpy(&Back, D, 4, cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(Back, 11);
  // Pinned memory: truly asynchronous (the stream is still busy).
  ASSERT_EQ(launch(&slowSet, 1, 1, 0, St, Flag, 2, 600), cudaSuccess);
  ASSERT_EQ(cudaMemcpyAsync(Pinned, D, 4, cudaMemcpyDeviceToHost, St),
            cudaSuccess);
  EXPECT_EQ(cudaStreamQuery(St), cudaErrorNotReady);
  ASSERT_EQ(cudaStreamSynchronize(St), cudaSuccess);
  EXPECT_EQ(*Pinned, 11);
  cudaStreamDestroy(St);
  cudaFreeHost(Pinned);
  cudaFree(D);
  cudaFree(Flag);
}

TEST(Streams, ManyHostThreadsLaunchConcurrently) {
  std::atomic<int> Bad{0};
  std::vector<std::thread> Threads;
  for (int T = 0; T < 4; ++T)
    Threads.emplace_back([T, &Bad] {
      const int N = 5000;
      std::vector<float> A(N, float(T)), B(N, 1.0f), C(N);
      float *DA, *DB, *DC;
      cudaStream_t St;
      if (cudaStreamCreate(&St) || cudaMalloc((void **)&DA, N * 4) ||
          cudaMalloc((void **)&DB, N * 4) || cudaMalloc((void **)&DC, N * 4)) {
        ++Bad;
        return;
      }
      cudaMemcpyAsync(DA, A.data(), N * 4, cudaMemcpyHostToDevice, St);
      cudaMemcpyAsync(DB, B.data(), N * 4, cudaMemcpyHostToDevice, St);
      for (int I = 0; I < 30; ++I) {
        if (launch(&vecAdd, (N + 127) / 128, 128, 0, St, DA, DB, DC, N))
          ++Bad;
        if (launch(&vecAdd, (N + 127) / 128, 128, 0, St, DC, DB, DA, N))
          ++Bad;
      }
      cudaMemcpyAsync(C.data(), DA, N * 4, cudaMemcpyDeviceToHost, St);
      if (cudaStreamSynchronize(St) != cudaSuccess)
        ++Bad;
      for (int I = 0; I < N; ++I)
        if (C[I] != float(T) + 60.0f)
          ++Bad;
      // Errors are per thread.
      if (T == 0)
        cudaSetDevice(99);
      if (cudaGetLastError() != (T == 0 ? cudaErrorInvalidDevice : cudaSuccess))
        ++Bad;
      cudaStreamDestroy(St);
      cudaFree(DA);
      cudaFree(DB);
      cudaFree(DC);
    });
  for (std::thread &Th : Threads)
    Th.join();
  EXPECT_EQ(Bad.load(), 0);
}

TEST(Streams, HostCallbacksRunInOrder) {
  cudaStream_t St;
  cudaStreamCreate(&St);
  static std::vector<int> Order;
  static int *Flag;
  Order.clear();
  cudaMallocManaged((void **)&Flag, sizeof(int));
  *Flag = 0;
  ASSERT_EQ(launch(&slowSet, 1, 1, 0, St, Flag, 5, 100), cudaSuccess);
  ASSERT_EQ(cudaLaunchHostFunc(
                St, [](void *) { Order.push_back(*Flag); }, nullptr),
            cudaSuccess);
  ASSERT_EQ(cudaStreamAddCallback(
                St,
                [](cudaStream_t, cudaError_t E, void *U) {
                  Order.push_back(E == cudaSuccess ? *static_cast<int *>(U)
                                                   : -1);
                },
                new int(9), 0),
            cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(St), cudaSuccess);
  ASSERT_EQ(Order.size(), 2u);
  EXPECT_EQ(Order[0], 5); // ran after the kernel
  EXPECT_EQ(Order[1], 9);
  EXPECT_EQ(cudaLaunchHostFunc(St, nullptr, nullptr), cudaErrorInvalidValue);
  cudaGetLastError();
  cudaStreamDestroy(St);
  cudaFree(Flag);
}

TEST(Events, RecordSynchronizeQueryElapsed) {
  cudaEvent_t Start, Stop, NoTiming;
  ASSERT_EQ(cudaEventCreate(&Start), cudaSuccess);
  ASSERT_EQ(cudaEventCreateWithFlags(&Stop, cudaEventBlockingSync),
            cudaSuccess);
  ASSERT_EQ(cudaEventCreateWithFlags(&NoTiming, cudaEventDisableTiming),
            cudaSuccess);
  EXPECT_EQ(cudaEventQuery(Start), cudaSuccess); // never recorded
  int *Flag;
  cudaMallocManaged((void **)&Flag, sizeof(int));
  cudaStream_t St;
  cudaStreamCreate(&St);
  ASSERT_EQ(cudaEventRecord(Start, St), cudaSuccess);
  ASSERT_EQ(launch(&slowSet, 1, 1, 0, St, Flag, 1, 400), cudaSuccess);
  ASSERT_EQ(cudaEventRecord(Stop, St), cudaSuccess);
  ASSERT_EQ(cudaEventRecord(NoTiming, St), cudaSuccess);
  EXPECT_EQ(cudaEventQuery(Stop), cudaErrorNotReady);
  float Ms = 0;
  EXPECT_EQ(cudaEventElapsedTime(&Ms, Start, Stop), cudaErrorNotReady);
  ASSERT_EQ(cudaEventSynchronize(Stop), cudaSuccess);
  EXPECT_EQ(cudaEventQuery(Stop), cudaSuccess);
  ASSERT_EQ(cudaEventElapsedTime(&Ms, Start, Stop), cudaSuccess);
  EXPECT_GE(Ms, 350.0f);
  EXPECT_LT(Ms, 5000.0f);
  cudaEventSynchronize(NoTiming);
  EXPECT_EQ(cudaEventElapsedTime(&Ms, Start, NoTiming),
            cudaErrorInvalidResourceHandle);
  cudaGetLastError();
  // Another stream waits for an event of the first.
  cudaStream_t Other;
  cudaStreamCreateWithFlags(&Other, cudaStreamNonBlocking);
  *Flag = 0;
  ASSERT_EQ(launch(&slowSet, 1, 1, 0, St, Flag, 8, 150), cudaSuccess);
  ASSERT_EQ(cudaEventRecord(Stop, St), cudaSuccess);
  ASSERT_EQ(cudaStreamWaitEvent(Other, Stop, 0), cudaSuccess);
  int *D;
  cudaMalloc((void **)&D, 4);
  ASSERT_EQ(cudaMemcpyAsync(D, Flag, 4, cudaMemcpyDeviceToDevice, Other),
            cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(Other), cudaSuccess);
  int Copied = 0;
  cudaMemcpy(&Copied, D, 4, cudaMemcpyDeviceToHost);
  EXPECT_EQ(Copied, 8);
  EXPECT_EQ(cudaEventDestroy(Start), cudaSuccess);
  EXPECT_EQ(cudaEventDestroy(Start), cudaErrorInvalidResourceHandle);
  cudaGetLastError();
  cudaEventDestroy(Stop);
  cudaEventDestroy(NoTiming);
  cudaStreamDestroy(St);
  cudaStreamDestroy(Other);
  cudaFree(D);
  cudaFree(Flag);
}

TEST(FuncAttributes, AttributesAndOccupancy) {
  cudaFuncAttributes A;
  ASSERT_EQ(cudaFuncGetAttributes(&A, &blockSum), cudaSuccess);
  EXPECT_EQ(A.sharedSizeBytes, 4096u);
  EXPECT_EQ(A.maxThreadsPerBlock, 1024);
  ASSERT_EQ(cudaFuncGetAttributes(&A, &bounded), cudaSuccess);
  EXPECT_EQ(A.maxThreadsPerBlock, 64);
  EXPECT_EQ(cudaFuncGetAttributes(&A, &neverRegistered),
            cudaErrorInvalidResourceHandle); // CUDA 13
  cudaGetLastError();
  // Opt in to more dynamic shared memory.
  EXPECT_EQ(launch(&dynShared, 1, 32, 64 * 1024, nullptr, nullptr),
            cudaErrorInvalidValue);
  cudaGetLastError();
  ASSERT_EQ(cudaFuncSetAttribute(&dynShared,
                                 cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 100 * 1024),
            cudaSuccess);
  ASSERT_EQ(cudaFuncGetAttributes(&A, &dynShared), cudaSuccess);
  EXPECT_EQ(A.maxDynamicSharedSizeBytes, 100 * 1024);
  int *D;
  cudaMalloc((void **)&D, 32 * 4);
  EXPECT_EQ(launch(&dynShared, 1, 32, 64 * 1024, nullptr, D), cudaSuccess);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  cudaFree(D);
  EXPECT_EQ(cudaFuncSetAttribute(&dynShared,
                                 cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 10 << 20),
            cudaErrorInvalidValue);
  cudaGetLastError();
  int Blocks = 0;
  ASSERT_EQ(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&Blocks, &vecAdd,
                                                          256, 0),
            cudaSuccess);
  EXPECT_EQ(Blocks, 8); // 2048 threads per multiprocessor
  ASSERT_EQ(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&Blocks, &blockSum,
                                                          32, 0),
            cudaSuccess);
  EXPECT_EQ(Blocks, 32); // limited by blocks per multiprocessor
  ASSERT_EQ(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&Blocks, &bounded,
                                                          128, 0),
            cudaSuccess);
  EXPECT_EQ(Blocks, 0);
  int MinGrid = 0, BlockSize = 0;
  ASSERT_EQ(__hetgpuOccupancyMaxPotentialBlockSize(&MinGrid, &BlockSize,
                                                   &bounded, 0, 0),
            cudaSuccess);
  EXPECT_EQ(BlockSize, 64);
  EXPECT_GT(MinGrid, 0);
}

// Sticky errors last: each test ends with cudaDeviceReset.
TEST(StickyErrors, DeviceAssert) {
  int *D;
  ASSERT_EQ(cudaMalloc((void **)&D, 4 * sizeof(int)), cudaSuccess);
  ::testing::internal::CaptureStderr();
  ASSERT_EQ(launch(&asserter, 4, 1, 0, nullptr, D), cudaSuccess);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorAssert);
  std::string Err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(Err.find("kernels.cu:42: void asserter(int *): block: [1,0,0], "
                     "thread: "),
            std::string::npos)
      << Err;
  EXPECT_NE(Err.find("Assertion `blockIdx.x != 1` failed."), std::string::npos)
      << Err;
  // Sticky: every later call that touches the device fails the same way;
  // cudaGetLastError clears the last error like any other (CUDA 13).
  EXPECT_EQ(cudaGetLastError(), cudaErrorAssert);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  int *E;
  EXPECT_EQ(cudaMalloc((void **)&E, 4), cudaErrorAssert);
  EXPECT_EQ(launch(&vecAdd, 1, 1, 0, nullptr, D, D, D, 0), cudaErrorAssert);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorAssert);
  // Reset clears it (the thread's last error stays set, as in CUDA 13).
  EXPECT_EQ(cudaDeviceReset(), cudaSuccess);
  EXPECT_EQ(cudaGetLastError(), cudaErrorAssert);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_EQ(cudaMalloc((void **)&E, 4), cudaSuccess);
  EXPECT_EQ(cudaFree(E), cudaSuccess);
  EXPECT_EQ(cudaFree(D), cudaErrorInvalidValue) << "reset frees allocations";
  cudaGetLastError();
}

TEST(StickyErrors, TrapIsLaunchFailure) {
  ASSERT_EQ(launch(&trapper, 8, 32, 0, nullptr), cudaSuccess);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
  EXPECT_EQ(cudaPeekAtLastError(), cudaErrorLaunchFailure);
  int X = 0;
  EXPECT_EQ(cudaMemcpy(&X, &X, 4, cudaMemcpyHostToHost),
            cudaErrorLaunchFailure);
  EXPECT_EQ(cudaDeviceReset(), cudaSuccess);
  // The module is loaded again after the reset.
  int *D;
  ASSERT_EQ(cudaMalloc((void **)&D, 4), cudaSuccess);
  ASSERT_EQ(launch(&asserter, 1, 1, 0, nullptr, D), cudaSuccess);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  int V = 0;
  cudaMemcpy(&V, D, 4, cudaMemcpyDeviceToHost);
  EXPECT_EQ(V, 1);
  cudaFree(D);
}

TEST(StickyErrors, HardwareFaultsEndTheLaunch) {
  // A store through NULL is cudaErrorIllegalAddress, an arithmetic trap and
  // an undefined instruction cudaErrorLaunchFailure; the process lives and
  // the error is sticky until the reset (Backends/CPU/FaultGuard.h).
  const cudaError_t Want[] = {cudaErrorIllegalAddress, cudaErrorLaunchFailure,
                              cudaErrorLaunchFailure};
  for (int How = 0; How < 3; ++How) {
    ASSERT_EQ(launch(&faulter, 4, 1, 0, nullptr, How), cudaSuccess);
    EXPECT_EQ(cudaDeviceSynchronize(), Want[How]) << "fault " << How;
    int *D;
    EXPECT_EQ(cudaMalloc((void **)&D, 4), Want[How]);
    EXPECT_EQ(cudaDeviceReset(), cudaSuccess);
  }
  int *D;
  ASSERT_EQ(cudaMalloc((void **)&D, 4), cudaSuccess);
  ASSERT_EQ(launch(&asserter, 1, 1, 0, nullptr, D), cudaSuccess);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  cudaFree(D);
}

TEST(StickyErrors, FaultOnAStreamIsSeenByEveryStream) {
  cudaStream_t St;
  ASSERT_EQ(cudaStreamCreateWithFlags(&St, cudaStreamNonBlocking), cudaSuccess);
  cudaEvent_t Ev;
  ASSERT_EQ(cudaEventCreate(&Ev), cudaSuccess);
  ASSERT_EQ(launch(&trapper, 2, 2, 0, St), cudaSuccess);
  ASSERT_EQ(cudaEventRecord(Ev, St), cudaSuccess);
  ASSERT_EQ(cudaEventSynchronize(Ev), cudaSuccess); // the fault is done
  int X = 1, Y = 0;
  // A synchronous copy on the NULL stream (not ordered after the
  // non-blocking stream) still reports the device's fault.
  EXPECT_EQ(cudaMemcpy(&Y, &X, 4, cudaMemcpyHostToHost),
            cudaErrorLaunchFailure);
  EXPECT_EQ(cudaStreamQuery(St), cudaErrorLaunchFailure);
  // Destroying the event right after a wait on it is safe.
  cudaEventDestroy(Ev);
  EXPECT_EQ(cudaDeviceReset(), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(&Y, &X, 4, cudaMemcpyHostToHost), cudaSuccess);
  EXPECT_EQ(Y, 1);
}

TEST(Streams, DestroyEventRightAfterStreamWait) {
  cudaStream_t A, B;
  cudaStreamCreate(&A);
  cudaStreamCreate(&B);
  int *Flag;
  cudaMallocManaged((void **)&Flag, sizeof(int));
  *Flag = 0;
  for (int I = 0; I < 20; ++I) {
    cudaEvent_t E;
    ASSERT_EQ(cudaEventCreateWithFlags(&E, cudaEventDisableTiming),
              cudaSuccess);
    ASSERT_EQ(launch(&slowSet, 1, 1, 0, A, Flag, I, 1), cudaSuccess);
    ASSERT_EQ(cudaEventRecord(E, A), cudaSuccess);
    ASSERT_EQ(cudaStreamWaitEvent(B, E, 0), cudaSuccess);
    ASSERT_EQ(cudaEventDestroy(E), cudaSuccess);
  }
  ASSERT_EQ(cudaStreamSynchronize(B), cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(*Flag, 19);
  cudaStreamDestroy(A);
  cudaStreamDestroy(B);
  cudaFree(Flag);
}

} // namespace
