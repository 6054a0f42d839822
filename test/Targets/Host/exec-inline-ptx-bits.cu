// Inline PTX bit manipulation, integer arithmetic with carry chains,
// conversions and directed-rounding float operations, run on the CPU device
// through hetgpu-cc and compared bit for bit with a host model written from
// the PTX ISA pseudo-code.
// REQUIRES: built-target-host
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_DEVICE=cpu %t | FileCheck %s
// CHECK: prmt ok
// CHECK-NEXT: bfe/bfi ok
// CHECK-NEXT: lop3/shf/bits ok
// CHECK-NEXT: carry ok
// CHECK-NEXT: mul/mad ok
// CHECK-NEXT: dp4a/video ok
// CHECK-NEXT: cvt/float ok
// CHECK-NEXT: PASS
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#define N 256
#define OUTS 48

__device__ unsigned prmt(unsigned a, unsigned b, unsigned c) {
  unsigned r;
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  return r;
}

__global__ void bits(const unsigned *in, unsigned *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned a = in[3 * t], b = in[3 * t + 1], c = in[3 * t + 2];
  unsigned *o = out + OUTS * t;
  unsigned r;
  unsigned long long w;
  o[0] = prmt(a, b, c);
  asm("prmt.b32.f4e %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  o[1] = r;
  asm("prmt.b32.b4e %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  o[2] = r;
  asm("prmt.b32.rc8 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  o[3] = r;
  asm("prmt.b32.ecl %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  o[4] = r;
  asm("prmt.b32.ecr %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  o[5] = r;
  asm("prmt.b32.rc16 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  o[6] = r;
  // bfe/bfi with positions and lengths beyond the register (c's bytes).
  unsigned pos = c & 0xff, len = (c >> 8) & 0xff;
  if (t % 2) { pos &= 31; len &= 31; }
  asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(pos), "r"(len));
  o[7] = r;
  int s;
  asm("bfe.s32 %0, %1, %2, %3;" : "=r"(s) : "r"(a), "r"(pos), "r"(len));
  o[8] = s;
  asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(a), "r"(b), "r"(pos), "r"(len));
  o[9] = r;
  long long sl;
  asm("bfe.s64 %0, %1, %2, %3;" : "=l"(sl) : "l"(((unsigned long long)a << 32) | b), "r"(pos), "r"(len));
  o[10] = (unsigned)sl;
  o[11] = (unsigned)(sl >> 32);
  asm("lop3.b32 %0, %1, %2, %3, 0xE8;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); // majority
  o[12] = r;
  asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); // a^b^c
  o[13] = r;
  asm("lop3.b32 %0, %1, %2, %3, 0x1B;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  o[14] = r;
  asm("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  o[15] = r;
  asm("shf.r.clamp.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c & 63));
  o[16] = r;
  asm("brev.b32 %0, %1;" : "=r"(r) : "r"(a));
  o[17] = r;
  asm("popc.b32 %0, %1;" : "=r"(r) : "r"(a & b));
  o[18] = r;
  asm("clz.b32 %0, %1;" : "=r"(r) : "r"(a >> (c & 31)));
  o[19] = r;
  asm("bfind.u32 %0, %1;" : "=r"(r) : "r"(a >> (c & 31)));
  o[20] = r;
  asm("bfind.s32 %0, %1;" : "=r"(r) : "r"((int)b >> (c & 31)));
  o[21] = r;
  asm("bfind.shiftamt.u32 %0, %1;" : "=r"(r) : "r"(a >> (c & 31)));
  o[22] = r;
  int off = (int)(c % 65) - 32;
  asm("fns.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b & 31), "r"(off));
  o[23] = r;
  // Carry chains: a 96-bit add and subtract, and a chain split over two
  // asm statements.
  unsigned s0, s1, s2;
  asm("add.cc.u32 %0, %3, %6;\n\t"
      "addc.cc.u32 %1, %4, %7;\n\t"
      "addc.u32 %2, %5, %8;"
      : "=r"(s0), "=r"(s1), "=r"(s2)
      : "r"(a), "r"(b), "r"(c), "r"(c), "r"(a), "r"(b));
  o[24] = s0; o[25] = s1; o[26] = s2;
  asm("sub.cc.u32 %0, %3, %6;\n\t"
      "subc.cc.u32 %1, %4, %7;\n\t"
      "subc.u32 %2, %5, %8;"
      : "=r"(s0), "=r"(s1), "=r"(s2)
      : "r"(a), "r"(b), "r"(c), "r"(c), "r"(a), "r"(b));
  o[27] = s0; o[28] = s1; o[29] = s2;
  asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(s0) : "r"(a), "r"(b));
  asm volatile("addc.u32 %0, %1, %2;" : "=r"(s1) : "r"(0u), "r"(0u));
  o[30] = s1;
  // Multiplies.
  asm("mul.hi.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  o[31] = r;
  asm("mul.hi.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  o[32] = r;
  asm("mul.wide.s32 %0, %1, %2;" : "=l"(w) : "r"(a), "r"(b));
  o[33] = (unsigned)w; o[34] = (unsigned)(w >> 32);
  asm("mad.lo.cc.u32 %0, %2, %3, %4;\n\tmadc.hi.u32 %1, %2, %3, 0;"
      : "=r"(s0), "=r"(s1) : "r"(a), "r"(b), "r"(c));
  o[35] = s0; o[36] = s1;
  asm("mad.hi.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  o[37] = r;
  // dp4a, dp2a and the video instructions CUB uses.
  asm("dp4a.s32.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  o[38] = r;
  asm("dp2a.hi.u32.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  o[39] = r;
  asm("vshr.u32.u32.u32.clamp.add %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b & 63), "r"(c));
  o[40] = r;
  asm("vshl.u32.u32.u32.clamp.add %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b & 63), "r"(c));
  o[41] = r;
  asm("vadd.u32.u32.u32.add %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  o[42] = r;
  // Conversions and directed rounding.
  float fa = __uint_as_float((a & 0x807fffffu) | 0x3f000000u); // [0.5, 1)
  float fb = __uint_as_float((b & 0x807fffffu) | 0x40800000u); // [4, 8)
  float fc = __uint_as_float((c & 0x807fffffu) | 0x3e000000u);
  float fr;
  asm("mul.rz.f32 %0, %1, %2;" : "=f"(fr) : "f"(fa), "f"(fb));
  o[43] = __float_as_uint(fr);
  asm("fma.rz.f32 %0, %1, %2, %3;" : "=f"(fr) : "f"(fa), "f"(fb), "f"(fc));
  o[44] = __float_as_uint(fr);
  asm("cvt.rzi.s32.f32 %0, %1;" : "=r"(s) : "f"(fb * 1e9f * fa));
  o[45] = s;
  asm("cvt.rmi.s32.f32 %0, %1;" : "=r"(s) : "f"(-fb * fa));
  o[46] = s;
  asm("cvt.sat.u8.s32 %0, %1;" : "=r"(r) : "r"((int)b >> 20));
  o[47] = r;
}

// ---- Host model (PTX ISA pseudo-code) ---------------------------------------

static unsigned hprmt(unsigned a, unsigned b, unsigned c, int mode) {
  uint64_t x = ((uint64_t)b << 32) | a;
  unsigned r = 0;
  for (int i = 0; i < 4; ++i) {
    unsigned sel, n = c & 3;
    bool rep = false;
    switch (mode) {
    case 0: sel = (c >> (4 * i)) & 7; rep = (c >> (4 * i + 3)) & 1; break;
    case 1: { static const int f4e[4][4] = {{0,1,2,3},{1,2,3,4},{2,3,4,5},{3,4,5,6}}; sel = f4e[n][i]; break; }
    case 2: { static const int b4e[4][4] = {{0,7,6,5},{1,0,7,6},{2,1,0,7},{3,2,1,0}}; sel = b4e[n][i]; break; }
    case 3: sel = n; break;
    case 4: { static const int ecl[4][4] = {{0,1,2,3},{1,1,2,3},{2,2,2,3},{3,3,3,3}}; sel = ecl[n][i]; break; }
    case 5: { static const int ecr[4][4] = {{0,0,0,0},{0,1,1,1},{0,1,2,2},{0,1,2,3}}; sel = ecr[n][i]; break; }
    default: { static const int rc16[4][4] = {{0,1,0,1},{2,3,2,3},{0,1,0,1},{2,3,2,3}}; sel = rc16[n][i]; break; }
    }
    unsigned byte = (x >> (8 * sel)) & 0xff;
    if (rep)
      byte = (byte & 0x80) ? 0xff : 0;
    r |= byte << (8 * i);
  }
  return r;
}

static uint64_t hbfe(uint64_t a, unsigned pos, unsigned len, int w, bool sgn) {
  int msb = w - 1;
  pos &= 0xff; len &= 0xff;
  int top = (int)pos + (int)len - 1 < msb ? (int)pos + (int)len - 1 : msb;
  unsigned sbit = (sgn && len) ? (a >> top) & 1 : 0;
  uint64_t d = 0;
  for (int i = 0; i <= msb; ++i) {
    unsigned bit = ((unsigned)i < len && pos + i <= (unsigned)msb) ? (a >> (pos + i)) & 1 : sbit;
    d |= (uint64_t)bit << i;
  }
  return d;
}

static unsigned hbfi(unsigned f, unsigned b, unsigned pos, unsigned len) {
  pos &= 0xff; len &= 0xff;
  unsigned d = b;
  for (unsigned i = 0; i < len && pos + i <= 31; ++i)
    d = (d & ~(1u << (pos + i))) | (((f >> i) & 1) << (pos + i));
  return d;
}

static unsigned hlop3(unsigned a, unsigned b, unsigned c, unsigned lut) {
  unsigned r = 0;
  for (int i = 0; i < 32; ++i) {
    unsigned k = (((a >> i) & 1) << 2) | (((b >> i) & 1) << 1) | ((c >> i) & 1);
    r |= ((lut >> k) & 1) << i;
  }
  return r;
}

static unsigned hbfind(uint64_t a, int w, bool sgn, bool shiftamt) {
  if (sgn && ((a >> (w - 1)) & 1))
    a = ~a;
  for (int i = w - 1; i >= 0; --i)
    if ((a >> i) & 1)
      return shiftamt ? (unsigned)(w - 1 - i) : (unsigned)i;
  return 0xffffffffu;
}

static unsigned hfns(unsigned mask, unsigned base, int offset) {
  unsigned d = 0xffffffffu;
  if (offset == 0) {
    if ((mask >> base) & 1) d = base;
    return d;
  }
  int pos = base, count = (offset > 0 ? offset : -offset) - 1, inc = offset > 0 ? 1 : -1;
  while (pos >= 0 && pos < 32) {
    if ((mask >> pos) & 1) {
      if (count == 0) return pos;
      --count;
    }
    pos += inc;
  }
  return d;
}

static float hrz(double x) { // round a double to f32 toward zero
  float f = (float)x;
  if (std::fabs((double)f) > std::fabs(x))
    f = std::nextafter(f, 0.0f);
  return f;
}

static unsigned f2u(float f) { unsigned u; memcpy(&u, &f, 4); return u; }
static float u2f(unsigned u) { float f; memcpy(&f, &u, 4); return f; }

static void model(unsigned a, unsigned b, unsigned c, int t, unsigned *o) {
  for (int m = 0; m < 7; ++m)
    o[m] = hprmt(a, b, c, m);
  unsigned pos = c & 0xff, len = (c >> 8) & 0xff;
  if (t % 2) { pos &= 31; len &= 31; }
  o[7] = (unsigned)hbfe(a, pos, len, 32, false);
  o[8] = (unsigned)hbfe(a, pos, len, 32, true);
  o[9] = hbfi(a, b, pos, len);
  uint64_t l = hbfe(((uint64_t)a << 32) | b, pos, len, 64, true);
  o[10] = (unsigned)l; o[11] = (unsigned)(l >> 32);
  o[12] = hlop3(a, b, c, 0xE8); o[13] = hlop3(a, b, c, 0x96); o[14] = hlop3(a, b, c, 0x1B);
  { unsigned n = c & 31; uint64_t x = ((uint64_t)b << 32) | a; o[15] = (unsigned)((x << n) >> 32); }
  { unsigned n = (c & 63) < 32 ? (c & 63) : 32; uint64_t x = ((uint64_t)b << 32) | a; o[16] = (unsigned)(x >> n); }
  { unsigned r = 0; for (int i = 0; i < 32; ++i) r |= ((a >> i) & 1) << (31 - i); o[17] = r; }
  o[18] = __builtin_popcount(a & b);
  { unsigned x = a >> (c & 31); o[19] = x ? __builtin_clz(x) : 32; }
  o[20] = hbfind(a >> (c & 31), 32, false, false);
  o[21] = hbfind((unsigned)((int)b >> (c & 31)), 32, true, false);
  o[22] = hbfind(a >> (c & 31), 32, false, true);
  o[23] = hfns(a, b & 31, (int)(c % 65) - 32);
  { __uint128_t x = ((__uint128_t)b << 32 | a) | ((__uint128_t)c << 64);
    __uint128_t y = ((__uint128_t)a << 32 | c) | ((__uint128_t)b << 64);
    __uint128_t s = x + y, d = x - y;
    o[24] = (unsigned)s; o[25] = (unsigned)(s >> 32); o[26] = (unsigned)(s >> 64);
    o[27] = (unsigned)d; o[28] = (unsigned)(d >> 32); o[29] = (unsigned)(d >> 64); }
  o[30] = ((uint64_t)a + b) >> 32;
  o[31] = (unsigned)(((uint64_t)a * b) >> 32);
  o[32] = (unsigned)(((int64_t)(int)a * (int)b) >> 32);
  { int64_t w = (int64_t)(int)a * (int)b; o[33] = (unsigned)w; o[34] = (unsigned)((uint64_t)w >> 32); }
  { uint64_t p = (uint64_t)a * b; uint64_t s = (uint64_t)(unsigned)p + c;
    o[35] = (unsigned)s; o[36] = (unsigned)(p >> 32) + (unsigned)(s >> 32); }
  o[37] = (unsigned)(((uint64_t)a * b) >> 32) + c;
  { int s = (int)c; for (int i = 0; i < 4; ++i) s += (int)(int8_t)(a >> 8 * i) * (int)(uint8_t)(b >> 8 * i); o[38] = s; }
  { unsigned s = c; for (int i = 0; i < 2; ++i) s += (unsigned)(uint16_t)(a >> 16 * i) * (unsigned)(int)(int8_t)(b >> 8 * (2 + i)); o[39] = s; }
  { unsigned n = b & 63; o[40] = (n >= 32 ? 0 : a >> n) + c; o[41] = (n >= 32 ? 0 : a << n) + c; }
  o[42] = a + b + c;
  float fa = u2f((a & 0x807fffffu) | 0x3f000000u), fb = u2f((b & 0x807fffffu) | 0x40800000u),
        fc = u2f((c & 0x807fffffu) | 0x3e000000u);
  o[43] = f2u(hrz((double)fa * fb));
  { long double e = (long double)fa * fb + fc; double hi = (double)e; long double lo = e - hi;
    float f = (float)hi;
    long double gf = f;
    if (fabsl(gf) > fabsl(e)) f = std::nextafter(f, 0.0f);
    (void)lo;
    o[44] = f2u(f); }
  { float x = fb * 1e9f * fa; o[45] = x >= 2147483648.0f ? 0x7fffffff : x <= -2147483648.0f ? 0x80000000u : (unsigned)(int)x; }
  o[46] = (unsigned)(int)std::floor(-fb * fa);
  { int v = (int)b >> 20; o[47] = v < 0 ? 0 : v > 255 ? 255 : v; }
}

int main() {
  std::vector<unsigned> in(3 * N), out(OUTS * N), ref(OUTS * N);
  uint64_t s = 0x9e3779b97f4a7c15ull;
  for (unsigned &x : in) {
    s ^= s << 13; s ^= s >> 7; s ^= s << 17;
    x = (unsigned)(s >> 11);
  }
  in[0] = in[1] = in[2] = 0; // zero operands
  in[3] = 0xffffffffu; in[4] = 1; in[5] = 0x2000;
  unsigned *din, *dout;
  cudaMalloc(&din, in.size() * 4);
  cudaMalloc(&dout, out.size() * 4);
  cudaMemcpy(din, in.data(), in.size() * 4, cudaMemcpyHostToDevice);
  bits<<<N / 64, 64>>>(din, dout);
  cudaMemcpy(out.data(), dout, out.size() * 4, cudaMemcpyDeviceToHost);
  for (int t = 0; t < N; ++t)
    model(in[3 * t], in[3 * t + 1], in[3 * t + 2], t, &ref[OUTS * t]);
  static const struct { const char *Name; int First, Last; } Groups[] = {
      {"prmt", 0, 6}, {"bfe/bfi", 7, 11}, {"lop3/shf/bits", 12, 23}, {"carry", 24, 30},
      {"mul/mad", 31, 37}, {"dp4a/video", 38, 42}, {"cvt/float", 43, 47}};
  bool All = true;
  for (const auto &G : Groups) {
    int Bad = 0;
    for (int t = 0; t < N; ++t)
      for (int k = G.First; k <= G.Last; ++k)
        if (out[OUTS * t + k] != ref[OUTS * t + k] && Bad++ < 4)
          printf("FAIL %s: thread %d out[%d] = 0x%08x, expected 0x%08x (a=0x%08x b=0x%08x c=0x%08x)\n",
                 G.Name, t, k, out[OUTS * t + k], ref[OUTS * t + k], in[3 * t], in[3 * t + 1], in[3 * t + 2]);
    printf("%s %s\n", G.Name, Bad ? "FAILED" : "ok");
    All &= !Bad;
  }
  printf(All ? "PASS\n" : "FAIL\n");
  return All ? 0 : 1;
}
