// bench/cpu/kernels.cl - OpenCL C twins of the kernels in bench/nvidia/bench.cu,
// run on PoCL by ocl_bench.cpp as the CPU baseline for hetGPU's CPU device.
// SPDX-License-Identifier: Apache-2.0
//
// Same algorithms, tile sizes and work-group shapes as the CUDA versions.
// Warp-level operations (__shfl_*_sync, __ballot/__any/__all_sync) become
// local-memory exchanges within each 32-lane slice of the work-group with
// barriers (portable; does not depend on cl_khr_subgroups).

#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable

#define TILE 32

kernel void emptyKernel(void) {}

kernel void vecAdd(global const float *restrict a,
                   global const float *restrict b, global float *restrict c,
                   int n) {
  int i = get_global_id(0);
  if (i < n)
    c[i] = a[i] + b[i];
}

kernel void saxpy(int n, float a, global const float *restrict x,
                  global float *restrict y) {
  for (int i = get_global_id(0); i < n; i += get_global_size(0))
    y[i] = a * x[i] + y[i];
}

kernel void matmul(global const float *restrict A,
                   global const float *restrict B, global float *restrict C,
                   int n) {
  local float As[TILE][TILE];
  local float Bs[TILE][TILE + 1];
  int tx = get_local_id(0), ty = get_local_id(1);
  int row = get_group_id(1) * TILE + ty;
  int col = get_group_id(0) * TILE + tx;
  float acc = 0.f;
  for (int t = 0; t < n; t += TILE) {
    As[ty][tx] = A[row * n + t + tx];
    Bs[ty][tx] = B[(t + ty) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (int k = 0; k < TILE; ++k)
      acc += As[ty][k] * Bs[k][tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[row * n + col] = acc;
}

static void atomicAddFloat(global float *p, float v) {
  union { unsigned u; float f; } o, w;
  do {
    o.f = *(volatile global float *)p;
    w.f = o.f + v;
  } while (atomic_cmpxchg((volatile global unsigned *)p, o.u, w.u) != o.u);
}

// Sum of each 32-lane slice, delivered to lane 0 (tree in local memory).
// All work-items of the group must call it; buf holds get_local_size(0).
static float sliceSum(local float *buf, float v) {
  int l = get_local_id(0), lane = l & 31;
  buf[l] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int o = 16; o > 0; o >>= 1) {
    if (lane < o)
      buf[l] += buf[l + o];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  return buf[l];
}

kernel void reduceSum(global const float *restrict in, global float *out,
                      int n) {
  local float buf[1024];
  local float warpSums[32];
  float v = 0.f;
  for (int i = get_global_id(0); i < n; i += get_global_size(0))
    v += in[i];
  int l = get_local_id(0), lane = l & 31, warp = l >> 5;
  v = sliceSum(buf, v);
  if (lane == 0)
    warpSums[warp] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  v = (warp == 0 && lane < (int)(get_local_size(0) >> 5)) ? warpSums[lane]
                                                            : 0.f;
  v = sliceSum(buf, v);
  if (l == 0)
    atomicAddFloat(out, v);
}

// Inclusive scan within each 32-lane slice (the __shfl_up_sync loop).
static int sliceScan(local int *buf, int v) {
  int l = get_local_id(0), lane = l & 31;
  for (int d = 1; d < 32; d <<= 1) {
    buf[l] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lane >= d)
      v += buf[l - d];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  return v;
}

kernel void blockScan(global const int *restrict in, global int *restrict out,
                      int n) {
  local int buf[1024];
  local int totals[32];
  int i = get_global_id(0), l = get_local_id(0);
  int lane = l & 31, warp = l >> 5;
  int v = i < n ? in[i] : 0;
  v = sliceScan(buf, v);
  if (lane == 31)
    totals[warp] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  int t = (warp == 0 && lane < (int)(get_local_size(0) >> 5)) ? totals[lane]
                                                                : 0;
  t = sliceScan(buf, t);
  if (warp == 0)
    totals[lane] = t;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (warp > 0)
    v += totals[warp - 1];
  if (i < n)
    out[i] = v;
}

kernel void warpVote(global const int *restrict in, global int *restrict counts,
                     int n) {
  local int xs[1024];
  int i = get_global_id(0), l = get_local_id(0);
  int x = i < n ? in[i] : 0;
  xs[l] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  if ((l & 31) == 0) {
    unsigned pop = 0;
    int any = 0, all = 1;
    for (int k = 0; k < 32; ++k) {
      int y = xs[l + k];
      pop += y & 1;
      any |= y > 1000000;
      all &= y >= 0;
    }
    atomic_add(&counts[get_group_id(0) & 255], (int)pop + any * 64 + all * 4096);
  }
}

kernel void monteCarloPi(ulong seed, int samplesPerThread,
                         global ulong *hits) {
  local float buf[1024];
  ulong s = seed ^ (0x9E3779B97F4A7C15ul * (ulong)(get_global_id(0) + 1));
  unsigned count = 0;
  for (int k = 0; k < samplesPerThread; ++k) {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    float x = (s & 0xffffff) * (1.0f / 16777216.0f);
    float y = ((s >> 24) & 0xffffff) * (1.0f / 16777216.0f);
    count += (x * x + y * y <= 1.0f);
  }
  // Counts are < 2^24, so a float slice sum is exact.
  float c = sliceSum(buf, (float)count);
  if ((get_local_id(0) & 31) == 0)
    atom_add(hits, (ulong)c);
}

kernel void denseBiasRelu(global const float *restrict x,
                          global const float *restrict W,
                          global const float *restrict bias,
                          global float *restrict y, int batch, int in,
                          int outF) {
  local float xs[16][16];
  local float ws[16][17];
  int tx = get_local_id(0), ty = get_local_id(1);
  int b = get_group_id(1) * 16 + ty;
  int o = get_group_id(0) * 16 + tx;
  float acc = 0.f;
  for (int t = 0; t < in; t += 16) {
    xs[ty][tx] = x[b * in + t + tx];
    ws[ty][tx] = W[(get_group_id(0) * 16 + ty) * in + t + tx];
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (int k = 0; k < 16; ++k)
      acc += xs[ty][k] * ws[tx][k];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  y[b * outF + o] = fmax(acc + bias[o], 0.f);
}

kernel void transpose(global const float *restrict in,
                      global float *restrict out, int n) {
  local float tile[32][33];
  int tx = get_local_id(0), ty = get_local_id(1);
  int x = get_group_id(0) * 32 + tx;
  int y = get_group_id(1) * 32 + ty;
  for (int j = 0; j < 32; j += 8)
    tile[ty + j][tx] = in[(y + j) * n + x];
  barrier(CLK_LOCAL_MEM_FENCE);
  x = get_group_id(1) * 32 + tx;
  y = get_group_id(0) * 32 + ty;
  for (int j = 0; j < 32; j += 8)
    out[(y + j) * n + x] = tile[tx][ty + j];
}

kernel void histogram(global const uchar *restrict data, int n,
                      global unsigned *restrict bins) {
  local unsigned lbins[256];
  int l = get_local_id(0), ls = get_local_size(0);
  for (int i = l; i < 256; i += ls)
    lbins[i] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int i = get_global_id(0); i < n; i += get_global_size(0))
    atomic_inc(&lbins[data[i]]);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int i = l; i < 256; i += ls)
    if (lbins[i])
      atomic_add(&bins[i], lbins[i]);
}
