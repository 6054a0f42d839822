// Device <math.h>/<cmath> overload sets follow C++'s arithmetic promotion
// (llvm-test-suite math_h.cu needs it): integral or mixed float/double
// arguments compute in double, float-only arguments stay float, CUDA's own
// pow(float, int) stays float. The integral templates of libstdc++'s <cmath>
// (scalbn, ldexp, frexp, ...) must not win in device code: they call the
// host libm and the hetIR verifier rejects the module.
// RUN: rm -rf %t && mkdir -p %t
// RUN: hetgpu-cc -std=c++17 %s -o %t/promo
// RUN: env HETGPU_DEVICE=cpu %t/promo | FileCheck %s
// An integral remquo must not silently become the float overload: the
// negative twin asserts float, which must fail to compile.
// RUN: not hetgpu-cc -std=c++17 -DWRONG_TYPE -c %s -o %t/wrong.o 2>&1 \
// RUN:   | FileCheck %s --check-prefix=WRONG
// WRONG: static assertion failed{{.*}}remquo
// std::abs(unsigned) is ambiguous in C++ and stays so on the device.
// RUN: not hetgpu-cc -std=c++17 -DABS_UNSIGNED -c %s -o %t/abs.o 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ABS
// ABS: error: call to 'abs' is ambiguous
// CHECK: remquo 1 q 3
// CHECK: scalbn 12 scalbln 40 ldexp 20
// CHECK: frexp 0.75 e 3 modf 0.5 2.0
// CHECK: fma 7 pow 8.0 fmod 1
#include <cmath>
#include <cstdio>
#include <type_traits>
#define SAME(E, T) static_assert(std::is_same<decltype(E), T>::value, #E)
template <typename A, typename B> struct P { typedef double type; };
template <> struct P<float, float> { typedef float type; };
template <typename T> struct P1 { typedef double type; };
template <> struct P1<float> { typedef float type; };
#define ONE(F) SAME(F(A()), typename P1<A>::type); SAME(std::F(A()), typename P1<A>::type);
#define TWO(F) SAME(F(A(), B()), R2); SAME(std::F(A(), B()), R2);
template <typename A, typename B> __device__ void t2() {
  int ip; typedef typename P<A, B>::type R2;
  TWO(atan2) TWO(copysign) TWO(fdim) TWO(fmax) TWO(fmin) TWO(fmod) TWO(hypot)
  TWO(nextafter) TWO(remainder)
  typedef typename std::conditional<std::is_same<A, float>::value && std::is_same<B, int>::value, float, R2>::type PR; SAME(pow(A(), B()), PR); SAME(std::pow(A(), B()), PR);
  SAME(remquo(A(), B(), &ip), R2);
  SAME(std::remquo(A(), B(), &ip), R2);
  SAME(fma(A(), B(), B()), R2);
  SAME(std::fma(A(), A(), B()), R2);
  SAME(fma(B(), A(), B()), R2);
  SAME(std::fma(B(), A(), A()), R2);
  SAME(isgreater(A(), B()), bool); SAME(std::isless(A(), B()), bool);
  SAME(isunordered(A(), B()), bool); SAME(std::islessgreater(A(), B()), bool);
}
template <typename A> __device__ void t1() {
  int e; 
  ONE(acos) ONE(acosh) ONE(asin) ONE(asinh) ONE(atan) ONE(atanh) ONE(cbrt) ONE(ceil) ONE(cos) ONE(cosh)
  ONE(erf) ONE(erfc) ONE(exp) ONE(exp2) ONE(expm1) ONE(fabs) ONE(floor) ONE(lgamma) ONE(log) ONE(log10)
  ONE(log1p) ONE(log2) ONE(logb) ONE(nearbyint) ONE(rint) ONE(round) ONE(sin) ONE(sinh) ONE(sqrt) ONE(tan)
  ONE(tanh) ONE(tgamma) ONE(trunc)
  SAME(ilogb(A()), int); SAME(std::ilogb(A()), int);
  SAME(lrint(A()), long); SAME(std::llround(A()), long long);
  SAME(ldexp(A(), 1), typename P1<A>::type); SAME(std::ldexp(A(), 1), typename P1<A>::type);
  SAME(scalbn(A(), 1), typename P1<A>::type); SAME(std::scalbln(A(), 1L), typename P1<A>::type);
  SAME(frexp(A(), &e), typename P1<A>::type); SAME(std::frexp(A(), &e), typename P1<A>::type);
  SAME(isnan(A()), bool); SAME(std::isinf(A()), bool); SAME(std::isfinite(A()), bool);
  SAME(std::signbit(A()), bool); SAME(std::isnormal(A()), bool); SAME(fpclassify(A()), int);
  SAME(std::fpclassify(A()), int);
  typedef typename std::conditional<std::is_integral<A>::value && (sizeof(A) < sizeof(int)), int, A>::type AR; if constexpr (!std::is_unsigned<A>::value) { SAME(std::abs(A()), AR); }
  t2<A, bool>(); t2<A, short>(); t2<A, int>(); t2<A, unsigned>(); t2<A, long>();
  t2<A, long long>(); t2<A, unsigned long long>(); t2<A, float>(); t2<A, double>();
}
__device__ void all() {
  t1<bool>(); t1<short>(); t1<int>(); t1<unsigned>(); t1<long>(); t1<unsigned long long>();
  t1<float>(); t1<double>();
}
__device__ void mf(float f, double d) {
  float fi; double di;
  SAME(std::modf(f, &fi), float); SAME(std::modf(d, &di), double);
  SAME(modf(f, &fi), float); SAME(modf(d, &di), double);
}

#ifdef WRONG_TYPE
__device__ void wrong() {
  int q;
  static_assert(std::is_same<decltype(remquo(7, 2.f, &q)), float>::value,
                "remquo");
}
#endif
#ifdef ABS_UNSIGNED
__device__ unsigned bad(unsigned u) { return std::abs(u); }
#endif

__global__ void values(double *o, int *q) {
  int a = 10, b = 3, e;
  o[0] = remquo(a, (float)b, q);     // 10 - 3*3 = 1, quotient 3
  o[1] = std::scalbn(a + 2, 0);      // 12
  o[2] = std::scalbln(5, 3L);        // 40
  o[3] = ldexp(a / 2, 2);            // 20
  o[4] = std::frexp(b + 3, &e);      // 6 = 0.75 * 2^3
  q[1] = e;
  double ip;
  o[5] = std::modf(2.5, &ip);
  o[6] = ip;
  o[7] = std::fma(a / 5, b, 1.0f);   // 2*3+1
  o[8] = pow(2.f, b);                // float overload, 8
  o[9] = std::fmod(a, b);
}

int main() {
  double *o;
  int *q;
  cudaMallocManaged(&o, 16 * sizeof(double));
  cudaMallocManaged(&q, 4 * sizeof(int));
  values<<<1, 1>>>(o, q);
  cudaDeviceSynchronize();
  std::printf("remquo %g q %d\n", o[0], q[0]);
  std::printf("scalbn %g scalbln %g ldexp %g\n", o[1], o[2], o[3]);
  std::printf("frexp %g e %d modf %g %.1f\n", o[4], q[1], o[5], o[6]);
  std::printf("fma %g pow %.1f fmod %g\n", o[7], o[8], o[9]);
  return 0;
}
