// mma.h (nvcuda::wmma) in portable code: the device IR uses no warp
// builtin but the lane id, and a 16x16x16 half GEMM, a tile of 32x8x16
// bfloat16, an int8 GEMM and an 8x8x4 double GEMM with a column-major
// accumulator give the host reference results on the CPU device.
// RUN: %clangxx %cuda_device -O3 -emit-llvm -S %s -o - \
// RUN:   | FileCheck %s --check-prefix=IR --implicit-check-not=llvm.nvvm \
// RUN:       --implicit-check-not=@__hetgpu_shfl
// IR: call {{.*}}i32 @__hetgpu_lane_id()
// REQUIRES: target-host
// RUN: hetgpu-cc %s -o %t
// RUN: env HETGPU_DEVICE=cpu %t | FileCheck %s
// CHECK: half max-error 0{{$}}
// CHECK: bf16 max-error 0
// CHECK: int8 max-error 0
// CHECK: double max-error 0
// CHECK: tf32 max-error 0
#include <cstdio>
#include <mma.h>
using namespace nvcuda;

__global__ void gemm_half(const __half *a, const __half *b, float *c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(fc, fa, fb, fc);
  for (int i = 0; i < fc.num_elements; ++i)
    fc.x[i] *= 2.0f;
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}
__global__ void gemm_bf16(const __nv_bfloat16 *a, const __nv_bfloat16 *b,
                          float *c) {
  wmma::fragment<wmma::matrix_a, 32, 8, 16, __nv_bfloat16, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 32, 8, 16, __nv_bfloat16, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 32, 8, 16, float> fc;
  wmma::fill_fragment(fc, 1.0f);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 8);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 8, wmma::mem_row_major);
}
__global__ void gemm_int8(const signed char *a, const signed char *b, int *c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, int> fc;
  wmma::fill_fragment(fc, 0);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}
__global__ void gemm_double(const double *a, const double *b, double *c) {
  wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 8, 8, 4, double> fc;
  wmma::load_matrix_sync(fc, c, 8, wmma::mem_col_major);
  wmma::load_matrix_sync(fa, a, 4);
  wmma::load_matrix_sync(fb, b, 8);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 8, wmma::mem_col_major);
}

// tf32 fragments hold floats (rounded by __float_to_tf32 if the program asks).
__global__ void gemm_tf32(const float *a, const float *b, float *c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32,
                 wmma::row_major>
      fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32,
                 wmma::col_major>
      fb;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  wmma::load_matrix_sync(fa, a, 8);
  wmma::load_matrix_sync(fb, b, 8);
  for (int i = 0; i < fa.num_elements; ++i)
    fa.x[i] = __float_to_tf32(fa.x[i]);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_col_major);
}

template <class T> T *to_device(const T *h, int n) {
  T *d;
  cudaMalloc(&d, n * sizeof(T));
  cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice);
  return d;
}

int main() {
  // Small integers: exact in half, bfloat16 and float.
  __half ha[256], hb[256];
  float fa[256], fb[256], c[256], ref;
  for (int i = 0; i < 256; ++i) {
    fa[i] = (float)(i % 7 - 3);
    fb[i] = (float)(i % 5 - 2);
    ha[i] = __float2half(fa[i]);
    hb[i] = __float2half(fb[i]);
  }
  float *dc;
  cudaMalloc(&dc, 256 * sizeof(float));
  gemm_half<<<1, 32>>>(to_device(ha, 256), to_device(hb, 256), dc);
  cudaMemcpy(c, dc, sizeof c, cudaMemcpyDeviceToHost);
  float err = 0;
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) {
      ref = 0;
      for (int k = 0; k < 16; ++k)
        ref += fa[i * 16 + k] * fb[j * 16 + k]; // b is column-major
      err = fmaxf(err, fabsf(c[i * 16 + j] - 2 * ref));
    }
  printf("half max-error %g\n", err);

  __nv_bfloat16 ba[512], bb[128];
  float fa2[512], fb2[128], c2[256];
  for (int i = 0; i < 512; ++i)
    ba[i] = __float2bfloat16(fa2[i] = (float)(i % 9 - 4));
  for (int i = 0; i < 128; ++i)
    bb[i] = __float2bfloat16(fb2[i] = (float)(i % 3 - 1));
  gemm_bf16<<<1, 32>>>(to_device(ba, 512), to_device(bb, 128), dc);
  cudaMemcpy(c2, dc, sizeof c2, cudaMemcpyDeviceToHost);
  err = 0;
  for (int i = 0; i < 32; ++i)
    for (int j = 0; j < 8; ++j) {
      ref = 1;
      for (int k = 0; k < 16; ++k)
        ref += fa2[i * 16 + k] * fb2[k * 8 + j];
      err = fmaxf(err, fabsf(c2[i * 8 + j] - ref));
    }
  printf("bf16 max-error %g\n", err);

  signed char ia[256], ib[256];
  int ic[256], ierr = 0;
  for (int i = 0; i < 256; ++i) {
    ia[i] = (signed char)(i * 37 % 255 - 127);
    ib[i] = (signed char)(i * 11 % 251 - 125);
  }
  int *dic;
  cudaMalloc(&dic, sizeof ic);
  gemm_int8<<<1, 32>>>(to_device(ia, 256), to_device(ib, 256), dic);
  cudaMemcpy(ic, dic, sizeof ic, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) {
      int r = 0;
      for (int k = 0; k < 16; ++k)
        r += ia[i * 16 + k] * ib[k * 16 + j];
      ierr = ierr > abs(ic[i * 16 + j] - r) ? ierr : abs(ic[i * 16 + j] - r);
    }
  printf("int8 max-error %d\n", ierr);

  double da[32], db[32], dcm[64], out[64];
  for (int i = 0; i < 32; ++i) {
    da[i] = 0.5 * i;
    db[i] = 0.25 * (31 - i);
  }
  for (int i = 0; i < 64; ++i)
    dcm[i] = i;
  double *ddc = to_device(dcm, 64);
  gemm_double<<<1, 32>>>(to_device(da, 32), to_device(db, 32), ddc);
  cudaMemcpy(out, ddc, sizeof out, cudaMemcpyDeviceToHost);
  double derr = 0;
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) {
      double r = dcm[j * 8 + i]; // column-major accumulator
      for (int k = 0; k < 4; ++k)
        r += da[i * 4 + k] * db[k * 8 + j];
      derr = fmax(derr, fabs(out[j * 8 + i] - r));
    }
  printf("double max-error %g\n", derr);

  float ta[128], tb[128], tc[256];
  for (int i = 0; i < 128; ++i) {
    ta[i] = (float)(i % 4) + 1.0f / 1024; // the 2^-10 bit survives tf32
    tb[i] = (float)(i % 3);
  }
  gemm_tf32<<<1, 32>>>(to_device(ta, 128), to_device(tb, 128), dc);
  cudaMemcpy(tc, dc, sizeof tc, cudaMemcpyDeviceToHost);
  err = 0;
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) {
      ref = 0;
      for (int k = 0; k < 8; ++k)
        ref += ta[i * 8 + k] * tb[j * 8 + k];
      err = fmaxf(err, fabsf(tc[j * 16 + i] - ref));
    }
  printf("tf32 max-error %g\n", err);
  return 0;
}
