// CUDA's vector types have CUDA's sizes and alignments on both sides (so
// structs holding them lay out the same on host and device), make_* works
// in host and device code, dim3 converts to and from uint3.
// RUN: %clangxx %cuda_device -O3 -emit-llvm -S %s -o - | FileCheck %s
// RUN: %clangxx %cuda_host -O3 -emit-llvm -S %s -o - | FileCheck %s --check-prefix=HOST
// The types are usable outside CUDA mode too (the runtime's own C++).
// RUN: %clangxx -fsyntax-only -x c++ -DPLAIN_CXX -I %hetgpu_src/runtime/include %s

#ifdef PLAIN_CXX
#include <vector_types.h>
#define __global__
#define __host__
#define __device__
#endif

#define SIZE_ALIGN(T, S, A)                                                    \
  static_assert(sizeof(T) == S && alignof(T) == A, #T " layout");
SIZE_ALIGN(char1, 1, 1)
SIZE_ALIGN(char2, 2, 2)
SIZE_ALIGN(char3, 3, 1)
SIZE_ALIGN(char4, 4, 4)
SIZE_ALIGN(uchar4, 4, 4)
SIZE_ALIGN(short2, 4, 4)
SIZE_ALIGN(short4, 8, 8)
SIZE_ALIGN(ushort3, 6, 2)
SIZE_ALIGN(int1, 4, 4)
SIZE_ALIGN(int2, 8, 8)
SIZE_ALIGN(int3, 12, 4)
SIZE_ALIGN(int4, 16, 16)
SIZE_ALIGN(uint4, 16, 16)
SIZE_ALIGN(long2, 16, 16)
SIZE_ALIGN(ulong4, 32, 16)
SIZE_ALIGN(longlong2, 16, 16)
SIZE_ALIGN(longlong4, 32, 16)
SIZE_ALIGN(ulonglong3, 24, 8)
SIZE_ALIGN(float1, 4, 4)
SIZE_ALIGN(float2, 8, 8)
SIZE_ALIGN(float3, 12, 4)
SIZE_ALIGN(float4, 16, 16)
SIZE_ALIGN(double1, 8, 8)
SIZE_ALIGN(double2, 16, 16)
SIZE_ALIGN(double3, 24, 8)
SIZE_ALIGN(double4, 32, 16)
SIZE_ALIGN(dim3, 12, 4)
SIZE_ALIGN(uint3, 12, 4)

struct Mixed {
  char c;
  float4 v;
  double2 d;
  int3 i;
};
static_assert(sizeof(Mixed) == 64 && __builtin_offsetof(Mixed, v) == 16 &&
                  __builtin_offsetof(Mixed, d) == 32 &&
                  __builtin_offsetof(Mixed, i) == 48,
              "struct of vector types");

constexpr dim3 kBlock(8, 4);
static_assert(kBlock.x == 8 && kBlock.y == 4 && kBlock.z == 1, "dim3 defaults");

#ifndef PLAIN_CXX
// CHECK-LABEL: define {{.*}} @_Z{{[0-9]+}}makePfP6float4P4int2(
// The float4 store is 16-byte aligned, the int2 one 8-byte aligned.
// CHECK: store float {{.*}}, ptr %1, align 16
// CHECK: store {{.*}}, ptr %2, align 8
// CHECK: ret void
__global__ void make(float *f, float4 *out, int2 *i) {
  out[0] = make_float4(f[0], f[1], f[2], f[3]);
  i[0] = make_int2(1, 2);
}

// Host side: make_* and dim3 <-> uint3 are host functions too.
// HOST-LABEL: define {{.*}} @_Z{{[0-9]+}}host_sidev(
// 3 + 4 + 2 + 1 + 3
// HOST: ret i32 13
__host__ int host_side() {
  double3 d = make_double3(1, 2, 3);
  uint3 u = dim3(4, 2);
  dim3 back(u);
  return (int)d.z + u.x + back.y + back.z + make_uchar2(3, 1).x;
}
#endif
