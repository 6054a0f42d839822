// bench/jit/ocl_first.cpp - jit_bench.cu's 128 kernels in OpenCL C on the
// first OpenCL platform (PoCL in bench/jit/run.py): the same program steps
// and output lines (INIT, SETUP, FIRST, ALL, WARM, RESULT), with FIRST
// holding clCreateProgramWithSource + clBuildProgram + the first launch,
// as an OpenCL program pays them on its first run.
// SPDX-License-Identifier: Apache-2.0
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using Clock = std::chrono::steady_clock;
constexpr int NumKernels = 128;

static double msSince(Clock::time_point T) {
  return std::chrono::duration<double, std::milli>(Clock::now() - T).count();
}

static float busyWork(double Ms) {
  auto T0 = Clock::now();
  float Acc = 0;
  while (msSince(T0) < Ms)
    for (int I = 0; I < 10000; ++I)
      Acc += std::sqrt(float(I) + Acc * 1e-9f);
  return Acc;
}

static std::string source() {
  std::string S;
  for (int K = 0; K < NumKernels; ++K) {
    std::string Ks = std::to_string(K);
    S += "__kernel void step" + Ks +
         "(__global float *X, int N) {\n"
         "  int I = get_global_id(0);\n"
         "  if (I >= N) return;\n"
         "  float V = X[I];\n"
         "  for (int R = 0; R < " + std::to_string(K % 5 + 1) +
         "; ++R)\n"
         "    V = fma(V, 0.5f, sin(V * " + std::to_string(K + 1) +
         " * 0.001f));\n"
         "  X[I] = V;\n}\n";
  }
  return S;
}

#define CK(X)                                                                  \
  do {                                                                         \
    cl_int E_ = (X);                                                           \
    if (E_ != CL_SUCCESS) {                                                    \
      std::fprintf(stderr, "%s: %d\n", #X, E_);                                \
      return 1;                                                                \
    }                                                                          \
  } while (0)

int main(int argc, char **argv) {
  double SetupMs = argc > 1 ? std::atof(argv[1]) : 0;
  const int N = 1 << 16;
  auto T0 = Clock::now();
  cl_platform_id P;
  cl_device_id D;
  CK(clGetPlatformIDs(1, &P, nullptr));
  CK(clGetDeviceIDs(P, CL_DEVICE_TYPE_ALL, 1, &D, nullptr));
  cl_int E;
  cl_context Ctx = clCreateContext(nullptr, 1, &D, nullptr, nullptr, &E);
  CK(E);
  cl_command_queue Q = clCreateCommandQueue(Ctx, D, 0, &E);
  CK(E);
  std::printf("INIT %.3f\n", msSince(T0));
  T0 = Clock::now();
  std::vector<float> H(N);
  for (int I = 0; I < N; ++I)
    H[I] = float(I % 97) * 0.01f;
  cl_mem X = clCreateBuffer(Ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                            N * sizeof(float), H.data(), &E);
  CK(E);
  float Sink = busyWork(SetupMs);
  std::printf("SETUP %.3f\n", msSince(T0));
  size_t Global = (N + 255) / 256 * 256, Local = 256;
  T0 = Clock::now();
  std::string Src = source();
  const char *SrcP = Src.c_str();
  cl_program Prog = clCreateProgramWithSource(Ctx, 1, &SrcP, nullptr, &E);
  CK(E);
  CK(clBuildProgram(Prog, 1, &D, "", nullptr, nullptr));
  std::vector<cl_kernel> Ks(NumKernels);
  auto Launch = [&](int K) -> cl_int {
    if (!Ks[K]) {
      cl_int E2;
      Ks[K] = clCreateKernel(Prog, ("step" + std::to_string(K)).c_str(), &E2);
      if (E2 != CL_SUCCESS)
        return E2;
      clSetKernelArg(Ks[K], 0, sizeof(cl_mem), &X);
      clSetKernelArg(Ks[K], 1, sizeof(int), &N);
    }
    return clEnqueueNDRangeKernel(Q, Ks[K], 1, nullptr, &Global, &Local, 0,
                                  nullptr, nullptr);
  };
  CK(Launch(0));
  CK(clFinish(Q));
  std::printf("FIRST %.3f\n", msSince(T0));
  T0 = Clock::now();
  for (int K = 1; K < NumKernels; ++K)
    CK(Launch(K));
  CK(clFinish(Q));
  std::printf("ALL %.3f\n", msSince(T0));
  const int Reps = 200;
  T0 = Clock::now();
  for (int I = 0; I < Reps; ++I) {
    CK(Launch(5));
    CK(clFinish(Q));
  }
  std::printf("WARM %.3f\n", msSince(T0) * 1000 / Reps);
  std::vector<float> Out(N);
  CK(clEnqueueReadBuffer(Q, X, CL_TRUE, 0, N * sizeof(float), Out.data(), 0,
                         nullptr, nullptr));
  bool Ok = true;
  for (int I = 0; I < N; ++I)
    Ok &= std::isfinite(Out[I]);
  std::printf("RESULT %s %g\n", Ok ? "ok" : "bad",
              double(Out[N / 3]) + Sink * 0);
  return Ok ? 0 : 1;
}
