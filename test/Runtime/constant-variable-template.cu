// A variable template in constant memory (`template <class T> __constant__
// T mask[N]`): its instances are linkonce_odr in hetIR; the host target
// exports them as protected definitions of the module's shared object (the
// CPU device failed to load the module: "relocation R_X86_64_PC32 cannot be
// used against symbol 'mask<double>'"). Both instances are written with
// cudaMemcpyToSymbol, read by two kernel instances, and the default stream
// reports the launches' errors.
// REQUIRES: built-target-host
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_DEVICE=cpu %t | FileCheck %s
// RUN: %if pocl %{ env HETGPU_DEVICE=opencl %t | FileCheck %s %}
// CHECK: launch no error, sync no error
// CHECK-NEXT: double 0 2 6 12 4 10 18 28
// CHECK-NEXT: float 0 6 14 24 20 30 42 56
#include <cstdio>

template <typename T> __constant__ T mask[4];

template <typename T> __global__ void apply(const T *in, T *out) {
  int i = threadIdx.x;
  out[i] = in[i] * mask<T>[i % 4];
}

template <typename T> static void run(const char *name, const T (&m)[4]) {
  cudaMemcpyToSymbol(mask<T>, m, sizeof m);
  T h[8];
  for (int i = 0; i < 8; ++i)
    h[i] = T(i);
  T *in, *out;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, sizeof h);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  apply<<<1, 8>>>(in, out);
  cudaError_t l = cudaGetLastError();
  cudaError_t s = cudaDeviceSynchronize();
  if (name[0] == 'd')
    std::printf("launch %s, sync %s\n", cudaGetErrorString(l),
                cudaGetErrorString(s));
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  std::printf("%s", name);
  for (T v : h)
    std::printf(" %g", double(v));
  std::printf("\n");
  cudaFree(in);
  cudaFree(out);
}

int main() {
  const double dm[4] = {1, 2, 3, 4};
  const float fm[4] = {5, 6, 7, 8};
  run("double", dm);
  run("float", fm);
  return 0;
}
