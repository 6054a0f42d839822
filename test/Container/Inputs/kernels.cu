// Kernels with every kind of parameter, shared memory and a barrier.
struct Pair { int a; double b; };
__constant__ float coeff[4];
__device__ int counter;

template <int N>
__global__ void tiled(const float *in, float *out, Pair p, char c) {
  __shared__ float tile[N];
  int t = threadIdx.x;
  tile[t] = in[t] * coeff[t % 4];
  __syncthreads();
  out[t] = tile[N - 1 - t] + p.a + float(p.b) + c;
  if (t == 0)
    atomicAdd(&counter, 1);
}
template __global__ void tiled<64>(const float *, float *, Pair, char);
