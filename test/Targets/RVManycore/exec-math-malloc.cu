// Math builtins resolve against the portable device math library, linked
// as bitcode and inlined (nothing math is left undefined in the image);
// device malloc bumps the launch's DRAM heap.
// RUN: %hetir %s -o %t.bc
// RUN: %rvmc_image %t.bc -o %t.elf
// RUN: llvm-nm %t.elf | FileCheck --check-prefix=SYMS %s
// SYMS-NOT: U __hetgpu_math
// SYMS: T __hetgpu_block__Z1kPfi
// SYMS-NOT: U __hetgpu_math
// RUN: env HETGPU_TTSIM_CORES=2 hetgpu-ttsim-run %t.elf _Z1kPfi --grid 1 \
// RUN:   --block 1 buf:f32:4 i32:3 | FileCheck %s
// CHECK: exp(1)=2.718282 sin(0.5)=0.479426 pow(2,10)=1024.0
// CHECK: heap 3 ok 0 1 4
// REQUIRES: qemu-riscv64

__global__ void k(float *out, int n) {
  printf("exp(1)=%f sin(0.5)=%f pow(2,10)=%.1f\n", expf(1.0f), sin(0.5),
         powf(2.0f, 10.0f));
  int *buf = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i)
    buf[i] = i * i;
  printf("heap %d %s %d %d %d\n", n, buf ? "ok" : "null", buf[0], buf[1],
         buf[2]);
  free(buf);
}
