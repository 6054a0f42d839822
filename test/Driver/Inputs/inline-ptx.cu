// Device code with inline PTX (lowered to hetIR), and host code with x86
// assembly (left alone). With -DUNSUPPORTED the device asm uses an
// instruction outside the supported subset.
__device__ unsigned laneid() {
  unsigned r;
  asm("mov.u32 %0, %%laneid;" : "=r"(r));
#ifdef UNSUPPORTED
  asm volatile("istypep.texref %0, %1;" : "=r"(r) : "l"(0ull));
#endif
  return r;
}
__global__ void k(unsigned *out) { out[threadIdx.x] = laneid(); }
// Host code may use inline assembly.
unsigned long long host_ticks() {
  unsigned lo, hi;
  asm volatile("rdtsc" : "=a"(lo), "=d"(hi));
  return ((unsigned long long)hi << 32) | lo;
}
