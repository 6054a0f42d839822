// Device code with inline PTX: not portable.
__device__ unsigned laneid() {
  unsigned r;
  asm("mov.u32 %0, %%laneid;" : "=r"(r));
  return r;
}
__global__ void k(unsigned *out) { out[threadIdx.x] = laneid(); }
// Host code may use inline assembly.
unsigned long long host_ticks() {
  unsigned lo, hi;
  asm volatile("rdtsc" : "=a"(lo), "=d"(hi));
  return ((unsigned long long)hi << 32) | lo;
}
