// Aggregates passed by value: read in a thread loop, and modified by each
// thread (its own copy) across a barrier.
// RUN: %hetir %s -o %t.bc
// RUN: hetgpu-host-run --block=4 %t.bc _Z4readPf6Params buf:f32:4 \
// RUN:   struct=i32:3,f32:0.5,f64:100 | FileCheck --check-prefix=READ %s
// RUN: hetgpu-host-run --block=4 %t.bc _Z5writePi6Params buf:i32:8 \
// RUN:   struct=i32:3,f32:0.5,f64:100 | FileCheck --check-prefix=WRITE %s
// READ: arg0: 101.5 102 102.5 103
// WRITE: arg0: 3 4 5 6 3 4 5 6

struct Params {
  int base;
  float step;
  double offset;
};

__global__ void read(float *out, Params p) {
  int t = threadIdx.x;
  out[t] = (float)(p.offset + p.base * p.step + t * p.step);
}

__global__ void write(int *out, Params p) {
  __shared__ int s[4];
  int t = threadIdx.x;
  p.base += t; // each thread's own copy
  s[t] = p.base;
  __syncthreads();
  out[t] = s[t];
  out[4 + t] = p.base;
}
