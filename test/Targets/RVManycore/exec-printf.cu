// Device printf from a core: the record goes to the launch's DRAM ring with
// a copy of every %s string (here one on the core's stack, which the host
// cannot read) and the host formats it after the launch.
// RUN: %hetir %s -o %t.bc
// RUN: %rvmc_image %t.bc -o %t.elf
// RUN: env HETGPU_TTSIM_CORES=2 hetgpu-ttsim-run %t.elf _Z1kii --grid 1 \
// RUN:   --block 1 i32:42 i32:-7 | FileCheck %s
// CHECK: int 42 neg -7 hex 2a char Z
// CHECK-NEXT: float 1.50 double 2.250000e+00 long 123456789012
// CHECK-NEXT: str [local text] lit [literal] null [(null)] 5 %
// REQUIRES: qemu-riscv64

__global__ void k(int a, int b) {
  char local[16] = "local text";
  const char *none = nullptr;
  printf("int %d neg %d hex %x char %c\n", a, b, a, 'Z');
  printf("float %.2f double %e long %lld\n", 1.5f, 2.25, 123456789012ll);
  printf("str [%s] lit [%s] null [%s] %d %%\n", local, "literal", none, 5);
}
