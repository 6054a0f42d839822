// Inline PTX special registers, CUB-style scoped shuffle blocks with the
// predicate output, votes, match, barriers, fences, loads and stores with
// state spaces, cache operators and vector forms, guarded stores, and
// atomics, run on the CPU device through hetgpu-cc and checked against a
// host model of the PTX ISA semantics.
// REQUIRES: built-target-host
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_DEVICE=cpu %t | FileCheck %s
// CHECK: sregs ok
// CHECK-NEXT: shfl ok
// CHECK-NEXT: vote/match ok
// CHECK-NEXT: shared/barrier ok
// CHECK-NEXT: ld/st ok
// CHECK-NEXT: atomics ok
// CHECK-NEXT: PASS
#include <cstdint>
#include <cstdio>
#include <vector>

#define T 64
#define OUTS 40

// CUB 1.17 WarpScanShfl::InclusiveScanStep (unsigned int, sum).
__device__ unsigned scanStep(unsigned input, int offset, unsigned shfl_c) {
  unsigned output;
  asm volatile(
      "{"
      "  .reg .u32 r0;"
      "  .reg .pred p;"
      "  shfl.sync.up.b32 r0|p, %1, %2, %3, %5;"
      "  @p add.u32 r0, r0, %4;"
      "  mov.u32 %0, r0;"
      "}"
      : "=r"(output)
      : "r"(input), "r"(offset), "r"(shfl_c), "r"(input), "r"(0xffffffffu));
  return output;
}

// CUB 1.17 WarpReduceShfl::ReduceStep (unsigned int, sum).
__device__ unsigned reduceStep(unsigned input, int offset, unsigned shfl_c) {
  unsigned output;
  asm volatile(
      "{"
      "  .reg .u32 r0;"
      "  .reg .pred p;"
      "  shfl.sync.down.b32 r0|p, %1, %2, %3, %5;"
      "  @p add.u32 r0, r0, %4;"
      "  mov.u32 %0, r0;"
      "}"
      : "=r"(output)
      : "r"(input), "r"(offset), "r"(shfl_c), "r"(input), "r"(0xffffffffu));
  return output;
}

__global__ void kern(const unsigned *in, unsigned *out, unsigned *mem,
                     unsigned long long *mem64, float *fmem) {
  __shared__ unsigned sh[T];
  unsigned t = threadIdx.x;
  unsigned *o = out + OUTS * t;
  unsigned v = in[t], r;
  // Special registers.
  asm("mov.u32 %0, %%laneid;" : "=r"(r)); o[0] = r;
  asm("mov.u32 %0, %%warpid;" : "=r"(r)); o[1] = r;
  asm("mov.u32 %0, %%nwarpid;" : "=r"(r)); o[2] = r;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(r)); o[3] = r;
  asm("mov.u32 %0, %%lanemask_le;" : "=r"(r)); o[4] = r;
  asm("mov.u32 %0, %%lanemask_gt;" : "=r"(r)); o[5] = r;
  asm("mov.u32 %0, %%lanemask_ge;" : "=r"(r)); o[6] = r;
  asm("mov.u32 %0, %%lanemask_eq;" : "=r"(r)); o[7] = r;
  unsigned x, n, s, ns;
  asm("mov.u32 %0, %%tid.x;\n\tmov.u32 %1, %%ntid.x;\n\tmov.u32 %2, %%smid;\n\tmov.u32 %3, %%nsmid;"
      : "=r"(x), "=r"(n), "=r"(s), "=r"(ns));
  o[8] = x; o[9] = n; o[10] = s < ns;
  unsigned long long c1, c2;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(c1));
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(c2));
  o[11] = c2 >= c1;
  // Shuffles: CUB's scan and reduction steps, widths 32 and 8.
  unsigned sc = v, rd = v, sc8 = v;
  for (int off = 1; off < 32; off *= 2)
    sc = scanStep(sc, off, 0);
  for (int off = 1; off < 8; off *= 2)
    sc8 = scanStep(sc8, off, (32 - 8) << 8);
  for (int off = 16; off > 0; off /= 2)
    rd = reduceStep(rd, off, 31);
  o[12] = sc; o[13] = sc8; o[14] = rd;
  asm volatile("shfl.sync.idx.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(v), "r"(t * 7), "r"(0x181f), "r"(0xffffffffu));
  o[15] = r;
  asm volatile("shfl.sync.bfly.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(v), "r"(5), "r"(0x1f), "r"(0xffffffffu));
  o[16] = r;
  // A non-CUDA clamp value (lanes above 12 keep their own value).
  unsigned pr;
  asm volatile("{ .reg .pred q; shfl.sync.down.b32 %0|q, %2, 3, 0x0c, 0xffffffff; selp.u32 %1, 1, 0, q; }"
               : "=r"(r), "=r"(pr) : "r"(v));
  o[17] = r; o[18] = pr;
  float fv = v * 0.5f, fr;
  asm volatile("shfl.sync.idx.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=f"(fr) : "f"(fv), "r"(3u));
  o[19] = (unsigned)fr;
  // Votes and match.
  asm volatile("{ .reg .pred p; setp.ne.u32 p, %1, 0; vote.sync.ballot.b32 %0, p, 0xffffffff; }"
               : "=r"(r) : "r"(v & 1));
  o[20] = r;
  asm volatile("{ .reg .pred p, q; setp.lt.u32 p, %1, 40; vote.sync.all.pred q, p, 0xffffffff; selp.u32 %0, 1, 0, q; }"
               : "=r"(r) : "r"(t));
  o[21] = r;
  asm volatile("{ .reg .pred p, q; setp.eq.u32 p, %1, 37; vote.sync.any.pred q, p, 0xffffffff; selp.u32 %0, 1, 0, q; }"
               : "=r"(r) : "r"(t));
  o[22] = r;
  asm volatile("{ .reg .pred p, q; setp.ge.u32 p, %1, 32; vote.sync.uni.pred q, !p, 0xffffffff; selp.u32 %0, 1, 0, q; }"
               : "=r"(r) : "r"(t));
  o[23] = r;
  asm volatile("match.any.sync.b32 %0, %1, 0xffffffff;" : "=r"(r) : "r"(v % 4));
  o[24] = r;
  asm volatile("{ .reg .pred p; match.all.sync.b32 %0|p, %2, 0xffffffff; selp.u32 %1, 1, 0, p; }"
               : "=r"(r), "=r"(pr) : "r"(t / 32));
  o[25] = r; o[26] = pr;
  asm volatile("activemask.b32 %0;" : "=r"(r));
  o[27] = r;
  asm volatile("bar.warp.sync 0xffffffff;");
  // Shared memory through cvta'd 32-bit addresses, across a barrier.
  unsigned sa, sb;
  asm("cvta.to.shared.u32 %0, %1;" : "=r"(sa) : "l"(&sh[t]));
  asm("cvta.to.shared.u32 %0, %1;" : "=r"(sb) : "l"(&sh[(t + 1) % T]));
  asm volatile("st.shared.u32 [%0], %1;" :: "r"(sa), "r"(v * 3) : "memory");
  asm volatile("bar.sync 0;" ::: "memory");
  asm volatile("ld.shared.u32 %0, [%1];" : "=r"(r) : "r"(sb) : "memory");
  o[28] = r;
  asm volatile("bar.red.popc.u32 %0, 0, %1;" : "=r"(r) : "r"(t % 3 == 0));
  o[29] = r;
  // Loads and stores.
  uint4 q4;
  asm volatile("ld.global.nc.v4.u32 {%0, %1, %2, %3}, [%4];"
               : "=r"(q4.x), "=r"(q4.y), "=r"(q4.z), "=r"(q4.w) : "l"(in + (t & ~3u)));
  o[30] = q4.x ^ q4.y ^ q4.z ^ q4.w;
  unsigned long long l0, l1;
  asm volatile("ld.global.cg.v2.u64 {%0, %1}, [%2];" : "=l"(l0), "=l"(l1) : "l"(in + (t & ~3u)));
  o[31] = (unsigned)(l0 + (l1 >> 32));
  unsigned short h;
  asm volatile("{ .reg .u8 datum; ld.global.ca.u8 datum, [%1+1]; cvt.u16.u8 %0, datum; }" : "=h"(h) : "l"(in + t));
  o[32] = h;
  int sb8;
  asm volatile("ld.global.cs.s8 %0, [%1+3];" : "=r"(sb8) : "l"(in + t));
  o[33] = sb8;
  asm volatile("st.global.cg.v2.u32 [%0], {%1, %2};" :: "l"(mem + 2 * t), "r"(v), "r"(~v) : "memory");
  asm volatile("{ .reg .pred p; setp.eq.u32 p, %2, 0; @p st.global.wb.u32 [%0+4], %1; }"
               :: "l"(mem + 2 * t), "r"(t), "r"(t % 2) : "memory");
  asm volatile("membar.gl;" ::: "memory");
  asm volatile("st.release.gpu.global.u32 [%0], %1;" :: "l"(mem + 2 * T + t), "r"(t + 1) : "memory");
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(r) : "l"(mem + 2 * T + t) : "memory");
  o[34] = r;
  asm volatile("ld.volatile.global.u32 %0, [%1];" : "=r"(r) : "l"(mem + 2 * T + t));
  o[35] = r;
  // Atomics: per-thread words for returned values, shared counters.
  unsigned *mine = mem + 3 * T + 4 * t;
  asm volatile("atom.global.cas.b32 %0, [%1], %2, %3;" : "=r"(r) : "l"(mine), "r"(0u), "r"(v) : "memory");
  o[36] = r; // 0 (the word starts at 0), now v
  asm volatile("atom.global.exch.b32 %0, [%1], %2;" : "=r"(r) : "l"(mine), "r"(t) : "memory");
  o[37] = r; // v
  asm volatile("atom.global.inc.u32 %0, [%1], 2;" : "=r"(r) : "l"(mine + 1) : "memory");
  asm volatile("atom.global.inc.u32 %0, [%1], 2;" : "=r"(r) : "l"(mine + 1) : "memory");
  asm volatile("atom.global.inc.u32 %0, [%1], 2;" : "=r"(r) : "l"(mine + 1) : "memory");
  o[38] = r; // 2, and the word wrapped to 0
  asm volatile("atom.global.dec.u32 %0, [%1], 5;" : "=r"(r) : "l"(mine + 2) : "memory");
  o[39] = r; // 0, the word is now 5
  unsigned *ctr = mem + 7 * T;
  asm volatile("red.global.add.u32 [%0], %1;" :: "l"(ctr), "r"(v & 0xffff) : "memory");
  asm volatile("atom.global.max.s32 %0, [%1], %2;" : "=r"(r) : "l"(ctr + 1), "r"((int)v >> 8) : "memory");
  asm volatile("atom.global.min.u32 %0, [%1], %2;" : "=r"(r) : "l"(ctr + 2), "r"(v) : "memory");
  asm volatile("atom.global.or.b32 %0, [%1], %2;" : "=r"(r) : "l"(ctr + 3), "r"(1u << (t % 32)) : "memory");
  asm volatile("atom.global.xor.b32 %0, [%1], %2;" : "=r"(r) : "l"(ctr + 4), "r"(v) : "memory");
  asm volatile("atom.global.and.b32 %0, [%1], %2;" : "=r"(r) : "l"(ctr + 5), "r"(~(1u << (t % 32))) : "memory");
  asm volatile("atom.global.add.u64 %0, [%1], %2;" : "=l"(l0) : "l"(mem64), "l"((unsigned long long)v << 20) : "memory");
  asm volatile("atom.global.add.f32 %0, [%1], %2;" : "=f"(fr) : "l"(fmem), "f"(0.25f) : "memory");
}

static unsigned shflModel(const unsigned *vals, unsigned lane, char mode, unsigned b, unsigned c, bool *p) {
  unsigned bval = b & 31, cval = c & 31, seg = (c >> 8) & 31;
  int maxLane = (lane & seg) | (cval & ~seg), minLane = lane & seg, j;
  bool pv;
  switch (mode) {
  case 'u': j = (int)lane - (int)bval; pv = j >= maxLane; break;
  case 'd': j = lane + bval; pv = j <= maxLane; break;
  case 'b': j = lane ^ bval; pv = j <= maxLane; break;
  default: j = minLane | (bval & ~seg); pv = j <= maxLane; break;
  }
  if (p) *p = pv;
  return vals[pv ? j : lane];
}

int main() {
  std::vector<unsigned> in(T), out(OUTS * T), ref(OUTS * T), mem(8 * T);
  uint64_t s = 0x243f6a8885a308d3ull;
  for (unsigned &x : in) {
    s ^= s << 13; s ^= s >> 7; s ^= s << 17;
    x = (unsigned)(s >> 9);
  }
  mem[7 * T + 2] = 0xffffffffu; // min
  mem[7 * T + 5] = 0xffffffffu; // and
  unsigned *din, *dout, *dmem;
  unsigned long long *d64, h64 = 0;
  float *df, hf = 0;
  cudaMalloc(&din, T * 4);
  cudaMalloc(&dout, out.size() * 4);
  cudaMalloc(&dmem, mem.size() * 4);
  cudaMalloc(&d64, 8);
  cudaMalloc(&df, 4);
  cudaMemcpy(din, in.data(), T * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dmem, mem.data(), mem.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(d64, &h64, 8, cudaMemcpyHostToDevice);
  cudaMemcpy(df, &hf, 4, cudaMemcpyHostToDevice);
  kern<<<1, T>>>(din, dout, dmem, d64, df);
  std::vector<unsigned> mout(mem.size());
  cudaMemcpy(out.data(), dout, out.size() * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(mout.data(), dmem, mem.size() * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(&h64, d64, 8, cudaMemcpyDeviceToHost);
  cudaMemcpy(&hf, df, 4, cudaMemcpyDeviceToHost);

  for (unsigned t = 0; t < T; ++t) {
    unsigned *o = &ref[OUTS * t], lane = t % 32, w = t / 32;
    const unsigned *wv = &in[32 * w];
    unsigned v = in[t];
    o[0] = lane; o[1] = w; o[2] = T / 32;
    o[3] = (1u << lane) - 1; o[4] = (unsigned)((2ull << lane) - 1);
    o[5] = ~o[4]; o[6] = ~o[3]; o[7] = 1u << lane;
    o[8] = t; o[9] = T; o[10] = 1; o[11] = 1;
    unsigned sc = 0, sc8 = 0, rd = 0;
    for (unsigned k = 0; k <= lane; ++k) sc += wv[k];
    for (unsigned k = lane & ~7u; k <= lane; ++k) sc8 += wv[k];
    { unsigned cur[32];
      for (unsigned k = 0; k < 32; ++k) cur[k] = wv[k];
      for (unsigned off = 16; off > 0; off /= 2) {
        unsigned nx[32];
        for (unsigned k = 0; k < 32; ++k) nx[k] = k + off <= 31 ? cur[k + off] + cur[k] : cur[k];
        for (unsigned k = 0; k < 32; ++k) cur[k] = nx[k];
      }
      rd = cur[lane]; }
    o[12] = sc; o[13] = sc8; o[14] = rd;
    o[15] = shflModel(wv, lane, 'i', t * 7, 0x181f, nullptr);
    o[16] = shflModel(wv, lane, 'b', 5, 0x1f, nullptr);
    bool p;
    o[17] = shflModel(wv, lane, 'd', 3, 0x0c, &p); o[18] = p;
    o[19] = (unsigned)(wv[3] * 0.5f);
    unsigned ballot = 0, m4 = 0;
    for (unsigned k = 0; k < 32; ++k) {
      ballot |= (wv[k] & 1) << k;
      m4 |= (wv[k] % 4 == v % 4) << k;
    }
    o[20] = ballot; o[21] = w == 0; o[22] = w == 1; o[23] = 1;
    o[24] = m4; o[25] = 0xffffffffu; o[26] = 1; o[27] = 0xffffffffu;
    o[28] = in[(t + 1) % T] * 3;
    o[29] = (T + 2) / 3;
    unsigned b4 = t & ~3u;
    o[30] = in[b4] ^ in[b4 + 1] ^ in[b4 + 2] ^ in[b4 + 3];
    uint64_t L0 = in[b4] | (uint64_t)in[b4 + 1] << 32, L1 = in[b4 + 2] | (uint64_t)in[b4 + 3] << 32;
    o[31] = (unsigned)(L0 + (L1 >> 32));
    o[32] = (v >> 8) & 0xff;
    o[33] = (unsigned)(int)(int8_t)(v >> 24);
    o[34] = o[35] = t + 1;
    o[36] = 0; o[37] = v; o[38] = 2; o[39] = 0;
  }
  bool Ok[6] = {true, true, true, true, true, true};
  static const int Group[OUTS] = {0,0,0,0,0,0,0,0,0,0,0,0, 1,1,1,1,1,1,1,1, 2,2,2,2,2,2,2,2,
                                  3,3, 4,4,4,4,4,4, 5,5,5,5};
  int Reported = 0;
  for (int t = 0; t < T; ++t)
    for (int k = 0; k < OUTS; ++k)
      if (out[OUTS * t + k] != ref[OUTS * t + k]) {
        Ok[Group[k]] = false;
        if (Reported++ < 8)
          printf("FAIL thread %d out[%d] = 0x%08x, expected 0x%08x\n", t, k, out[OUTS * t + k], ref[OUTS * t + k]);
      }
  // Memory after the kernel.
  unsigned sum = 0, xr = 0, mn = 0xffffffffu;
  int mx = 0;
  for (int t = 0; t < T; ++t) {
    unsigned v = in[t];
    bool ok = mout[2 * t] == v && mout[2 * t + 1] == (t % 2 ? ~v : (unsigned)t) &&
              mout[2 * T + t] == (unsigned)t + 1;
    Ok[4] &= ok;
    Ok[5] &= mout[3 * T + 4 * t] == (unsigned)t && mout[3 * T + 4 * t + 1] == 0 &&
             mout[3 * T + 4 * t + 2] == 5;
    sum += v & 0xffff; xr ^= v; mn = v < mn ? v : mn;
    mx = ((int)v >> 8) > mx ? ((int)v >> 8) : mx;
  }
  uint64_t s64 = 0;
  for (int t = 0; t < T; ++t) s64 += (uint64_t)in[t] << 20;
  const unsigned *ctr = &mout[7 * T];
  Ok[5] &= ctr[0] == sum && (int)ctr[1] == mx && ctr[2] == mn && ctr[3] == 0xffffffffu &&
           ctr[4] == xr && ctr[5] == 0 && h64 == s64 && hf == 16.0f;
  if (!Ok[5])
    printf("atomics: sum %u/%u max %d/%d min %u/%u or %x and %x xor %x/%x u64 %llx/%llx f %g\n",
           ctr[0], sum, (int)ctr[1], mx, ctr[2], mn, ctr[3], ctr[5], ctr[4], xr,
           (unsigned long long)h64, (unsigned long long)s64, hf);
  const char *Names[6] = {"sregs", "shfl", "vote/match", "shared/barrier", "ld/st", "atomics"};
  bool All = true;
  for (int g = 0; g < 6; ++g) {
    printf("%s %s\n", Names[g], Ok[g] ? "ok" : "FAILED");
    All &= Ok[g];
  }
  printf(All ? "PASS\n" : "FAIL\n");
  return All ? 0 : 1;
}
