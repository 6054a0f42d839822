// A per-thread array indexed dynamically stays in memory and is live
// across barriers: it must keep each thread's contents (it moves into the
// thread's frame). Also a barrier inside a uniform condition and a loop
// whose trip count comes from a parameter.
// RUN: %hetir %s -o %t.bc
// RUN: hetgpu-host-run --grid=2 --block=40 %t.bc _Z4privPii buf:i32:80 i32=5 > %t.out
// RUN: python3 %S/Inputs/priv_ref.py 5 | diff - %t.out

__global__ void priv(int *out, int n) {
  __shared__ int s[64];
  int a[8];
  int t = threadIdx.x;
  for (int i = 0; i < 8; ++i)
    a[i] = t * 100 + i + blockIdx.x * 7;
  int acc = 0;
  for (int r = 0; r < n; ++r) {
    s[t] = a[(t + r) & 7];
    __syncthreads();
    acc += s[(t + 1) % blockDim.x];
    a[(t * 3 + r) & 7] += acc & 15;
    if (n > 3)
      __syncthreads();
  }
  out[blockIdx.x * blockDim.x + t] = acc + a[t & 7];
}
