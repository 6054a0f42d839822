; A warp operation that not every thread of the block reaches cannot be
; emulated with work-group barriers: the translation fails and names the
; kernel, the operation and the device class; with sub-groups it works.
; RUN: not %spirv_translate %s -o %t.spv 2>&1 | FileCheck --check-prefix=ERR %s
; RUN: not hetgpu-opt -passes=hetgpu-lower-spirv -disable-output %s 2>&1 | FileCheck --check-prefix=ERR %s
; RUN: %spirv_translate --features=+subgroups32 --arch=spirv1.3 %s -o %t.spv
; With +defer-unsupported (what the runtime asks for) the kernel is left out
; and the module table carries the reason for the launch to report.
; RUN: hetgpu-opt -passes=hetgpu-lower-spirv -hetgpu-spirv-defer-unsupported -S %s | FileCheck --check-prefix=DEFER %s
; RUN: %spirv_translate --features=+defer-unsupported %s -o %t.defer.spv
; RUN: spirv-val %t.defer.spv
; DEFER: c"hetgpu-spirv 2\0Ablock 48 16\0Aunsupported k 6b65726e656c20276b273a{{[0-9a-f]+}}\0A"
; DEFER-NOT: define{{.*}} @k(
; REQUIRES: spirv-val
; RUN: spirv-val %t.spv
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; ERR: kernel 'k': warp operation '__hetgpu_shfl_down_i32' is in code that not every thread of the block reaches the same number of times; a SPIR-V device without 32-wide sub-groups{{.*}}can only emulate warp operations in block-convergent code
define void @k(ptr %out, i32 %v) #0 {
entry:
  %t = call i32 @__hetgpu_tid_x()
  %c = icmp ult i32 %t, 32
  br i1 %c, label %warp0, label %done
warp0:
  %s = call i32 @__hetgpu_shfl_down_i32(i32 -1, i32 %v, i32 1, i32 32)
  store i32 %s, ptr %out
  br label %done
done:
  ret void
}
declare i32 @__hetgpu_tid_x()
declare i32 @__hetgpu_shfl_down_i32(i32, i32, i32, i32)
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1}
!0 = !{i32 1, i32 0}
!1 = !{ptr @k, !"name", !"k(int*, int)", !"params", !2, !"shared.static", i64 0, !"features", !3}
!2 = !{!{!"ptr", i32 8, i32 8}, !{!"value", i32 4, i32 4}}
!3 = !{}
