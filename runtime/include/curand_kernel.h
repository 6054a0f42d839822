//===- curand_kernel.h - Device-side random numbers (cuRAND API) ---*- C++
//-*-===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The device API of cuRAND on the Philox4x32-10 counter-based generator
/// (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC'11):
/// curand_init, curand, curand4, curand_uniform[_double|4|2_double],
/// curand_normal[_double|2|4|2_double], curand_log_normal[_double],
/// skipahead, skipahead_sequence. curandStatePhilox4_32_10_t follows
/// cuRAND's Philox sequence definition (key = seed, counter = subsequence in
/// the upper 64 bits, offset in 32-bit outputs). curandState /
/// curandStateXORWOW_t are the same Philox generator under cuRAND's default
/// names: the interface and statistical quality are those of cuRAND, the
/// exact numbers are not NVIDIA's XORWOW stream. The host API (curand.h,
/// curandCreateGenerator ...), MRG32k3a, MTGP32, Sobol and the discrete
/// distributions (curand_poisson) are not provided.
///
//===----------------------------------------------------------------------===//
#ifndef HETGPU_CURAND_KERNEL_H
#define HETGPU_CURAND_KERNEL_H

#include <cuda_runtime.h>

// Device language: empty in a plain C/C++ (non-CUDA) compile.
#if defined(__CUDA__)

#pragma push_macro("__HG_RAND")
#define __HG_RAND static __inline__ __attribute__((always_inline)) __device__

struct curandStatePhilox4_32_10 {
  uint4 ctr;
  uint4 output;
  uint2 key;
  unsigned int STATE; // next output word, 0..3
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;
typedef struct curandStatePhilox4_32_10 curandStateXORWOW;
typedef struct curandStatePhilox4_32_10 curandStateXORWOW_t;
typedef struct curandStatePhilox4_32_10 curandState;
typedef struct curandStatePhilox4_32_10 curandState_t;

#define CURAND_2POW32_INV (2.3283064e-10f)
#define CURAND_2POW32_INV_DOUBLE (2.3283064365386963e-10)
#define CURAND_2POW53_INV_DOUBLE (1.1102230246251565e-16)
#define CURAND_2POW32_INV_2PI (2.3283064e-10f * 6.2831855f)
#define CURAND_2POW53_INV_2PI_DOUBLE                                           \
  (1.1102230246251565e-16 * 6.2831853071795860)
#define CURAND_PI_DOUBLE (3.1415926535897932)

namespace __hg_rand {
/// One Philox4x32 round on counter c with key k.
__HG_RAND uint4 round(uint4 c, uint2 k) {
  unsigned long long p0 = (unsigned long long)0xD2511F53u * c.x;
  unsigned long long p1 = (unsigned long long)0xCD9E8D57u * c.z;
  uint4 r;
  r.x = (unsigned int)(p1 >> 32) ^ c.y ^ k.x;
  r.y = (unsigned int)p1;
  r.z = (unsigned int)(p0 >> 32) ^ c.w ^ k.y;
  r.w = (unsigned int)p0;
  return r;
}
/// Philox4x32-10: ten rounds, the key bumped by the Weyl constants between.
__HG_RAND uint4 philox4x32_10(uint4 c, uint2 k) {
  for (int i = 0; i < 9; ++i) {
    c = round(c, k);
    k.x += 0x9E3779B9u;
    k.y += 0xBB67AE85u;
  }
  return round(c, k);
}
/// 128-bit counter += n.
__HG_RAND void add(uint4 &c, unsigned long long n) {
  unsigned long long lo = ((unsigned long long)c.y << 32 | c.x) + n;
  unsigned long long carry = lo < n;
  c.x = (unsigned int)lo;
  c.y = (unsigned int)(lo >> 32);
  if (carry && ++c.z == 0)
    ++c.w;
}
/// Upper 64 bits of the counter += n (a new subsequence).
__HG_RAND void add_hi(uint4 &c, unsigned long long n) {
  unsigned long long hi = ((unsigned long long)c.w << 32 | c.z) + n;
  c.z = (unsigned int)hi;
  c.w = (unsigned int)(hi >> 32);
}
__HG_RAND float uniform(unsigned int x) {
  return x * CURAND_2POW32_INV + CURAND_2POW32_INV / 2.0f;
}
__HG_RAND double uniform_double(unsigned int hi, unsigned int lo) {
  unsigned long long z =
      (unsigned long long)hi ^ ((unsigned long long)lo << (53 - 32));
  return z * CURAND_2POW53_INV_DOUBLE + CURAND_2POW53_INV_DOUBLE / 2.0;
}
__HG_RAND float2 box_muller(unsigned int x, unsigned int y) {
  float u = x * CURAND_2POW32_INV + CURAND_2POW32_INV / 2.0f;
  float v = y * CURAND_2POW32_INV_2PI + CURAND_2POW32_INV_2PI / 2.0f;
  float s = sqrtf(-2.0f * logf(u));
  float2 r;
  r.x = s * sinf(v);
  r.y = s * cosf(v);
  return r;
}
__HG_RAND double2 box_muller_double(uint4 w) {
  unsigned long long a =
      (unsigned long long)w.x ^ ((unsigned long long)w.y << (53 - 32));
  unsigned long long b =
      (unsigned long long)w.z ^ ((unsigned long long)w.w << (53 - 32));
  double u = a * CURAND_2POW53_INV_DOUBLE + CURAND_2POW53_INV_DOUBLE / 2.0;
  double v =
      b * CURAND_2POW53_INV_2PI_DOUBLE + CURAND_2POW53_INV_2PI_DOUBLE / 2.0;
  double s = sqrt(-2.0 * log(u));
  double2 r;
  r.x = s * sin(v);
  r.y = s * cos(v);
  return r;
}
} // namespace __hg_rand

/// Skips \p n 32-bit outputs.
__HG_RAND void skipahead(unsigned long long n, curandStatePhilox4_32_10 *s) {
  unsigned int word = s->STATE + (unsigned int)(n & 3);
  n /= 4;
  if (word > 3) {
    n += 1;
    word -= 4;
  }
  s->STATE = word;
  __hg_rand::add(s->ctr, n);
  s->output = __hg_rand::philox4x32_10(s->ctr, s->key);
}
/// Skips \p n subsequences of 2^66 outputs each.
__HG_RAND void skipahead_sequence(unsigned long long n,
                                  curandStatePhilox4_32_10 *s) {
  __hg_rand::add_hi(s->ctr, n);
  s->output = __hg_rand::philox4x32_10(s->ctr, s->key);
}
__HG_RAND void curand_init(unsigned long long seed,
                           unsigned long long subsequence,
                           unsigned long long offset,
                           curandStatePhilox4_32_10 *s) {
  s->ctr = make_uint4(0, 0, 0, 0);
  s->key = make_uint2((unsigned int)seed, (unsigned int)(seed >> 32));
  s->STATE = 0;
  s->boxmuller_flag = 0;
  s->boxmuller_flag_double = 0;
  s->boxmuller_extra = 0.f;
  s->boxmuller_extra_double = 0.;
  __hg_rand::add_hi(s->ctr, subsequence);
  skipahead(offset, s);
}
/// The next 32 random bits.
__HG_RAND unsigned int curand(curandStatePhilox4_32_10 *s) {
  unsigned int words[4] = {s->output.x, s->output.y, s->output.z, s->output.w};
  unsigned int r = words[s->STATE & 3];
  if (++s->STATE == 4) {
    s->STATE = 0;
    __hg_rand::add(s->ctr, 1);
    s->output = __hg_rand::philox4x32_10(s->ctr, s->key);
  }
  return r;
}
/// The next four words at once (what remains of the current block is
/// skipped, as cuRAND does).
__HG_RAND uint4 curand4(curandStatePhilox4_32_10 *s) {
  uint4 r;
  r.x = curand(s);
  r.y = curand(s);
  r.z = curand(s);
  r.w = curand(s);
  return r;
}
/// Uniform in (0, 1].
__HG_RAND float curand_uniform(curandStatePhilox4_32_10 *s) {
  return __hg_rand::uniform(curand(s));
}
__HG_RAND double curand_uniform_double(curandStatePhilox4_32_10 *s) {
  unsigned int hi = curand(s);
  unsigned int lo = curand(s);
  return __hg_rand::uniform_double(hi, lo);
}
__HG_RAND float4 curand_uniform4(curandStatePhilox4_32_10 *s) {
  uint4 w = curand4(s);
  return make_float4(__hg_rand::uniform(w.x), __hg_rand::uniform(w.y),
                     __hg_rand::uniform(w.z), __hg_rand::uniform(w.w));
}
__HG_RAND double2 curand_uniform2_double(curandStatePhilox4_32_10 *s) {
  uint4 w = curand4(s);
  return make_double2(__hg_rand::uniform_double(w.x, w.y),
                      __hg_rand::uniform_double(w.z, w.w));
}
/// Standard normal (Box-Muller; the second value of each pair is kept).
__HG_RAND float curand_normal(curandStatePhilox4_32_10 *s) {
  if (s->boxmuller_flag) {
    s->boxmuller_flag = 0;
    return s->boxmuller_extra;
  }
  unsigned int x = curand(s);
  unsigned int y = curand(s);
  float2 v = __hg_rand::box_muller(x, y);
  s->boxmuller_extra = v.y;
  s->boxmuller_flag = 1;
  return v.x;
}
__HG_RAND float2 curand_normal2(curandStatePhilox4_32_10 *s) {
  unsigned int x = curand(s);
  unsigned int y = curand(s);
  return __hg_rand::box_muller(x, y);
}
__HG_RAND float4 curand_normal4(curandStatePhilox4_32_10 *s) {
  uint4 w = curand4(s);
  float2 a = __hg_rand::box_muller(w.x, w.y);
  float2 b = __hg_rand::box_muller(w.z, w.w);
  return make_float4(a.x, a.y, b.x, b.y);
}
__HG_RAND double curand_normal_double(curandStatePhilox4_32_10 *s) {
  if (s->boxmuller_flag_double) {
    s->boxmuller_flag_double = 0;
    return s->boxmuller_extra_double;
  }
  double2 v = __hg_rand::box_muller_double(curand4(s));
  s->boxmuller_extra_double = v.y;
  s->boxmuller_flag_double = 1;
  return v.x;
}
__HG_RAND double2 curand_normal2_double(curandStatePhilox4_32_10 *s) {
  return __hg_rand::box_muller_double(curand4(s));
}
__HG_RAND float curand_log_normal(curandStatePhilox4_32_10 *s, float mean,
                                  float stddev) {
  return expf(mean + stddev * curand_normal(s));
}
__HG_RAND double curand_log_normal_double(curandStatePhilox4_32_10 *s,
                                          double mean, double stddev) {
  return exp(mean + stddev * curand_normal_double(s));
}

#pragma pop_macro("__HG_RAND")

#endif // __CUDA__

#endif // HETGPU_CURAND_KERNEL_H
