// C++ in kernels: templates, lambdas (including extended __device__ ones),
// structs by value as kernel arguments, functors, constexpr, and the C++
// standard headers (<cmath>, <cstdlib>, <algorithm>, <complex>, <limits>,
// <array>, <utility>, <type_traits>) on the device side.
// RUN: %clangxx %cuda_device -std=c++17 -O3 -emit-llvm -S %s -o - \
// RUN:   | FileCheck %s --implicit-check-not=llvm.nvvm --implicit-check-not=asm \
// RUN:       --implicit-check-not="@__muldc3(" --implicit-check-not="@cabs"
// RUN: %clangxx %cuda_host -std=c++17 -fsyntax-only %s
// RUN: %clangxx %cuda_device -std=c++20 -fsyntax-only %s
#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <cstdlib>
#include <limits>
#include <type_traits>
#include <utility>

struct Params {
  float scale;
  int n;
  double bias[3];
};

// A struct by value: the kernel takes it as a byval aggregate.
// CHECK-LABEL: define {{.*}} @_Z{{[0-9]+}}byvalPf6Params(ptr {{.*}}, ptr {{.*}}byval(%struct.Params) align 8
// CHECK: ret void
__global__ void byval(float *out, Params p) {
  out[threadIdx.x] = p.scale * p.n + (float)p.bias[2];
}

template <typename T, int N> struct Vec {
  T v[N];
  __host__ __device__ constexpr T sum() const {
    T s = 0;
    for (int i = 0; i < N; ++i)
      s += v[i];
    return s;
  }
};

// Templates, template structs by value and a functor argument.
template <typename T, int N, typename F>
__global__ void apply(T *out, Vec<T, N> vec, F f) {
  out[threadIdx.x] = f(vec.sum());
}
struct Twice {
  __device__ float operator()(float x) const { return 2 * x; }
};
// CHECK-LABEL: define {{.*}} @_Z5applyIfLi4E5TwiceEvPT_3VecIS1_XT0_EET1_(
// CHECK: fmul {{.*}}float {{.*}}2.000000e+00
template __global__ void apply<float, 4, Twice>(float *, Vec<float, 4>, Twice);

// Lambdas in a kernel, capturing by value; constexpr evaluation.
// CHECK-LABEL: define {{.*}} @_Z{{[0-9]+}}lambdasPii(
// CHECK: call {{.*}}@__hetgpu_tid_x()
// CHECK: ret void
__global__ void lambdas(int *out, int k) {
  auto addk = [=](int x) { return x + k; };
  auto sq = [](auto x) { return x * x; };
  constexpr Vec<int, 3> c{{1, 2, 3}};
  static_assert(c.sum() == 6, "constexpr on device");
  out[threadIdx.x] = sq(addk(out[threadIdx.x])) + c.sum();
}

// The standard library on the device side.
// CHECK-LABEL: define {{.*}} @_Z{{[0-9]+}}stdlibPfPdPiPSt7complexIfE(
// CHECK-DAG: call {{.*}}float @llvm.sqrt.f32(
// CHECK-DAG: call {{.*}}float @__hetgpu_math_hypotf(
// CHECK-DAG: call {{.*}}float @__hetgpu_math_powf(
// CHECK-DAG: call {{.*}}float @__hetgpu_math_expf(
// CHECK: ret void
__global__ void stdlib(float *f, double *d, int *i, std::complex<float> *c) {
  using namespace std;
  float x = f[0];
  f[1] = sqrt(x) + abs(x) + max(x, 2.0f) + std::min(x, 1.0f) +
         numeric_limits<float>::epsilon() + std::hypot(x, x) +
         std::pow(x, 2.5f) + std::exp(x);
  std::array<int, 3> arr{i[0], i[1], 3};
  auto p = std::make_pair(arr[0], arr[2]);
  i[2] = std::min({i[0], i[1], 7}) + p.second + std::clamp(i[0], 0, 10) +
         std::abs(i[1]) + std::is_same<decltype(p.first), int>::value;
  // Complex arithmetic uses the headers' device __mulsc3/__divsc3.
  c[2] = c[0] * c[1] + c[0] / c[1];
  d[0] = std::norm(std::complex<double>(d[1], d[2]));
}
