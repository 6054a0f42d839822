// Every device API of the headers used at once, at -O0 and -O3: the module
// declares nothing but hetIR builtins (__hetgpu_*), vprintf (mapped by
// hetgpu-raise) and the portable LLVM intrinsics of docs/hetIR.md. No nvvm
// intrinsic, no inline assembly, no host libm/libc call.
// RUN: %clangxx %cuda_device -O0 -emit-llvm -S %s -o %t.O0.ll
// RUN: %clangxx %cuda_device -O3 -emit-llvm -S %s -o %t.O3.ll
// RUN: not grep -E "llvm\.nvvm|\basm\b" %t.O0.ll %t.O3.ll
// RUN: grep "^declare" %t.O0.ll %t.O3.ll | sed -e 's/(.*//' \
// RUN:   | sed -E -e '/@__hetgpu_[a-z0-9_]+$|@vprintf$/d' \
// RUN:   | sed -E -e '/@llvm\.(memcpy|memmove|memset|lifetime|assume|expect|sqrt|fabs|floor|ceil|trunc|round|roundeven|rint|nearbyint|fma|fmuladd|minnum|maxnum|minimum|maximum|copysign|ldexp|frexp|ctpop|ctlz|cttz|bitreverse|bswap|fshl|fshr|abs|smin|smax|umin|umax|is\.fpclass|lround|llround|lrint|llrint|stacksave|stackrestore|[us](add|sub|mul)\.with\.overflow)\./d' \
// RUN:   | count 0
// The builtins used are all in the table (include/hetgpu/IR/Builtins.def).
// RUN: grep -o -h "@__hetgpu_[a-z0-9_]*" %t.O0.ll %t.O3.ll | sort -u | sed 's/@__hetgpu_//' > %t.used
// RUN: grep -o -h -E "^HETGPU_(BUILTIN|MATH_FD)\([a-z0-9_]+" %hetgpu_src/include/hetgpu/IR/Builtins.def \
// RUN:   | sed -E 's/^HETGPU_BUILTIN\(//; s/^HETGPU_MATH_FD\((.*)/math_\1\nmath_\1f/' | sort -u > %t.table
// RUN: comm -23 %t.used %t.table | count 0
// And the lead's raise + verifier accept both modules as hetIR.
// RUN: hetgpu-opt -passes=hetgpu-raise,hetgpu-verify -disable-output %t.O0.ll
// RUN: hetgpu-opt -passes=hetgpu-raise,hetgpu-verify -disable-output %t.O3.ll
#include <cassert>
#include <cmath>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cstdio>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <curand_kernel.h>
#include <mma.h>
#include <math_constants.h>
namespace cg = cooperative_groups;

__device__ float g_f;
__device__ double g_d;
__device__ int g_i;
__device__ unsigned g_u;
__device__ unsigned long long g_ull;
__device__ long long g_ll;

__global__ void everything(float *f, double *d, int *i, unsigned *u,
                           long long *ll, unsigned long long *ull) {
  float x = f[0];
  double y = d[0];
  int a = i[0];
  unsigned b = u[0];
  int e, q, pred;
  float ip, s, c;
  f[1] = sinf(x) + cosf(x) + tanf(x) + asinf(x) + acosf(x) + atanf(x) +
         atan2f(x, x) + sinhf(x) + coshf(x) + tanhf(x) + asinhf(x) +
         acoshf(x) + atanhf(x) + expf(x) + exp2f(x) + exp10f(x) + expm1f(x) +
         logf(x) + log2f(x) + log10f(x) + log1pf(x) + logbf(x) + powf(x, x) +
         cbrtf(x) + hypotf(x, x) + erff(x) + erfcf(x) + lgammaf(x) +
         tgammaf(x) + fmodf(x, x) + remainderf(x, x) + nextafterf(x, x) +
         fdimf(x, x) + sqrtf(x) + rsqrtf(x) + fabsf(x) + floorf(x) +
         ceilf(x) + truncf(x) + roundf(x) + rintf(x) + nearbyintf(x) +
         fminf(x, x) + fmaxf(x, x) + copysignf(x, x) + fmaf(x, x, x) +
         ldexpf(x, a) + scalbnf(x, a) + sinpif(x) + cospif(x) + erfinvf(x) +
         erfcinvf(x) + normcdff(x) + normcdfinvf(x) + erfcxf(x) + rcbrtf(x) +
         rhypotf(x, x) + norm3df(x, x, x) + rnorm4df(x, x, x, x) +
         ilogbf(x) + lroundf(x) + llroundf(x) + lrintf(x) + isnan(x) +
         isinf(x) + isfinite(x) + signbit(x) + CUDART_PI_F;
  sincosf(x, &s, &c);
  f[2] = frexpf(x, &e) + modff(x, &ip) + s + c + e + ip;
  sincospif(x, &s, &c);
  f[3] = s + c + remquof(x, x + 1, &q) + q + nanf("");
  f[4] = std::sin(x) + std::pow(x, 2) + std::abs(x) + std::sqrt(x) +
         std::exp(x) + sin(x) + ::cos(x);
  d[1] = sin(y) + cos(y) + tan(y) + exp(y) + log(y) + pow(y, y) + sqrt(y) +
         rsqrt(y) + fabs(y) + floor(y) + fmin(y, y) + erfinv(y) +
         normcdf(y) + sinpi(y) + hypot(y, y) + fma(y, y, y) + std::log2(y) +
         sin(3) + pow(2, a) + CUDART_PI;
  f[5] = __expf(x) + __exp10f(x) + __logf(x) + __log2f(x) + __log10f(x) +
         __powf(x, x) + __sinf(x) + __cosf(x) + __tanf(x) +
         __fdividef(x, x) + __fsqrt_rn(x) + __frcp_rn(x) + __fadd_rn(x, x) +
         __fmul_rn(x, x) + __fmaf_rn(x, x, x) + __saturatef(x);
  d[2] = __dadd_rn(y, y) + __dmul_rn(y, y) + __fma_rn(y, y, y);
  i[1] = __popc(b) + __popcll(ull[0]) + __clz(a) + __clzll(ll[0]) + __ffs(a) +
         __ffsll(ll[0]) + __brev(b) + (int)__brevll(ull[0]) +
         __byte_perm(b, b, 0x3210) + __mul24(a, a) + __umul24(b, b) +
         __mulhi(a, a) + __umulhi(b, b) + (int)__mul64hi(ll[0], ll[0]) +
         (int)__umul64hi(ull[0], ull[0]) + __sad(a, a, b) + __usad(b, b, b) +
         __hadd(a, a) + __rhadd(a, a) + __fns(b, 0, 1) +
         __funnelshift_l(b, b, 3) + __dp4a(a, a, a) + min(a, b) + max(a, a) +
         abs(a) + llabs(ll[0]);
  i[2] = __float2int_rn(x) + __float2uint_rz(x) + (int)__float2ll_rd(x) +
         __double2int_ru(y) + __float_as_int(x) + (int)__int_as_float(a) +
         __double2hiint(y) + __double2loint(y) + (int)__hiloint2double(a, a) +
         (int)__longlong_as_double(ll[0]) + (int)__double_as_longlong(y) +
         (int)__int2float_rn(a) + (int)__ll2double_rn(ll[0]);
  i[3] = __ldg(&i[0]) + __ldcg(&i[0]);
  atomicAdd(&g_i, 1);
  atomicAdd(&g_ull, 1ull);
  atomicAdd(&g_f, 1.f);
  atomicAdd(&g_d, 1.0);
  atomicSub(&g_i, 1);
  atomicExch(&g_f, 1.f);
  atomicMin(&g_ll, 1ll);
  atomicMax(&g_ull, 1ull);
  atomicInc(&g_u, 10u);
  atomicDec(&g_u, 10u);
  atomicXor(&g_ull, 1ull);
  atomicCAS(&g_i, 1, 2);
  atomicMin(&g_f, x);
  atomicMax(&g_d, y);
  atomicAdd_block(&g_i, 1);
  atomicAdd_system(&g_f, 1.f);
  unsigned m = __activemask();
  f[6] = __shfl_sync(m, x, 0) + __shfl_up_sync(m, x, 1) +
         __shfl_down_sync(m, x, 1, 16) + __shfl_xor_sync(m, x, 1);
  d[3] = __shfl_sync(m, y, 0);
  i[4] = __any_sync(m, a) + __all_sync(m, a) + __ballot_sync(m, a) +
         __match_any_sync(m, a) + __match_all_sync(m, y, &pred) + pred +
         __lanemask_lt() + __reduce_add_sync(m, a) + __reduce_or_sync(m, b);
  __syncwarp();
  __syncthreads();
  i[5] = __syncthreads_count(a) + __syncthreads_and(a) + __syncthreads_or(a);
  __threadfence();
  __threadfence_block();
  __threadfence_system();
  ll[1] = clock64() + clock() + __globaltimer();
  int *h = (int *)malloc(16);
  h[0] = 1;
  i[6] = h[0];
  free(h);
  int *h2 = new int[4];
  h2[1] = 3;
  i[7] = h2[1];
  delete[] h2;
  printf("%d %f\n", a, x);
  assert(a != 7);
  if (a == 9)
    __trap();
  auto t = cg::tiled_partition<16>(cg::this_thread_block());
  i[8] = cg::reduce(t, a, cg::plus<int>()) + t.ballot(a > 0);
  __half hh = __float2half(x);
  f[7] = __half2float(hh * hh) + make_float4(x, x, x, x).w +
         dim3(threadIdx).x + blockIdx.y + blockDim.z + gridDim.x + warpSize;
}

// The optional libraries: bfloat16, cuRAND's device API, WMMA.
__global__ void libraries(__nv_bfloat16 *b, float *f, const __half *h,
                          unsigned long long seed) {
  curandState st;
  curand_init(seed, threadIdx.x, 0, &st);
  f[threadIdx.x] = curand_uniform(&st) + curand_normal(&st) +
                   (float)curand_normal_double(&st);
  b[threadIdx.x] = __float2bfloat16(f[0]) * b[1];
  atomicAdd(&b[2], b[3]);
  nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, __half,
                         nvcuda::wmma::row_major>
      fa;
  nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, 16, 16, 16, __half,
                         nvcuda::wmma::col_major>
      fb;
  nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 16, float> fc;
  nvcuda::wmma::fill_fragment(fc, 0.0f);
  nvcuda::wmma::load_matrix_sync(fa, h, 16);
  nvcuda::wmma::load_matrix_sync(fb, h, 16);
  nvcuda::wmma::mma_sync(fc, fa, fb, fc);
  nvcuda::wmma::store_matrix_sync(f, fc, 16, nvcuda::wmma::mem_row_major);
}

// CUDA 12/13 additions: scoped atomics (at -O0 a non-constant order is a
// switch over the orders), the fp16/bf16 API, host+device math.
__global__ void cuda12(int *i, unsigned long long *u, float *f, __half *h,
                       __nv_bfloat16 *b, __half2 *h2, long long *ll) {
  int e = 0;
  i[0] = __nv_atomic_load_n(&i[1], __NV_ATOMIC_ACQUIRE,
                            __NV_THREAD_SCOPE_BLOCK);
  __nv_atomic_store_n(&i[2], 3, __NV_ATOMIC_RELEASE);
  __nv_atomic_fetch_add(&f[0], 1.0f, __NV_ATOMIC_ACQ_REL);
  __nv_atomic_max(&u[0], 5ull, __NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_DEVICE);
  __nv_atomic_compare_exchange_n(&i[3], &e, 4, true, __NV_ATOMIC_RELEASE,
                                 __NV_ATOMIC_ACQUIRE);
  unsigned long long o, v = 7;
  __nv_atomic_exchange(&u[1], &v, &o, __NV_ATOMIC_CONSUME);
  __nv_atomic_thread_fence(__NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_CLUSTER);
  h[0] = __hfma_relu(h[1], h[2], __float2half_rd(f[1])) +
         hexp10(__ll2half_ru(ll[0]));
  ll[1] = __half2ll_rz(h[3]) + __hgtu2_mask(h2[0], h2[1]) +
          __bfloat162uint_rd(b[0]);
  __nv_bfloat162 bt = h2tanh(__halves2bfloat162(b[2], b[3]));
  b[1] = __hmax_nan(__double2bfloat16((double)f[2]), bt.x);
  h2[2] = __hcmadd(h2[3], h2[4], h2[5]);
  f[3] = rsqrtf(f[4]) + rcbrtf(f[5]) + sinpif(f[6]) + erfcinvf(f[7]) +
         normcdfinvf(f[8]) + erfcxf(f[9]) + normcdff(f[10]);
  f[11] = (float)(rsqrt((double)f[12]) + rcbrt((double)f[13]) +
                  erfinv((double)f[14]) + erfcx((double)f[15]) +
                  normcdf((double)f[16]));
}
