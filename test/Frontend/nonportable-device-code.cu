// The Clang plugin rejects vendor builtins in device code (including
// template instantiations) and leaves host code alone. Inline PTX is
// accepted: hetgpu-lower-inline-ptx lowers it (test/Transforms/InlinePTX).
// RUN: %clangxx -x cuda --cuda-device-only --cuda-gpu-arch=sm_80 --cuda-path=/nonexistent \
// RUN:   -nocudainc -nocudalib -Wno-unknown-cuda-version -isystem %hetgpu_src/runtime/include \
// RUN:   -include cuda_runtime.h -fsyntax-only -fplugin=%hetgpu_clang_plugin -Xclang -verify %s

__device__ unsigned lane() {
  unsigned r;
  asm("mov.u32 %0, %%laneid;" : "=r"(r)); // no diagnostic: PTX is lowered
  return r;
}

template <typename T> __global__ void k(T *p) {
  *p = __nvvm_read_ptx_sreg_tid_x(); // expected-error {{vendor builtin '__nvvm_read_ptx_sreg_tid_x' in device function 'k<int>' is not portable}}
}
template __global__ void k<int>(int *);

// Host code may use assembly.
void host_only() { asm volatile("nop"); }

__global__ void portable(int *p) { p[threadIdx.x] = __popc(threadIdx.x); }
