// End to end on the CPU device: the __half and __nv_bfloat16 conversions in
// every rounding mode (from float, double and 64-bit integers, and to the
// integer types), __hfma and the comparisons/max/min agree bit for bit with
// an independent host reference that finds each value's neighbours in a
// table of all 16-bit values and rounds in long double. Corner values: NaN,
// infinities, signed zeros, subnormals, ties, overflow, and inputs where
// rounding twice (double -> float -> half, fmaf -> half) would be wrong.
// The same header functions run in host code must agree too.
// REQUIRES: target-host
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_DEVICE=cpu %t | FileCheck %s
#include <cmath>
#include <cstdio>
#include <cstring>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

// ---- Independent reference (host only)
struct Fmt {
  int mbits, bias; // mantissa bits, exponent bias
  unsigned short inf;
};
static const Fmt kHalf = {10, 15, 0x7c00}, kBf16 = {7, 127, 0x7f80};
static long double value(const Fmt &f, unsigned short b) { // b <= inf
  int e = b >> f.mbits, m = b & ((1 << f.mbits) - 1);
  if (b == f.inf)
    return INFINITY;
  if (e == 0)
    return ldexpl(m, 1 - f.bias - f.mbits);
  return ldexpl(m + (1 << f.mbits), e - f.bias - f.mbits);
}
/// v rounded to the format in mode 0 rn, 1 rz, 2 rd, 3 ru.
static unsigned short ref_round(const Fmt &f, long double v, int mode) {
  if (v != v)
    return 0x7fff;
  bool neg = signbit(v);
  long double a = fabsl(v);
  unsigned lo = 0, hi = f.inf; // largest value <= a
  while (lo < hi) {
    unsigned mid = (lo + hi + 1) / 2;
    if (value(f, mid) <= a)
      lo = mid;
    else
      hi = mid - 1;
  }
  unsigned r = lo;
  if (value(f, lo) != a) {
    unsigned up = lo + 1;
    long double mid = up == f.inf ? value(f, lo) + (value(f, lo) - value(f, lo - 1)) / 2
                                  : (value(f, lo) + value(f, up)) / 2;
    if (mode == 0)
      r = a > mid || (a == mid && (up & 1) == 0) ? up : lo;
    else if (mode == 1)
      r = lo;
    else
      r = (mode == 3) != neg ? up : lo; // away from zero for ru(+), rd(-)
  }
  return (unsigned short)(r | (neg ? 0x8000u : 0u));
}
/// Bit for bit, except that any NaN matches a NaN.
static bool same(const Fmt &f, unsigned short got, unsigned short want) {
  bool got_nan = (got & 0x7fffu) > f.inf, want_nan = (want & 0x7fffu) > f.inf;
  return got_nan || want_nan ? got_nan && want_nan : got == want;
}
template <typename I> static I ref_to_int(long double v, int mode, I nanv) {
  if (v != v)
    return nanv;
  long double fl = floorl(v), r;
  if (mode == 0)
    r = v - fl > 0.5L || (v - fl == 0.5L && fmodl(fl, 2) != 0) ? fl + 1 : fl;
  else
    r = mode == 1 ? truncl(v) : mode == 2 ? fl : ceill(v);
  const bool sgn = (I)-1 < (I)0;
  long double mx = sgn ? ldexpl(1, sizeof(I) * 8 - 1) - 1 : ldexpl(1, sizeof(I) * 8) - 1;
  long double mn = sgn ? -mx - 1 : 0;
  return r <= mn ? (I)mn : r >= mx ? (I)mx : (I)r;
}

// ---- Inputs
static const int N = 4096;
struct In {
  float f[N];
  double d[N];
  long long ll[N];
  unsigned short h[N], b[N]; // bit patterns
};
struct Out {
  unsigned short fh[4][N], fb[4][N], dh[N], db[N], lh[4][N], lb[4][N];
  int hi[4][N], bi[4][N];
  long long hll[N];
  unsigned hu[N];
  short hs[N];
  unsigned short fma_h[N], fma_b[N], mx[N], mn[N], mxn[N];
  unsigned cmp[N];
};

__host__ __device__ void compute(const In *in, Out *o, int i) {
  float f = in->f[i];
  __half h = __ushort_as_half(in->h[i]);
  __nv_bfloat16 b = __ushort_as_bfloat16(in->b[i]);
  o->fh[0][i] = __half_as_ushort(__float2half_rn(f));
  o->fh[1][i] = __half_as_ushort(__float2half_rz(f));
  o->fh[2][i] = __half_as_ushort(__float2half_rd(f));
  o->fh[3][i] = __half_as_ushort(__float2half_ru(f));
  o->fb[0][i] = __bfloat16_as_ushort(__float2bfloat16_rn(f));
  o->fb[1][i] = __bfloat16_as_ushort(__float2bfloat16_rz(f));
  o->fb[2][i] = __bfloat16_as_ushort(__float2bfloat16_rd(f));
  o->fb[3][i] = __bfloat16_as_ushort(__float2bfloat16_ru(f));
  o->dh[i] = __half_as_ushort(__double2half(in->d[i]));
  o->db[i] = __bfloat16_as_ushort(__double2bfloat16(in->d[i]));
  long long l = in->ll[i];
  o->lh[0][i] = __half_as_ushort(__ll2half_rn(l));
  o->lh[1][i] = __half_as_ushort(__ll2half_rz(l));
  o->lh[2][i] = __half_as_ushort(__ll2half_rd(l));
  o->lh[3][i] = __half_as_ushort(__ull2half_ru((unsigned long long)l));
  o->lb[0][i] = __bfloat16_as_ushort(__ll2bfloat16_rn(l));
  o->lb[1][i] = __bfloat16_as_ushort(__int2bfloat16_rz((int)l));
  o->lb[2][i] = __bfloat16_as_ushort(__ll2bfloat16_rd(l));
  o->lb[3][i] = __bfloat16_as_ushort(__ull2bfloat16_ru((unsigned long long)l));
  o->hi[0][i] = __half2int_rn(h);
  o->hi[1][i] = __half2int_rz(h);
  o->hi[2][i] = __half2int_rd(h);
  o->hi[3][i] = __half2int_ru(h);
  o->bi[0][i] = __bfloat162int_rn(b);
  o->bi[1][i] = __bfloat162int_rz(b);
  o->bi[2][i] = __bfloat162int_rd(b);
  o->bi[3][i] = __bfloat162int_ru(b);
  o->hll[i] = __half2ll_rn(h);
  o->hu[i] = __half2uint_ru(h);
  o->hs[i] = __half2short_rd(h);
  __half h1 = __ushort_as_half(in->h[(i + 1) % N]);
  __half h2 = __ushort_as_half(in->h[(i + 2) % N]);
  __nv_bfloat16 b1 = __ushort_as_bfloat16(in->b[(i + 1) % N]);
  __nv_bfloat16 b2 = __ushort_as_bfloat16(in->b[(i + 2) % N]);
  o->fma_h[i] = __half_as_ushort(__hfma(h, h1, h2));
  o->fma_b[i] = __bfloat16_as_ushort(__hfma(b, b1, b2));
  o->mx[i] = __half_as_ushort(__hmax(h, h1));
  o->mn[i] = __half_as_ushort(__hmin(h, h1));
  o->mxn[i] = __half_as_ushort(__hmax_nan(h, h1));
  __half2 p = __halves2half2(h, h1), q = __halves2half2(h1, h);
  o->cmp[i] = __heq(h, h1) | __hne(h, h1) << 1 | __hlt(h, h1) << 2 |
              __hle(h, h1) << 3 | __hgt(h, h1) << 4 | __hge(h, h1) << 5 |
              __hequ(h, h1) << 6 | __hneu(h, h1) << 7 | __hltu(h, h1) << 8 |
              __hleu(h, h1) << 9 | __hgtu(h, h1) << 10 | __hgeu(h, h1) << 11 |
              (__hlt2_mask(p, q) == ((__hlt(h, h1) ? 0xffffu : 0u) |
                                     (__hlt(h1, h) ? 0xffff0000u : 0u)))
                  << 12 |
              __hbgeu2(p, q) << 13 | (__half_as_ushort(__hgt2(p, q).x) == (__hgt(h, h1) ? 0x3c00 : 0)) << 14;
}
__global__ void kernel(const In *in, Out *o) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N)
    compute(in, o, i);
}

static unsigned long long rng = 88172645463325252ull;
static unsigned long long next() {
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return rng;
}
static float bits_f(unsigned u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}
static void fill(In &in) {
  const float fc[] = {0.f, -0.f, INFINITY, -INFINITY, NAN, 65504.f, 65519.f,
                      65520.f, 65519.99f, 65536.f, 1e10f, -1e10f,
                      ldexpf(1, -24), ldexpf(1, -25), ldexpf(3, -25),
                      ldexpf(1.5f, -24), ldexpf(1, -26), -ldexpf(1, -25),
                      1 + ldexpf(1, -11), 1 + ldexpf(3, -11), -1 - ldexpf(1, -11),
                      1 + ldexpf(1, -8), 1 + ldexpf(3, -8), 3.4e38f, -3.4e38f,
                      ldexpf(1, -133), ldexpf(1, -134), ldexpf(3, -134),
                      ldexpf(1, -149), 6.1e-5f, 6.0e-5f};
  const double dc[] = {1 + ldexp(1, -11) + ldexp(1, -40),
                       -1 - ldexp(1, -11) - ldexp(1, -40),
                       1 + ldexp(1, -8) + ldexp(1, -40), 1e300, -1e300, 1e-300,
                       ldexp(1, -25) + ldexp(1, -60), 65520 - ldexp(1, -30)};
  const long long lc[] = {0, 1, -1, 2049, 2051, -2049, 65519, 65520, 65535,
                          257, 259, -257, 2147483647, -2147483647 - 1,
                          (1ll << 60) + (1ll << 52) + 1, (1ll << 60) + (1ll << 52),
                          0x7fffffffffffffffll, (long long)0x8000000000000000ull,
                          (1ll << 24) + 1, 16777217ll * 3};
  const unsigned short hc[] = {0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x7fff,
                               0x3800, 0x3c00, 0x3e00, 0xbe00, 0x4100, 0xc100,
                               0x7bff, 0xfbff, 0x0001, 0x3a00, 0x3dff, 0x3c01,
                               0x7801, 0xf801, 0xfe00, 0x3555, 0x1400, 0x8400};
  const int nfc = sizeof fc / sizeof *fc, ndc = sizeof dc / sizeof *dc;
  const int nlc = sizeof lc / sizeof *lc, nhc = sizeof hc / sizeof *hc;
  for (int i = 0; i < N; ++i) {
    unsigned long long r = next();
    // Floats: every exponent, the low mantissa bits often near a tie.
    unsigned u = (unsigned)r;
    if (i % 3 == 0)
      u = (u & 0xffffe000u) | (r >> 40 & 1 ? 0x1000u : 0x0fffu);
    in.f[i] = i < nfc ? fc[i] : bits_f(u);
    in.d[i] = i < ndc ? dc[i] : ldexp((double)(r >> 11), (int)(r % 90) - 70 - 53);
    if (i % 5 == 0 && i >= ndc)
      in.d[i] = -in.d[i];
    in.ll[i] = i < nlc ? lc[i] : (long long)(r >> (r % 63));
    if (i % 4 == 1 && i >= nlc)
      in.ll[i] = -in.ll[i];
    in.h[i] = i < nhc ? hc[i] : (unsigned short)(r >> 16);
    // bf16 operands near 1 so that the fma reference is exact in long double.
    in.b[i] = (unsigned short)(i < nhc ? hc[i] : 0x3800 + (r >> 48) % 0x1000);
  }
  // Where fmaf then rounding to half would be wrong: 1.5 * (683/1024) = 1 +
  // 2^-11 is a tie, and a 2^-24 addend decides it.
  in.h[100] = 0x3e00, in.h[101] = 0x3956, in.h[102] = 0x0001;
  in.h[200] = 0x3e00, in.h[201] = 0x3956, in.h[202] = 0x8001;
}

static long double hv(unsigned short b) { return (long double)__half2float(__ushort_as_half(b)); }
static long double bv(unsigned short b) { return (long double)__bfloat162float(__ushort_as_bfloat16(b)); }

static int check(const In &in, const Out &o, const char *who) {
  int bad = 0, n = 0;
  auto expect = [&](bool ok, const char *what, int i) {
    ++n;
    if (!ok && bad++ < 40)
      printf("%s: %s mismatch at %d\n", who, what, i);
  };
  for (int i = 0; i < N; ++i) {
    for (int m = 0; m < 4; ++m) {
      expect(same(kHalf, o.fh[m][i], ref_round(kHalf, in.f[i], m)), "float2half", i);
      expect(same(kBf16, o.fb[m][i], ref_round(kBf16, in.f[i], m)), "float2bf16", i);
    }
    expect(same(kHalf, o.dh[i], ref_round(kHalf, in.d[i], 0)), "double2half", i);
    expect(same(kBf16, o.db[i], ref_round(kBf16, in.d[i], 0)), "double2bf16", i);
    long long l = in.ll[i];
    unsigned long long ul = (unsigned long long)l;
    expect(o.lh[0][i] == ref_round(kHalf, l, 0), "ll2half_rn", i);
    expect(o.lh[1][i] == ref_round(kHalf, l, 1), "ll2half_rz", i);
    expect(o.lh[2][i] == ref_round(kHalf, l, 2), "ll2half_rd", i);
    expect(o.lh[3][i] == ref_round(kHalf, ul, 3), "ull2half_ru", i);
    expect(o.lb[0][i] == ref_round(kBf16, l, 0), "ll2bf16_rn", i);
    expect(o.lb[1][i] == ref_round(kBf16, (int)l, 1), "int2bf16_rz", i);
    expect(o.lb[2][i] == ref_round(kBf16, l, 2), "ll2bf16_rd", i);
    expect(o.lb[3][i] == ref_round(kBf16, ul, 3), "ull2bf16_ru", i);
    long double h = hv(in.h[i]), b = bv(in.b[i]);
    for (int m = 0; m < 4; ++m) {
      expect(o.hi[m][i] == ref_to_int<int>(h, m, 0), "half2int", i);
      expect(o.bi[m][i] == ref_to_int<int>(b, m, 0), "bf162int", i);
    }
    expect(o.hll[i] == ref_to_int<long long>(h, 0, (long long)0x8000000000000000ull), "half2ll", i);
    expect(o.hu[i] == ref_to_int<unsigned>(h, 3, 0u), "half2uint_ru", i);
    expect(o.hs[i] == ref_to_int<short>(h, 2, (short)0), "half2short_rd", i);
    unsigned short j1 = in.h[(i + 1) % N], j2 = in.h[(i + 2) % N];
    long double h1 = hv(j1), h2 = hv(j2);
    // Exact in long double when the product and addend are within 2^60.
    long double fx = h * h1 + h2;
    if (fabsl(h * h1) < 1e4L && fabsl(h * h1) > 1e-4L && fabsl(h2) > 1e-5L || i == 100 || i == 200)
      expect(same(kHalf, o.fma_h[i], ref_round(kHalf, fx, 0)), "hfma", i);
    long double bx = b * bv(in.b[(i + 1) % N]) + bv(in.b[(i + 2) % N]);
    expect(same(kBf16, o.fma_b[i], ref_round(kBf16, bx, 0)), "hfma bf16", i);
    bool n0 = h != h, n1 = h1 != h1;
    long double want_max = n0 && n1 ? NAN : n0 ? h1 : n1 ? h : (h > h1 ? h : h1);
    unsigned short wmx = n0 || n1 ? (n0 && n1 ? 0x7fff : (n0 ? j1 : in.h[i]))
                         : h == h1 ? ((in.h[i] & 0x8000) ? j1 : in.h[i])
                         : (h > h1 ? in.h[i] : j1);
    unsigned short wmn = n0 || n1 ? (n0 && n1 ? 0x7fff : (n0 ? j1 : in.h[i]))
                         : h == h1 ? ((in.h[i] & 0x8000) ? in.h[i] : j1)
                         : (h < h1 ? in.h[i] : j1);
    (void)want_max;
    expect(o.mx[i] == wmx, "hmax", i);
    expect(o.mn[i] == wmn, "hmin", i);
    expect(o.mxn[i] == (n0 || n1 ? 0x7fff : wmx), "hmax_nan", i);
    bool un = n0 || n1;
    unsigned want = (h == h1) | (!un && h != h1) << 1 | (h < h1) << 2 |
                    (h <= h1) << 3 | (h > h1) << 4 | (h >= h1) << 5 |
                    (un || h == h1) << 6 | (un || h != h1) << 7 |
                    (un || h < h1) << 8 | (un || h <= h1) << 9 |
                    (un || h > h1) << 10 | (un || h >= h1) << 11 | 1u << 12 |
                    ((un || h >= h1) && (un || h1 >= h)) << 13 | 1u << 14;
    expect(o.cmp[i] == want, "comparisons", i);
  }
  printf("%s: %d checks, %d mismatches\n", who, n, bad);
  return bad;
}

int main() {
  static In in;
  static Out out, host;
  fill(in);
  In *din;
  Out *dout;
  cudaMalloc(&din, sizeof(In));
  cudaMalloc(&dout, sizeof(Out));
  cudaMemcpy(din, &in, sizeof(In), cudaMemcpyHostToDevice);
  kernel<<<N / 128, 128>>>(din, dout);
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess)
    e = cudaDeviceSynchronize();
  cudaMemcpy(&out, dout, sizeof(Out), cudaMemcpyDeviceToHost);
  // CHECK: err 0
  printf("err %d\n", (int)e);
  // CHECK: device: {{[1-9][0-9][0-9][0-9][0-9]+}} checks, 0 mismatches
  check(in, out, "device");
  for (int i = 0; i < N; ++i)
    compute(&in, &host, i);
  // CHECK: host: {{[1-9][0-9][0-9][0-9][0-9]+}} checks, 0 mismatches
  check(in, host, "host");
  // CHECK: fma tie 3c01 3c00
  printf("fma tie %04x %04x\n", out.fma_h[100], out.fma_h[200]);
  return 0;
}
