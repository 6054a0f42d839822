// Warp operations in loops with per-lane trip counts (lanes leave the loop
// at different iterations: each shuffle's active mask is the lanes still
// in it), and a warp-level inclusive scan with __shfl_up_sync.
// RUN: %hetir %s -o %t.bc
// RUN: hetgpu-host-run --block=32 %t.bc _Z4loopPj buf:u32:64 | FileCheck %s
// CHECK: arg0: 0 1 3 6 10 15 21 28 36 45 55 66 78 91 105 120 136 153 171 190 210 231 253 276 300 325 351 378 406 435 465 496 0 4294967294 4294967292 4294967288 4294967280 4294967264 4294967232 4294967168 4294967040 4294966784 4294966272 4294965248 4294963200 4294959104 4294950912 4294934528 4294901760 4294836224 4294705152 4294443008 4293918720 4292870144 4290772992 4286578688 4278190080 4261412864 4227858432 4160749568 4026531840 3758096384 3221225472 2147483648

__global__ void loop(unsigned *out) {
  unsigned lane = threadIdx.x;
  unsigned v = lane;
  for (int d = 1; d < 32; d <<= 1) {
    unsigned u = __shfl_up_sync(0xffffffff, v, d);
    if (lane >= (unsigned)d)
      v += u;
  }
  out[lane] = v;
  // Lane L runs L iterations: the ballot in iteration i sees lanes > i.
  unsigned last = 0;
  for (unsigned i = 0; i < lane; ++i)
    last = __ballot_sync(__activemask(), 1);
  out[32 + lane] = last;
}
