// CUDA's math functions that are __host__ __device__ (rsqrt[f], rcbrt[f],
// sinpi[f], cospi[f], sincospi[f], erfinv[f], erfcinv[f], normcdf[f],
// normcdfinv[f], erfcx[f]) compile in host code, and host and device agree
// within CUDA's documented ulp bounds; both are also within those bounds of
// a long double reference (Newton-refined for the inverse functions).
// REQUIRES: target-host
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_DEVICE=cpu %t | FileCheck %s
#include <cmath>
#include <cstdio>

enum { N = 1024, NF = 11 };
// CUDA's maximum ulp errors (CUDA Math API, float and double tables).
static const char *kName[NF] = {"rsqrt", "rcbrt", "sinpi", "cospi",
                                "erfinv", "erfcinv", "normcdf",
                                "normcdfinv", "erfcx", "sincospi.s",
                                "sincospi.c"};
static const double kUlpF[NF] = {2, 1, 1, 1, 2, 4, 5, 5, 4, 1, 1};
static const double kUlpD[NF] = {1, 1, 2, 2, 5, 6, 5, 8, 4, 2, 2};

struct Buf {
  float fin[NF][N], fout[NF][N];
  double din[NF][N], dout[NF][N];
};

__host__ __device__ void eval(Buf *b, int i) {
  b->fout[0][i] = rsqrtf(b->fin[0][i]);
  b->fout[1][i] = rcbrtf(b->fin[1][i]);
  b->fout[2][i] = sinpif(b->fin[2][i]);
  b->fout[3][i] = cospif(b->fin[3][i]);
  b->fout[4][i] = erfinvf(b->fin[4][i]);
  b->fout[5][i] = erfcinvf(b->fin[5][i]);
  b->fout[6][i] = normcdff(b->fin[6][i]);
  b->fout[7][i] = normcdfinvf(b->fin[7][i]);
  b->fout[8][i] = erfcxf(b->fin[8][i]);
  sincospif(b->fin[9][i], &b->fout[9][i], &b->fout[10][i]);
  b->dout[0][i] = rsqrt(b->din[0][i]);
  b->dout[1][i] = rcbrt(b->din[1][i]);
  b->dout[2][i] = sinpi(b->din[2][i]);
  b->dout[3][i] = cospi(b->din[3][i]);
  b->dout[4][i] = erfinv(b->din[4][i]);
  b->dout[5][i] = erfcinv(b->din[5][i]);
  b->dout[6][i] = normcdf(b->din[6][i]);
  b->dout[7][i] = normcdfinv(b->din[7][i]);
  b->dout[8][i] = erfcx(b->din[8][i]);
  sincospi(b->din[9][i], &b->dout[9][i], &b->dout[10][i]);
}
__global__ void kernel(Buf *b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N)
    eval(b, i);
}

// ---- Reference (host, long double)
typedef long double LD;
static const LD kPi = 3.141592653589793238462643383279502884L;
static LD sinpi_ref(LD x, bool cosine) {
  LD n = rintl(2 * x), r = (x - n / 2) * kPi; // exact reduction
  int q = (int)fmodl(fmodl(n, 4) + 4, 4);
  if (cosine)
    q = (q + 1) % 4;
  return q == 0 ? sinl(r) : q == 1 ? cosl(r) : q == 2 ? -sinl(r) : -cosl(r);
}
static LD erfinv_ref(LD y, LD x) { // Newton from the value under test
  if (!std::isfinite(x))
    return x;
  for (int k = 0; k < 4; ++k) {
    // erf(x) - y, through erfc in the tails (1 - |y| is exact there).
    LD f = fabsl(y) > 0.5L
               ? copysignl(1, y) * ((1 - fabsl(y)) - erfcl(fabsl(x)))
               : erfl(x) - y;
    x -= f / (2 / sqrtl(kPi) * expl(-x * x));
  }
  return x;
}
static LD erfcinv_ref(LD y, LD x) {
  if (!std::isfinite(x))
    return x;
  for (int k = 0; k < 4; ++k)
    x += (erfcl(x) - y) / (2 / sqrtl(kPi) * expl(-x * x));
  return x;
}
static LD ref(int f, LD x, LD got) {
  switch (f) {
  case 0: return 1 / sqrtl(x);
  case 1: return 1 / cbrtl(x);
  case 2: case 9: return sinpi_ref(x, false);
  case 3: case 10: return sinpi_ref(x, true);
  case 4: return erfinv_ref(x, got);
  case 5: return erfcinv_ref(x, got);
  case 6: return erfcl(-x / sqrtl(2)) / 2;
  case 7: return -sqrtl(2) * erfcinv_ref(2 * x, -got / sqrtl(2));
  default: return expl(x * x) * erfcl(x);
  }
}
template <typename T> static double ulps(T got, LD want) {
  if (std::isnan((LD)got) || std::isnan(want))
    return std::isnan((LD)got) && std::isnan(want) ? 0 : 1e30;
  if (std::isinf((LD)got) || std::isinf(want))
    return (LD)got == want ? 0 : 1e30;
  int e = ilogbl(want);
  int p = sizeof(T) == 4 ? 24 : 53, emin = sizeof(T) == 4 ? -126 : -1022;
  LD ulp = ldexpl(1, (e < emin ? emin : e) - (p - 1));
  if (want == 0)
    ulp = ldexpl(1, emin - (p - 1));
  return (double)(fabsl((LD)got - want) / ulp);
}

static unsigned long long rng = 0x9e3779b97f4a7c15ull;
static double uni() { // [0, 1)
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return (double)(rng >> 11) * 0x1p-53;
}
static double input(int f, int i) {
  double u = uni();
  switch (f) {
  case 0: return i == 0 ? 0.0 : i == 1 ? -1.0 : i == 2 ? INFINITY : exp2(120 * u - 60);
  case 1: return i == 0 ? 0.0 : (i & 1 ? -1 : 1) * exp2(200 * u - 100);
  case 2: case 3: case 9:
    return i < 20 ? (i - 10) * 0.5 : i < 24 ? 1e7 + 0.5 * i : i == 24 ? INFINITY : 200 * u - 100;
  case 4:
    return i == 0 ? 0.0 : i == 1 ? 1.0 : i == 2 ? -1.0 : i < 40 ? (i & 1 ? -1 : 1) * (1 - exp2(-i)) : 2 * u - 1;
  case 5: return i == 0 ? 2.0 : i < 40 ? exp2(-i) : i < 60 ? 2 - exp2(-(i - 38)) : i < 200 ? exp2(-60 * u) : 2 * u;
  case 6: return i < 10 ? -9.5 + i : 20 * u - 10;
  case 7: return i < 40 ? exp2(-i - 1) : i < 60 ? 1 - exp2(-(i - 38)) : i < 200 ? exp2(-60 * u) : u;
  default: return i < 4 ? 26 + i * 10.0 : 36 * u - 5;
  }
}

template <typename T>
static void compare(const char *what, T (*dev)[N], T (*host)[N], T (*in)[N],
                    const double *bound) {
  for (int f = 0; f < NF; ++f) {
    double hd = 0, rd = 0;
    int worst = 0;
    for (int i = 0; i < N; ++i) {
      double a = ulps(dev[f][i], (LD)host[f][i]);
      T x = in[f == 10 ? 9 : f][i]; // sincospi's cosine reads its input
      double r1 = ulps(dev[f][i], ref(f, x, dev[f][i]));
      double r2 = ulps(host[f][i], ref(f, x, host[f][i]));
      hd = a > hd ? a : hd;
      if (r1 > rd || r2 > rd)
        rd = r1 > r2 ? r1 : r2, worst = i;
    }
    bool ok = hd <= bound[f] && rd <= bound[f];
    printf("%s %s: %s (host-device %.2f ulp, reference %.2f ulp at %.9g)\n",
           what, kName[f], ok ? "ok" : "FAIL", hd, rd, (double)in[f][worst]);
  }
}

int main() {
  static Buf h, out;
  for (int f = 0; f < NF; ++f)
    for (int i = 0; i < N; ++i) {
      h.din[f][i] = input(f, i);
      h.fin[f][i] = (float)input(f, i);
    }
  Buf *d;
  cudaMalloc(&d, sizeof(Buf));
  cudaMemcpy(d, &h, sizeof(Buf), cudaMemcpyHostToDevice);
  kernel<<<N / 64, 64>>>(d);
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess)
    e = cudaDeviceSynchronize();
  cudaMemcpy(&out, d, sizeof(Buf), cudaMemcpyDeviceToHost);
  for (int i = 0; i < N; ++i)
    eval(&h, i);
  // CHECK: err 0
  printf("err %d\n", (int)e);
  // CHECK-NOT: FAIL
  // CHECK: float rsqrt: ok
  // CHECK: float sincospi.c: ok
  compare("float", out.fout, h.fout, h.fin, kUlpF);
  // CHECK: double rsqrt: ok
  // CHECK: double sincospi.c: ok
  compare("double", out.dout, h.dout, h.din, kUlpD);
  // Exact values CUDA documents.
  // CHECK: exact 0 -0 1 -1 inf -inf inf 0 0.5
  printf("exact %g %g %g %g %g %g %g %g %g\n", sinpif(1.0f), sinpi(-2.0),
         cospi(2.0), cospif(1.0f), erfinv(1.0), erfinvf(-1.0f), erfcinv(0.0),
         rsqrt(INFINITY), normcdf(0.0));
  return 0;
}
