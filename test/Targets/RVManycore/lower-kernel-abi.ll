; hetgpu-lower-rvmc: a kernel becomes the block function of ABI/BlockABI.h
; (SIMT->MIMD loop: no executor, so no frame-size export), the module becomes rv64imafd/lp64d RISC-V with every
; definition dso_local (static-PIE image), the math builtin stays external
; for the device math library, and the static shared size and frame size
; are exported for tt-sim's SRAM check.
; RUN: hetgpu-opt -passes=hetgpu-lower-rvmc -S %s | FileCheck %s
; RUN: hetgpu-opt -passes=hetgpu-lower-rvmc,hetgpu-lower-rvmc -S %s | FileCheck %s
; RUN: opt -load-pass-plugin=%hetgpu_plugin -passes=hetgpu-lower-rvmc -S %s | FileCheck %s

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

@g = addrspace(1) global i32 0, align 4
@tile = internal addrspace(3) global [64 x float] undef, align 4

; CHECK: target datalayout = "e-m:e-p:64:64-i64:64-i128:128-n32:64-S128"
; CHECK: target triple = "riscv64-unknown-elf"
; CHECK-DAG: @g = dso_local addrspace(1) global i32 0
; CHECK-DAG: @__hetgpu_rvmc_shared__Z1kPfi = dso_local constant i64 256, align 8
; CHECK-NOT: @tile
; CHECK-NOT: @__hetgpu_rvmc_frame_
; CHECK: declare float @__hetgpu_math_sinf(float)
; CHECK-LABEL: define internal void @_Z1kPfi.hetgpu.thread(
; CHECK: call float @__hetgpu_math_sinf(
; CHECK: atomicrmw add ptr addrspace(1) @g, i32 1 monotonic
; CHECK-LABEL: define dso_local void @__hetgpu_block__Z1kPfi(
; CHECK-SAME: ptr {{.*}}, ptr {{.*}}) #[[ATTR:[0-9]+]]
; CHECK-NOT: @__hetgpu_tid_x
; CHECK-NOT: @__hetgpu_ctaid_x
; CHECK: attributes #[[ATTR]] = {{{.*}}"target-cpu"="generic-rv64" "target-features"="+m,+a,+f,+d"
; CHECK: !{i32 1, !"target-abi", !"lp64d"}

define void @_Z1kPfi(ptr %p, i32 %n) #0 {
entry:
  %t = call i32 @__hetgpu_tid_x()
  %b = call i32 @__hetgpu_ctaid_x()
  %nt = call i32 @__hetgpu_ntid_x()
  %m = mul i32 %b, %nt
  %i = add i32 %m, %t
  %in = icmp slt i32 %i, %n
  br i1 %in, label %body, label %done

body:
  %slot = getelementptr inbounds [64 x float], ptr addrspace(3) @tile, i32 0, i32 %t
  %f = sitofp i32 %i to float
  %s = call float @__hetgpu_math_sinf(float %f)
  store float %s, ptr addrspace(3) %slot, align 4
  %v = load float, ptr addrspace(3) %slot, align 4
  %idx = sext i32 %i to i64
  %dst = getelementptr inbounds float, ptr %p, i64 %idx
  store float %v, ptr %dst, align 4
  %old = atomicrmw add ptr addrspace(1) @g, i32 1 monotonic, align 4
  br label %done

done:
  ret void
}

declare i32 @__hetgpu_tid_x()
declare i32 @__hetgpu_ctaid_x()
declare i32 @__hetgpu_ntid_x()
declare float @__hetgpu_math_sinf(float)

attributes #0 = { "hetgpu-kernel" }

!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1}
!0 = !{i32 1, i32 0}
!1 = !{ptr @_Z1kPfi, !"name", !"k(float*, int)", !"params", !2, !"shared.static", i64 256, !"features", !5}
!2 = !{!3, !4}
!3 = !{!"ptr", i32 8, i32 8}
!4 = !{!"value", i32 4, i32 4}
!5 = !{!"atomic.global", !"math"}
