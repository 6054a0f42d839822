// Warp builtins on the GPU against a host model of CUDA's semantics:
// shuffles of every kind and width (ints, floats, doubles), votes, ballot,
// activemask under divergence, match_any and syncwarp.
// REQUIRES: gpu-nvidia
// RUN: hetgpu-cc -O2 %s -o %t
// RUN: env HETGPU_DEVICE=nvidia %t | FileCheck %s
// CHECK: device: NVIDIA
// CHECK: shuffles ok
// CHECK: votes ok
// CHECK: activemask ok
// CHECK: match ok
// CHECK: PASS
// CHECK-NOT: FAIL
#include "Inputs/gpu.h"
#include <vector>

__global__ void shuffles(const int *in, int *out, float *fout, double *dout) {
  int t = threadIdx.x;
  int v = in[t];
  int base = t * 12;
  out[base + 0] = __shfl_sync(0xffffffffu, v, (t * 7) % 32);
  out[base + 1] = __shfl_sync(0xffffffffu, v, 3, 8);
  out[base + 2] = __shfl_up_sync(0xffffffffu, v, 3);
  out[base + 3] = __shfl_up_sync(0xffffffffu, v, 2, 16);
  out[base + 4] = __shfl_down_sync(0xffffffffu, v, 5);
  out[base + 5] = __shfl_down_sync(0xffffffffu, v, 1, 4);
  out[base + 6] = __shfl_xor_sync(0xffffffffu, v, 9);
  out[base + 7] = __shfl_xor_sync(0xffffffffu, v, 1, 2);
  fout[t] = __shfl_down_sync(0xffffffffu, v * 0.5f, 2);
  dout[t] = __shfl_xor_sync(0xffffffffu, v * 0.25 + 1e10, 16);
  long long l = ((long long)v << 33) | t;
  long long r = __shfl_sync(0xffffffffu, l, 31 - (t & 31));
  out[base + 8] = (int)(r >> 33);
  out[base + 9] = (int)(r & 0xffffffff);
}

// Host model: segment of `width` lanes, sources outside it return own value.
static int hostShfl(const int *w, int lane, int src, int width) {
  int seg = lane & ~(width - 1);
  return w[seg + (src & (width - 1))];
}
static int hostUp(const int *w, int lane, int d, int width) {
  int seg = lane & ~(width - 1);
  int s = lane - d;
  return s < seg ? w[lane] : w[s];
}
static int hostDown(const int *w, int lane, int d, int width) {
  int seg = lane & ~(width - 1);
  int s = lane + d;
  return s >= seg + width ? w[lane] : w[s];
}
static int hostXor(const int *w, int lane, int m, int width) {
  int seg = lane & ~(width - 1);
  int s = lane ^ m;
  return s >= seg + width ? w[lane] : w[s];
}

__global__ void votes(const int *in, unsigned *out) {
  int t = threadIdx.x;
  int p = in[t];
  out[t * 4 + 0] = __ballot_sync(0xffffffffu, p & 1);
  out[t * 4 + 1] = __any_sync(0xffffffffu, p > 90);
  out[t * 4 + 2] = __all_sync(0xffffffffu, p >= 0);
  out[t * 4 + 3] = __syncthreads_count(p & 2) * 1000 + __syncthreads_and(p < 100) * 10 +
                   __syncthreads_or(p == 7);
}

__global__ void divergent(unsigned *out) {
  int lane = threadIdx.x & 31;
  unsigned m = 0;
  if (lane % 3 == 0)
    m = __activemask();
  else if (lane < 20)
    m = __activemask() | 0x80000000u;
  __syncwarp();
  out[threadIdx.x] = m;
}

__global__ void matchAny(const int *in, unsigned *out) {
  out[threadIdx.x] = __match_any_sync(0xffffffffu, in[threadIdx.x] % 5);
}

int main() {
  printDevice();
  const int N = 64;
  std::vector<int> h(N);
  for (int i = 0; i < N; ++i)
    h[i] = (i * 37 + 11) % 101;
  int *din;
  CK(cudaMalloc(&din, N * sizeof(int)));
  CK(cudaMemcpy(din, h.data(), N * sizeof(int), cudaMemcpyHostToDevice));
  {
    int *dout;
    float *df;
    double *dd;
    CK(cudaMalloc(&dout, N * 12 * sizeof(int)));
    CK(cudaMalloc(&df, N * sizeof(float)));
    CK(cudaMalloc(&dd, N * sizeof(double)));
    shuffles<<<1, N>>>(din, dout, df, dd);
    CK(cudaGetLastError());
    std::vector<int> o(N * 12);
    std::vector<float> fo(N);
    std::vector<double> dob(N);
    CK(cudaMemcpy(o.data(), dout, o.size() * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(fo.data(), df, N * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(dob.data(), dd, N * sizeof(double), cudaMemcpyDeviceToHost));
    for (int t = 0; t < N; ++t) {
      const int *w = &h[t & ~31];
      int l = t & 31, *r = &o[t * 12];
      EXPECT(r[0] == hostShfl(w, l, (t * 7) % 32, 32), "idx t=%d", t);
      EXPECT(r[1] == hostShfl(w, l, 3, 8), "idx w8 t=%d", t);
      EXPECT(r[2] == hostUp(w, l, 3, 32), "up t=%d got %d", t, r[2]);
      EXPECT(r[3] == hostUp(w, l, 2, 16), "up w16 t=%d", t);
      EXPECT(r[4] == hostDown(w, l, 5, 32), "down t=%d", t);
      EXPECT(r[5] == hostDown(w, l, 1, 4), "down w4 t=%d", t);
      EXPECT(r[6] == hostXor(w, l, 9, 32), "xor t=%d", t);
      EXPECT(r[7] == hostXor(w, l, 1, 2), "xor w2 t=%d", t);
      EXPECT(fo[t] == hostDown(w, l, 2, 32) * 0.5f, "float down t=%d", t);
      EXPECT(dob[t] == hostXor(w, l, 16, 32) * 0.25 + 1e10, "double xor t=%d", t);
      EXPECT(r[8] == w[31 - l] && r[9] == (t & ~31) + 31 - l, "i64 idx t=%d", t);
    }
    CK(cudaFree(dout));
    CK(cudaFree(df));
    CK(cudaFree(dd));
    std::printf("shuffles ok\n");
  }
  {
    unsigned *dout;
    CK(cudaMalloc(&dout, N * 4 * sizeof(unsigned)));
    votes<<<1, N>>>(din, dout);
    CK(cudaGetLastError());
    std::vector<unsigned> o(N * 4);
    CK(cudaMemcpy(o.data(), dout, o.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
    int cnt = 0, all = 1, any = 0;
    for (int i = 0; i < N; ++i) {
      cnt += (h[i] & 2) != 0;
      all &= h[i] < 100;
      any |= h[i] == 7;
    }
    for (int w = 0; w < N / 32; ++w) {
      unsigned ballot = 0;
      int wany = 0, wall = 1;
      for (int l = 0; l < 32; ++l) {
        ballot |= unsigned(h[w * 32 + l] & 1) << l;
        wany |= h[w * 32 + l] > 90;
        wall &= h[w * 32 + l] >= 0;
      }
      for (int l = 0; l < 32; ++l) {
        const unsigned *r = &o[(w * 32 + l) * 4];
        EXPECT(r[0] == ballot, "ballot w=%d got %x want %x", w, r[0], ballot);
        EXPECT((r[1] != 0) == (wany != 0), "any w=%d", w);
        EXPECT((r[2] != 0) == (wall != 0), "all w=%d", w);
        EXPECT(r[3] == unsigned(cnt * 1000 + all * 10 + any), "syncthreads_* got %u",
               r[3]);
      }
    }
    CK(cudaFree(dout));
    std::printf("votes ok\n");
  }
  {
    unsigned *dout;
    CK(cudaMalloc(&dout, 32 * sizeof(unsigned)));
    divergent<<<1, 32>>>(dout);
    CK(cudaGetLastError());
    unsigned o[32];
    CK(cudaMemcpy(o, dout, sizeof(o), cudaMemcpyDeviceToHost));
    unsigned a = 0, b = 0;
    for (int l = 0; l < 32; ++l) {
      if (l % 3 == 0)
        a |= 1u << l;
      else if (l < 20)
        b |= 1u << l;
    }
    for (int l = 0; l < 32; ++l) {
      unsigned want = l % 3 == 0 ? a : l < 20 ? (b | 0x80000000u) : 0;
      EXPECT(o[l] == want, "activemask lane %d got %x want %x", l, o[l], want);
    }
    CK(cudaFree(dout));
    std::printf("activemask ok\n");
  }
  {
    unsigned *dout;
    CK(cudaMalloc(&dout, N * sizeof(unsigned)));
    matchAny<<<1, N>>>(din, dout);
    CK(cudaGetLastError());
    std::vector<unsigned> o(N);
    CK(cudaMemcpy(o.data(), dout, N * sizeof(unsigned), cudaMemcpyDeviceToHost));
    for (int t = 0; t < N; ++t) {
      unsigned want = 0;
      for (int l = 0; l < 32; ++l)
        if (h[(t & ~31) + l] % 5 == h[t] % 5)
          want |= 1u << l;
      EXPECT(o[t] == want, "match t=%d got %x want %x", t, o[t], want);
    }
    CK(cudaFree(dout));
    std::printf("match ok\n");
  }
  CK(cudaFree(din));
  std::printf("PASS\n");
  return 0;
}
