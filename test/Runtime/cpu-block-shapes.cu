// The CPU executor keeps its thread states (threadIdx, linear id, frame)
// across the blocks a worker runs when the block shape and frame size stay
// the same, and knows each warp's runnable lanes as masks. Launches with
// the same thread count in shapes that differ in x, y or z only (64x1x1,
// 16x4x1, 16x2x2, 8x2x4, 32x2x1), one after another, a partial warp
// (48x1x1), a kernel with another frame size in between, an early exit
// before a barrier, __syncthreads_count and a ballot must all see their
// own threadIdx and the right barrier results: every value is checked
// against a host model. One worker
// (HETGPU_CPU_THREADS=1), so every block of a launch and every launch
// runs on the same thread states.
// RUN: hetgpu-cc -O2 %s -o %t
// RUN: env HETGPU_DEVICE=cpu HETGPU_CPU_THREADS=1 %t | FileCheck %s
// RUN: env HETGPU_DEVICE=cpu HETGPU_CPU_THREADS=2 %t | FileCheck %s
// CHECK: shape 64x1x1 ok
// CHECK: shape 16x4x1 ok
// CHECK: shape 16x2x2 ok
// CHECK: shape 8x2x4 ok
// CHECK: shape 48x1x1 ok
// CHECK: shape 32x2x1 ok
// CHECK: shape 64x1x1 ok
// CHECK: PASS
// CHECK-NOT: FAIL
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(call)                                                               \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      std::printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call,          \
                  cudaGetErrorName(err_));                                     \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

// out[4 * g + k], g the global linear thread id: k = 0 the thread's own
// threadIdx code, 1 the __syncthreads_count of odd linear ids, 2 its warp's
// ballot of odd linear ids (after the barrier), 3 a value carried across
// both sync points. Threads with linear id % 7 == 6 leave before the
// barrier when `leave` is set (they write nothing after k = 0).
__global__ void shapes(int *out, int leave) {
  int lin = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  int n = blockDim.x * blockDim.y * blockDim.z;
  int g = blockIdx.x * n + lin;
  int code = threadIdx.x + 100 * threadIdx.y + 10000 * threadIdx.z;
  out[4 * g] = code;
  if (leave && lin % 7 == 6)
    return;
  int carried = code * 3 + blockIdx.x;
  int c = __syncthreads_count(lin & 1);
  out[4 * g + 1] = c;
  unsigned b = __ballot_sync(__activemask(), lin & 1);
  out[4 * g + 2] = (int)b;
  out[4 * g + 3] = carried;
}

// A kernel with a larger frame (a private array live across a barrier),
// launched in between so that the states are laid out for another frame
// size.
__global__ void frames(int *out) {
  int a[16];
  for (int i = 0; i < 16; ++i)
    a[i] = threadIdx.x * i;
  __syncthreads();
  int s = 0;
  for (int i = 0; i < 16; ++i)
    s += a[(i * 7 + threadIdx.x) & 15];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

static bool checkShape(dim3 b, int blocks, int leave, const int *h) {
  int n = b.x * b.y * b.z;
  for (int blk = 0; blk < blocks; ++blk) {
    // The model: who stays, the count of odd linear ids among them, and
    // each warp's ballot of odd ids among the lanes that stay.
    std::vector<int> stays(n);
    int count = 0;
    for (int l = 0; l < n; ++l) {
      stays[l] = !(leave && l % 7 == 6);
      count += stays[l] && (l & 1);
    }
    for (int l = 0; l < n; ++l) {
      int x = l % b.x, y = (l / b.x) % b.y, z = l / (b.x * b.y);
      int code = x + 100 * y + 10000 * z;
      const int *o = h + 4 * (blk * n + l);
      if (o[0] != code) {
        std::printf("FAIL block %d thread %d: tid code %d, expected %d\n", blk,
                    l, o[0], code);
        return false;
      }
      if (!stays[l])
        continue;
      unsigned ballot = 0;
      for (int k = l / 32 * 32; k < l / 32 * 32 + 32 && k < n; ++k)
        if (stays[k] && (k & 1))
          ballot |= 1u << (k % 32);
      if (o[1] != count || (unsigned)o[2] != ballot ||
          o[3] != code * 3 + blk) {
        std::printf("FAIL block %d thread %d: count %d ballot %x carried %d, "
                    "expected %d %x %d\n",
                    blk, l, o[1], (unsigned)o[2], o[3], count, ballot,
                    code * 3 + blk);
        return false;
      }
    }
  }
  return true;
}

int main() {
  const int Blocks = 5, MaxThreads = 64;
  int *d, *f;
  CK(cudaMalloc(&d, 4 * Blocks * MaxThreads * sizeof(int)));
  CK(cudaMalloc(&f, Blocks * MaxThreads * sizeof(int)));
  struct {
    dim3 b;
    int leave, frames;
  } runs[] = {{dim3(64, 1, 1), 0, 0}, {dim3(16, 4, 1), 1, 0},
              {dim3(16, 2, 2), 0, 0}, {dim3(8, 2, 4), 0, 1},
              {dim3(48, 1, 1), 1, 0}, {dim3(32, 2, 1), 1, 1},
              {dim3(64, 1, 1), 1, 0}};
  std::vector<int> h(4 * Blocks * MaxThreads);
  bool ok = true;
  for (auto &r : runs) {
    CK(cudaMemset(d, 0xff, h.size() * sizeof(int)));
    shapes<<<Blocks, r.b>>>(d, r.leave);
    CK(cudaGetLastError());
    // Another frame size on the same worker before the next shape.
    if (r.frames) {
      frames<<<Blocks, 32>>>(f);
      CK(cudaGetLastError());
    }
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h.data(), d, h.size() * sizeof(int),
                  cudaMemcpyDeviceToHost));
    bool good = checkShape(r.b, Blocks, r.leave, h.data());
    std::printf("shape %ux%ux%u %s\n", r.b.x, r.b.y, r.b.z,
                good ? "ok" : "FAIL");
    ok &= good;
  }
  std::vector<int> hf(Blocks * 32);
  CK(cudaMemcpy(hf.data(), f, hf.size() * sizeof(int),
                cudaMemcpyDeviceToHost));
  for (int t = 0; t < 32; ++t) {
    int s = 0;
    for (int i = 0; i < 16; ++i)
      s += t * ((i * 7 + t) & 15);
    if (hf[t] != s || hf[32 * (Blocks - 1) + t] != s) {
      std::printf("FAIL frames thread %d: %d, expected %d\n", t, hf[t], s);
      ok = false;
    }
  }
  std::printf(ok ? "PASS\n" : "FAIL\n");
  return ok ? 0 : 1;
}
