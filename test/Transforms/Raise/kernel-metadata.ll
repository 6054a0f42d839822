; Kernels become "hetgpu-kernel" functions with the C calling convention and
; an entry in !hetgpu.kernels describing their parameters and launch bounds.
; RUN: hetgpu-opt -passes=hetgpu-raise -S %s | FileCheck %s
; RUN: hetgpu-opt -passes=hetgpu-raise,hetgpu-raise -S %s | FileCheck %s
; RUN: opt -load-pass-plugin=%hetgpu_plugin -passes=hetgpu-raise -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.S = type { i32, double }

; CHECK: target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
; CHECK: target triple = "unknown-hetgpu-unknown"
; CHECK-LABEL: define void @_Z1kPf1Sci(
; CHECK-SAME: #[[$ATTR:[0-9]+]]
define ptx_kernel void @_Z1kPf1Sci(ptr %p, ptr byval(%struct.S) align 8 %s, i8 signext %c, i32 %n) #0 {
  %t = call i32 @__hetgpu_tid_x()
  store float 1.0, ptr %p
  call void @helper()
  ret void
}

; Device functions are private to the module (no relocatable device code).
; CHECK-LABEL: define internal void @helper(
define void @helper() #0 {
  ret void
}

declare i32 @__hetgpu_tid_x() #1

attributes #0 = { "target-cpu"="sm_80" "target-features"="+ptx80,+sm_80" "nvvm.maxntid"="256" "nvvm.minctasm"="2" }
attributes #1 = { convergent nounwind }

; CHECK: attributes #[[$ATTR]] = { "hetgpu-kernel" }
; CHECK: !hetgpu.ir.version = !{![[V:[0-9]+]]}
; CHECK: !hetgpu.kernels = !{![[K:[0-9]+]]}
; CHECK: ![[V]] = !{i32 1, i32 0}
; CHECK: ![[K]] = !{ptr @_Z1kPf1Sci, !"name", !"k(float*, S, char, int)", !"params", ![[P:[0-9]+]], !"shared.static", i64 0, !"features", ![[F:[0-9]+]], !"launch.bounds", ![[LB:[0-9]+]]}
; CHECK: ![[P]] = !{![[PP:[0-9]+]], ![[PS:[0-9]+]], ![[PC:[0-9]+]], ![[PN:[0-9]+]]}
; CHECK: ![[PP]] = !{!"ptr", i32 8, i32 8}
; CHECK: ![[PS]] = !{!"byval", i32 16, i32 8}
; CHECK: ![[PC]] = !{!"value", i32 1, i32 1}
; CHECK: ![[PN]] = !{!"value", i32 4, i32 4}
; CHECK: ![[F]] = !{}
; CHECK: ![[LB]] = !{i32 256, i32 2}
