// The math library's rare paths on the CPU device come from the prebuilt
// host math object (runtime/device/math, HostMathObject.inc), linked into
// the kernel module instead of compiled in each translation: float
// functions whose argument the fast path cannot take (huge trigonometric
// arguments, special values) reach the double functions out of line.
// Results against the host's libm evaluated in double: within CUDA's ulp
// bounds, and exact special values.
// REQUIRES: built-target-host
// RUN: hetgpu-cc -O2 %s -o %t
// RUN: env HETGPU_DEVICE=cpu HETGPU_CACHE_DIR=%t.cache %t | FileCheck %s
// CHECK: rare paths: 0 outside the bounds of 32
//
// The translated module calls them hidden (nothing exported but the block
// functions and the ABI version) and does not compile the double code
// itself: __hetgpu_math_sin, the double sine, is not a function of kernels.o.
// RUN: hetgpu-objdump --extract=0 %t -o %t.bc
// RUN: hetgpu-translate --target=host %t.bc -o %t.so
// RUN: llvm-nm -D --defined-only %t.so | FileCheck --check-prefix=DYN %s
// DYN-NOT: __hetgpu_math
// RUN: llvm-readelf -sW %t.so | FileCheck --check-prefix=SYMS %s
// SYMS-DAG: FUNC LOCAL HIDDEN {{.*}} __hetgpu_mathc_sin
// SYMS-DAG: FUNC LOCAL HIDDEN {{.*}} __hetgpu_mathc_payne_hanek
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

__global__ void rare(const float *x, const float *y, float *out) {
  int i = threadIdx.x;
  float a = x[i], b = y[i];
  out[8 * i + 0] = sinf(a);
  out[8 * i + 1] = cosf(a);
  out[8 * i + 2] = tanf(a);
  out[8 * i + 3] = powf(a, b);
  out[8 * i + 4] = atan2f(a, b);
  out[8 * i + 5] = asinhf(a);
  out[8 * i + 6] = acoshf(a);
  out[8 * i + 7] = atanhf(b);
}

static int32_t ordered(float f) {
  int32_t i;
  std::memcpy(&i, &f, 4);
  return i < 0 ? INT32_MIN - i : i;
}

static bool close(float got, double want, int ulps) {
  float w = (float)want;
  if (std::isnan(w))
    return std::isnan(got);
  if (std::isinf(w) || w == 0)
    return got == w && std::signbit(got) == std::signbit(w);
  long d = (long)ordered(got) - (long)ordered(w);
  return (d < 0 ? -d : d) <= ulps;
}

int main() {
  // Huge, infinite and NaN arguments; negative bases; y of 0; the pole.
  const float x[4] = {1.0e10f, 3.0e38f, -INFINITY, -2.0f};
  const float y[4] = {0.0f, -1.0f, 0.5f, 3.0f};
  float *dx, *dy, *dout, out[32];
  cudaMalloc(&dx, sizeof x);
  cudaMalloc(&dy, sizeof y);
  cudaMalloc(&dout, sizeof out);
  cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y, sizeof y, cudaMemcpyHostToDevice);
  rare<<<1, 4>>>(dx, dy, dout);
  if (cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost)) {
    printf("launch failed\n");
    return 1;
  }
  int bad = 0;
  for (int i = 0; i < 4; ++i) {
    double a = x[i], b = y[i];
    double want[8] = {sin(a),   cos(a),   tan(a),   pow(a, b),
                      atan2(a, b), asinh(a), acosh(a), atanh(b)};
    const int bound[8] = {2, 2, 4, 8, 3, 3, 4, 3};
    for (int k = 0; k < 8; ++k)
      if (!close(out[8 * i + k], want[k], bound[k])) {
        printf("function %d of x=%g y=%g: %.9g, libm %.9g\n", k, x[i], y[i],
               out[8 * i + k], want[k]);
        ++bad;
      }
  }
  printf("rare paths: %d outside the bounds of 32\n", bad);
  return 0;
}
