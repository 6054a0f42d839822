// Loops with barriers run in chunks of 32 iterations with a safe point
// between two chunks (hetgpu-insert-loop-safepoints): every trip count
// around a chunk boundary (0, 1, 31, 32, 33, 64, 65, 100), signed and
// unsigned bounds, `!=` exits, steps of 2, 3 and 16, a do-while entered at
// or past its bound (one iteration), a uniform break with the IV used after
// the loop, a loop ending near INT_MAX and a loop whose exit sits on the
// false edge compute the same with the instrumentation on, and when
// suspended at random safe points and resumed. Loops of other shapes
// (counting down) keep the back-edge counter.
// REQUIRES: built-target-host
// RUN: hetgpu-cc %s -o %t
// RUN: hetgpu-cc -c %s -o %t.o
// RUN: hetgpu-objdump %t.o | FileCheck --check-prefix=DUMP %s
// DUMP: state _Z6chunksPiii: {{[0-9]+}} safe points
// DUMP: loop-latch
// RUN: env HETGPU_DEVICE=cpu %t > %t.ref
// RUN: FileCheck --check-prefix=REF %s < %t.ref
// RUN: env HETGPU_DEVICE=cpu HETGPU_MIGRATE=on %t | diff %t.ref -
// RUN: for s in 1 2 3 4 5 6; do \
// RUN:   env HETGPU_DEVICE=cpu HETGPU_MIGRATE=random:seed=$s:verbose %t > %t.out.$s 2> %t.err.$s || exit 1; \
// RUN:   diff %t.ref %t.out.$s || exit 1; \
// RUN: done
// RUN: cat %t.err.1 %t.err.2 %t.err.3 %t.err.4 %t.err.5 %t.err.6 | FileCheck --check-prefix=MIG %s
// MIG: hetgpu-migrate: _Z6chunksPiii suspended
// REF: chunks ok
// REF: shapes ok
#include <climits>
#include <initializer_list>
#include <cstdio>

// Trip count hi - lo through a signed and an unsigned loop and a `!=`
// loop, each with a barrier; and a bound near INT_MAX.
__global__ void chunks(int *out, int lo, int hi) {
  __shared__ int s[64];
  int t = threadIdx.x, acc = 0;
  for (int i = lo; i < hi; ++i) {
    s[t] = i + t;
    __syncthreads();
    acc += s[(t + 1) & 63] - i;
    __syncthreads();
  }
  for (unsigned u = unsigned(lo); u < unsigned(hi); ++u) {
    s[t] = int(u) * 3;
    __syncthreads();
    acc += s[63 - t] & 7;
    __syncthreads();
  }
  int n = 0;
  for (int i = lo; i != hi; ++i) {
    __syncthreads();
    ++n;
  }
  // From INT_MAX - 40, up to 40 iterations: past 32 the chunk's limit
  // (start + 32) wraps around.
  int m = hi - lo < 40 ? hi - lo : 40;
  for (int i = INT_MAX - 40; i < INT_MAX - 40 + m; ++i) {
    __syncthreads();
    acc ^= i;
  }
  // Steps of 3 and 16 (a tiled loop): the chunk spans 32 steps.
  for (int i = lo; i < hi; i += 3) {
    s[t] = i;
    __syncthreads();
    acc += s[(t + 5) & 63] * 7;
    __syncthreads();
  }
  for (int k = 0; k < 16 * (hi - lo); k += 16) {
    __syncthreads();
    acc += k >> 4;
  }
  // A do-while: runs once when lo >= hi.
  int k = lo;
  do {
    __syncthreads();
    acc += k * 5;
  } while (++k < hi);
  // A block-uniform break out of the middle of a chunk, and the IV used
  // after the loop.
  int b = lo;
  for (; b < hi; ++b) {
    s[t] = b;
    __syncthreads();
    int v = s[(t + 9) & 63];
    __syncthreads();
    if (v == lo + 40)
      break;
    acc += v;
  }
  acc += b * 11;
  out[blockIdx.x * 64 + t] = acc * 1000 + n;
}

// Other shapes: step 2 (chunked), counting down (the back-edge counter),
// and a do-while whose exit test is on the false edge.
__global__ void shapes(int *out, int n) {
  __shared__ int s[64];
  int t = threadIdx.x, acc = 0;
  for (int i = 0; i < n; i += 2) {
    s[t] = i;
    __syncthreads();
    acc += s[(t + 3) & 63];
    __syncthreads();
  }
  for (int i = n; i > 0; --i) {
    __syncthreads();
    acc += i & 3;
  }
  int k = 0;
  do {
    __syncthreads();
    acc += k;
  } while (!(++k >= n));
  out[blockIdx.x * 64 + t] = acc;
}

static int chunksRef(int t, int lo, int hi, int &n) {
  int acc = 0;
  for (int i = lo; i < hi; ++i)
    acc += (i + ((t + 1) & 63)) - i;
  for (unsigned u = unsigned(lo); u < unsigned(hi); ++u)
    acc += (int(u) * 3) & 7;
  n = hi - lo;
  int m = hi - lo < 40 ? hi - lo : 40;
  for (int i = INT_MAX - 40; i < INT_MAX - 40 + m; ++i)
    acc ^= i;
  for (int i = lo; i < hi; i += 3)
    acc += i * 7;
  for (int k = 0; k < 16 * (hi - lo); k += 16)
    acc += k >> 4;
  int k = lo;
  do
    acc += k * 5;
  while (++k < hi);
  int b = lo;
  for (; b < hi; ++b) {
    if (b == lo + 40)
      break;
    acc += b;
  }
  acc += b * 11;
  return acc;
}

int main() {
  const int Counts[] = {0, 1, 31, 32, 33, 64, 65, 100};
  int *d;
  cudaMalloc(&d, 4 * 64 * sizeof(int));
  int h[4 * 64];
  bool ok = true;
  for (int c : Counts) {
    for (int lo : {0, 5}) {
      chunks<<<4, 64>>>(d, lo, lo + c);
      cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
      for (int b = 0; b < 4; ++b)
        for (int t = 0; t < 64; ++t) {
          int n;
          int acc = chunksRef(t, lo, lo + c, n);
          if (h[b * 64 + t] != acc * 1000 + n) {
            if (ok)
              printf("chunks count %d lo %d thread %d: %d, expected %d\n", c,
                     lo, t, h[b * 64 + t], acc * 1000 + n);
            ok = false;
          }
        }
    }
  }
  printf("chunks %s\n", ok ? "ok" : "WRONG");
  ok = true;
  for (int n : {1, 2, 33, 70}) {
    shapes<<<4, 64>>>(d, n);
    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    for (int b = 0; b < 4; ++b)
      for (int t = 0; t < 64; ++t) {
        int acc = 0;
        for (int i = 0; i < n; i += 2)
          acc += i;
        for (int i = n; i > 0; --i)
          acc += i & 3;
        int k = 0;
        do
          acc += k;
        while (!(++k >= n));
        if (h[b * 64 + t] != acc) {
          if (ok)
            printf("shapes n %d thread %d: %d, expected %d\n", n, t,
                   h[b * 64 + t], acc);
          ok = false;
        }
      }
  }
  printf("shapes %s\n", ok ? "ok" : "WRONG");
  return 0;
}
