// Values live across warp operations and barriers (spilled in the frame),
// warp operations in a per-lane loop (lanes stop at different sync points)
// and __syncthreads_count, on block shapes whose warps are full rows
// (64x1: row loops and per-warp arrays), a partial warp (48x1) and rows of
// 16 (16x4x1: no warp is one row). Each run must equal the one-call-per-lane
// executor (HETGPU_HOST_LANE_LOOPS=0) and the lane loops without per-warp
// arrays and row loops; the 64-thread block also against values worked out
// by hand. out[4*t + k].
// RUN: %hetir %s -o %t.bc
// RUN: for b in 64 48 16,4; do \
// RUN:   hetgpu-host-run --block=$b %t.bc _Z1kPi buf:i32:256 > %t.$b.out || exit 1; \
// RUN:   env HETGPU_HOST_LANE_LOOPS=0 hetgpu-host-run --block=$b %t.bc _Z1kPi buf:i32:256 > %t.$b.plain || exit 1; \
// RUN:   env HETGPU_HOST_WARP_ARRAYS=0 HETGPU_HOST_ROW_LOOPS=0 hetgpu-host-run --block=$b %t.bc _Z1kPi buf:i32:256 > %t.$b.states || exit 1; \
// RUN:   diff %t.$b.plain %t.$b.out || exit 1; \
// RUN:   diff %t.$b.plain %t.$b.states || exit 1; \
// RUN: done
// RUN: FileCheck %s < %t.64.out
// Thread 0: warp sum of 3t+1 over lanes 0..31 = 1520; lane 0 runs one
// shuffle-up step (nothing below it: keeps 0); 32 odd threads of 64; the
// prefix over its own lane of the warp sum.
// CHECK: arg0: 1520 0 32 1520 1520 1 32 1521

__global__ void k(int *out) {
  int t = threadIdx.x + threadIdx.y * blockDim.x;
  int lane = t & 31;
  int v = 3 * t + 1;
  int keep = v * 7; // live across everything below
  // Warp sum with xor shuffles (full warps; partial warps use the mask of
  // their lanes).
  unsigned m = __activemask();
  int s = v;
  for (int o = 16; o > 0; o >>= 1) {
    int u = __shfl_xor_sync(m, s, o);
    if (((lane ^ o) & 31) < 32 && (m >> (lane ^ o)) & 1)
      s += u;
  }
  // Lane-dependent trip counts: lanes stop at the shuffle different numbers
  // of times.
  int w = 0;
  for (int i = 0; i < (lane & 3); ++i)
    w += __shfl_up_sync(__activemask(), lane, 1);
  int odd = __syncthreads_count(t & 1);
  __syncthreads();
  out[4 * t] = s;
  out[4 * t + 1] = w;
  out[4 * t + 2] = odd;
  out[4 * t + 3] = s + keep / 7 - v + (lane & 1);
}
