// A kernel that stores through a bad pointer kills its core process: the
// launch fails and names the core and the signal.
// RUN: %hetir %s -o %t.bc
// RUN: %rvmc_image %t.bc -o %t.elf
// RUN: not env HETGPU_TTSIM_CORES=1 hetgpu-ttsim-run %t.elf _Z1kPi \
// RUN:   --grid 1 --block 1 i64:16 2>&1 | FileCheck %s
// CHECK: hetgpu-ttsim-run: launch: tt-sim: core 0 of the launch of '_Z1kPi' was killed by signal 11
// REQUIRES: qemu-riscv64

__global__ void k(int *p) { *p = 1; }
// Without qemu-riscv64 the device is not available, and says why.
// RUN: not env HETGPU_TTSIM_QEMU=/nonexistent/qemu-riscv64 hetgpu-ttsim-run \
// RUN:   %t.elf _Z1kPi i64:16 2>&1 | FileCheck --check-prefix=NOQEMU %s
// NOQEMU: hetgpu-ttsim-run: discover: tt-sim: /nonexistent/qemu-riscv64 not found (install qemu-user or set HETGPU_TTSIM_QEMU)
// A corrupt image is refused when the module is loaded.
// RUN: echo garbage > %t.bad
// RUN: not hetgpu-ttsim-run %t.bad _Z1kPi i64:16 2>&1 \
// RUN:   | FileCheck --check-prefix=BAD %s
// BAD: hetgpu-ttsim-run: loadModule: tt-sim: cannot load the module image: not an ELF file
// A kernel that never finishes is killed after HETGPU_TTSIM_TIMEOUT_S.
// RUN: not env HETGPU_TTSIM_TIMEOUT_S=2 HETGPU_TTSIM_CORES=2 hetgpu-ttsim-run \
// RUN:   %t.elf _Z4spinPVi --grid 2 buf:i32:1 2>&1 | FileCheck --check-prefix=HANG %s
// HANG: hetgpu-ttsim-run: launch: tt-sim: launch timed out after 2 s (HETGPU_TTSIM_TIMEOUT_S)

__global__ void spin(volatile int *p) {
  while (p[0] == 0) {
  }
}
