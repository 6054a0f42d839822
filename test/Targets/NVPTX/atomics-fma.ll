; Plain LLVM atomics select native atom.* on sm_70+ (float/double add,
; inc/dec wrap included: no CAS loops), cmpxchg is device scope like
; nvcc's atomicCAS (atom.global.cas), and a*b+c marked `contract` (what
; hetgpu-cc's device compile emits, nvcc's --fmad=true) becomes fma while
; unmarked arithmetic (libdevice's error-free transformations) is not fused,
; not even by ptxas (.rn forms).
; RUN: hetgpu-opt -passes=hetgpu-lower-nvptx -S %s | FileCheck --check-prefix=IR %s
; RUN: hetgpu-translate --target=nvptx --arch=sm_75 %s -o - | FileCheck %s
; RUN: hetgpu-translate --target=nvptx --arch=sm_90 %s -o - | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK-LABEL: .entry k(
; CHECK-DAG: atom.global.add.f32
; CHECK-DAG: atom.global.add.f64
; CHECK-DAG: atom.global.inc.u32
; CHECK-DAG: atom.global.dec.u32
; CHECK-DAG: atom.shared.add.u32
; CHECK-DAG: atom.global.max.s32
; CHECK-DAG: atom.global.exch.b64
; CHECK-DAG: fma.rn.f32 %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}};
; CHECK-DAG: mul.rn.f32
; CHECK-DAG: add.rn.f32
; CHECK-DAG: atom.relaxed.gpu.global.cas.b32
; CHECK-NOT: .sys.
; IR: %8 = cmpxchg ptr %u, i32 1, i32 2 syncscope("device") monotonic monotonic
; IR: %9 = cmpxchg ptr %u, i32 1, i32 3 syncscope("block") monotonic monotonic
@sh = internal addrspace(3) global i32 0, align 4
define void @k(ptr %f, ptr %d, ptr %u, ptr %l, float %a, float %b, float %c) #0 {
  %1 = atomicrmw fadd ptr %f, float 1.0 monotonic
  %2 = atomicrmw fadd ptr %d, double 1.0 monotonic
  %3 = atomicrmw uinc_wrap ptr %u, i32 7 monotonic
  %4 = atomicrmw udec_wrap ptr %u, i32 7 monotonic
  %5 = atomicrmw add ptr addrspace(3) @sh, i32 1 monotonic
  %6 = atomicrmw max ptr %u, i32 %3 monotonic
  %7 = atomicrmw xchg ptr %l, i64 5 monotonic
  %8 = cmpxchg ptr %u, i32 1, i32 2 monotonic monotonic
  %9 = cmpxchg ptr %u, i32 1, i32 3 syncscope("block") monotonic monotonic
  %m = fmul contract float %a, %b
  %s = fadd contract float %m, %c
  store float %s, ptr %f
  %m2 = fmul float %a, %c
  %s2 = fadd float %m2, %b
  %f2 = getelementptr float, ptr %f, i64 1
  store volatile float %s2, ptr %f2
  %v = load i32, ptr addrspace(3) @sh
  store i32 %v, ptr %u
  ret void
}
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!0 = !{i32 1, i32 0}
