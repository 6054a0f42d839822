; setp (signed/unsigned/float ordered/unordered comparisons, boolean
; combination, two destinations), selp, set and slct.
; RUN: hetgpu-opt -passes=hetgpu-lower-inline-ptx -S %s | FileCheck %s
; RUN: hetgpu-opt -passes=hetgpu-lower-inline-ptx,hetgpu-verify -disable-output %s
; RUN: hetgpu-opt -passes=hetgpu-lower-inline-ptx,hetgpu-lower-inline-ptx -S %s | FileCheck %s
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK-LABEL: define i32 @setp_selp(i32 %a, i32 %b)
; CHECK-NEXT: [[T1:%.*]] = icmp slt i32 %a, %b
; CHECK-NEXT: [[T2:%.*]] = select i1 [[T1]], i32 %a, i32 %b
; CHECK-NEXT: ret i32 [[T2]]
; CHECK-NEXT: }
define i32 @setp_selp(i32 %a, i32 %b) {
  %r = call i32 asm "{ .reg .pred p; setp.lt.s32 p, $1, $2; selp.u32 $0, $1, $2, p; }", "=r,r,r"(i32 %a, i32 %b)
  ret i32 %r
}

; CHECK-LABEL: define i32 @setp_unsigned_pair(i32 %a, i32 %b, i32 %c)
; CHECK-NEXT: [[T1:%.*]] = icmp ne i32 %c, 0
; CHECK-NEXT: [[T2:%.*]] = icmp ugt i32 %a, %b
; CHECK-NEXT: [[T3:%.*]] = xor i1 [[T2]], true
; CHECK-NEXT: [[T4:%.*]] = xor i1 [[T1]], true
; CHECK-NEXT: [[T5:%.*]] = and i1 [[T3]], [[T4]]
; CHECK-NEXT: [[T6:%.*]] = select i1 [[T5]], i32 1, i32 2
; CHECK-NEXT: ret i32 [[T6]]
; CHECK-NEXT: }
define i32 @setp_unsigned_pair(i32 %a, i32 %b, i32 %c) {
  %r = call i32 asm "{ .reg .pred p, q, z; setp.ne.u32 z, $3, 0; setp.hi.and.u32 p|q, $1, $2, !z; selp.u32 $0, 1, 2, q; }", "=r,r,r,r"(i32 %a, i32 %b, i32 %c)
  ret i32 %r
}

; CHECK-LABEL: define i32 @setp_float(float %a, float %b)
; CHECK-NEXT: [[T1:%.*]] = fcmp ult float %a, %b
; CHECK-NEXT: [[T2:%.*]] = fcmp uno float %a, %b
; CHECK-NEXT: [[T3:%.*]] = or i1 [[T1]], [[T2]]
; CHECK-NEXT: [[T4:%.*]] = select i1 [[T3]], i32 -1, i32 0
; CHECK-NEXT: ret i32 [[T4]]
; CHECK-NEXT: }
define i32 @setp_float(float %a, float %b) {
  %r = call i32 asm "{ .reg .pred p, q; setp.ltu.f32 p, $1, $2; setp.nan.f32 q, $1, $2; or.pred p, p, q; selp.s32 $0, -1, 0, p; }", "=r,f,f"(float %a, float %b)
  ret i32 %r
}

; CHECK-LABEL: define float @set_f32(float %a, float %b)
; CHECK-NEXT: [[T1:%.*]] = fcmp oge float %a, %b
; CHECK-NEXT: [[T2:%.*]] = select i1 [[T1]], float 1.000000e+00, float 0.000000e+00
; CHECK-NEXT: ret float [[T2]]
; CHECK-NEXT: }
define float @set_f32(float %a, float %b) {
  %r = call float asm "set.ge.f32.f32 $0, $1, $2;", "=f,f,f"(float %a, float %b)
  ret float %r
}

; CHECK-LABEL: define i32 @slct(i32 %a, i32 %b, i32 %c)
; CHECK-NEXT: [[T1:%.*]] = icmp sge i32 %c, 0
; CHECK-NEXT: [[T2:%.*]] = select i1 [[T1]], i32 %a, i32 %b
; CHECK-NEXT: ret i32 [[T2]]
; CHECK-NEXT: }
define i32 @slct(i32 %a, i32 %b, i32 %c) {
  %r = call i32 asm "slct.u32.s32 $0, $1, $2, $3;", "=r,r,r,r,r"(i32 %a, i32 %b, i32 %c, i32 0)
  ret i32 %r
}

; CHECK-LABEL: define i32 @minmax(i32 %a, i32 %b)
; CHECK-NEXT: [[T1:%.*]] = icmp ult i32 %a, %b
; CHECK-NEXT: [[T2:%.*]] = select i1 [[T1]], i32 %a, i32 %b
; CHECK-NEXT: [[T3:%.*]] = icmp slt i32 [[T2]], 5
; CHECK-NEXT: [[T4:%.*]] = select i1 [[T3]], i32 5, i32 [[T2]]
; CHECK-NEXT: ret i32 [[T4]]
; CHECK-NEXT: }
define i32 @minmax(i32 %a, i32 %b) {
  %r = call i32 asm "{ .reg .u32 t; min.u32 t, $1, $2; max.s32 $0, t, 5; }", "=r,r,r"(i32 %a, i32 %b)
  ret i32 %r
}

; CHECK-LABEL: define float @fminmax(float %a, float %b)
; CHECK-NEXT: [[T1:%.*]] = call float @llvm.maximum.f32(float %a, float %b)
; CHECK-NEXT: ret float [[T1]]
; CHECK-NEXT: }
define float @fminmax(float %a, float %b) {
  %r = call float asm "max.NaN.f32 $0, $1, $2;", "=f,f,f"(float %a, float %b)
  ret float %r
}

; Negative twin: no asm, nothing changes.
; CHECK-LABEL: define i32 @no_asm(i32 %x)
; CHECK-NEXT: %r = add i32 %x, 1
; CHECK-NEXT: ret i32 %r
; CHECK-NEXT: }
define i32 @no_asm(i32 %x) {
  %r = add i32 %x, 1
  ret i32 %r
}

!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{}
!0 = !{i32 1, i32 0}
