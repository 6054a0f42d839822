// A kernel without sync points runs as a plain loop over the threads of
// each block: 3-D blocks and a 2-D grid.
// RUN: %hetir %s -o %t.bc
// RUN: hetgpu-host-run --grid=2,2 --block=4,3,2 %t.bc _Z2idPi buf:i32:96 \
// RUN:   | FileCheck %s
// CHECK: arg0: 0 1 2 3 10 11 12 13 20 21 22 23 100 101 102 103 110 111 112 113 120 121 122 123 1000 1001 1002 1003 1010 1011 1012 1013 1020 1021 1022 1023 1100 1101 1102 1103 1110 1111 1112 1113 1120 1121 1122 1123
// CHECK-SAME: 3112 3113 3120 3121 3122 3123{{$}}

__global__ void id(int *out) {
  int b = blockIdx.x + gridDim.x * blockIdx.y;
  int l = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  out[b * blockDim.x * blockDim.y * blockDim.z + l] =
      threadIdx.x + 10 * threadIdx.y + 100 * threadIdx.z + 1000 * b;
}
