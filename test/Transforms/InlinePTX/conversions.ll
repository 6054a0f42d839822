; cvt: integer rounding to saturating conversions, .sat for integers and
; floats, f16/bf16, and exact directed rounding of f32 results.
; RUN: hetgpu-opt -passes=hetgpu-lower-inline-ptx -S %s | FileCheck %s
; RUN: hetgpu-opt -passes=hetgpu-lower-inline-ptx,hetgpu-verify -disable-output %s
; RUN: hetgpu-opt -passes=hetgpu-lower-inline-ptx,hetgpu-lower-inline-ptx -S %s | FileCheck %s
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK-LABEL: define i32 @f2i(float %f)
; CHECK-NEXT: [[T1:%.*]] = call float @llvm.roundeven.f32(float %f)
; CHECK-NEXT: [[T2:%.*]] = call i32 @llvm.fptosi.sat.i32.f32(float [[T1]])
; CHECK-NEXT: [[T3:%.*]] = call float @llvm.trunc.f32(float %f)
; CHECK-NEXT: [[T4:%.*]] = call i32 @llvm.fptoui.sat.i32.f32(float [[T3]])
; CHECK-NEXT: [[T5:%.*]] = insertvalue { i32, i32 } poison, i32 [[T2]], 0
; CHECK-NEXT: [[T6:%.*]] = insertvalue { i32, i32 } [[T5]], i32 [[T4]], 1
; CHECK-NEXT: %a = extractvalue { i32, i32 } [[T6]], 0
; CHECK-NEXT: ret i32 %a
; CHECK-NEXT: }
define i32 @f2i(float %f) {
  %r = call { i32, i32 } asm "cvt.rni.s32.f32 $0, $2;\0A\09cvt.rzi.u32.f32 $1, $2;", "=r,=r,f"(float %f)
  %a = extractvalue { i32, i32 } %r, 0
  ret i32 %a
}

; CHECK-LABEL: define i32 @i2i_sat(i32 %x)
; CHECK-NEXT: [[T1:%.*]] = sext i32 %x to i128
; CHECK-NEXT: [[T2:%.*]] = icmp slt i128 [[T1]], 0
; CHECK-NEXT: [[T3:%.*]] = select i1 [[T2]], i128 0, i128 [[T1]]
; CHECK-NEXT: [[T4:%.*]] = icmp sgt i128 [[T3]], 255
; CHECK-NEXT: [[T5:%.*]] = select i1 [[T4]], i128 255, i128 [[T3]]
; CHECK-NEXT: [[T6:%.*]] = trunc i128 [[T5]] to i8
; CHECK-NEXT: [[T7:%.*]] = zext i8 [[T6]] to i32
; CHECK-NEXT: ret i32 [[T7]]
; CHECK-NEXT: }
define i32 @i2i_sat(i32 %x) {
  %r = call i32 asm "cvt.sat.u8.s32 $0, $1;", "=r,r"(i32 %x)
  ret i32 %r
}

; CHECK-LABEL: define i64 @sext(i32 %x)
; CHECK-NEXT: [[T1:%.*]] = sext i32 %x to i64
; CHECK-NEXT: ret i64 [[T1]]
; CHECK-NEXT: }
define i64 @sext(i32 %x) {
  %r = call i64 asm "cvt.s64.s32 $0, $1;", "=l,r"(i32 %x)
  ret i64 %r
}

; CHECK-LABEL: define i16 @f2h(float %f)
; CHECK-NEXT: [[T1:%.*]] = fptrunc float %f to half
; CHECK-NEXT: [[T2:%.*]] = bitcast half [[T1]] to i16
; CHECK-NEXT: ret i16 [[T2]]
; CHECK-NEXT: }
define i16 @f2h(float %f) {
  %r = call i16 asm "cvt.rn.f16.f32 $0, $1;", "=h,f"(float %f)
  ret i16 %r
}

; CHECK-LABEL: define float @h2f(i16 %h)
; CHECK-NEXT: [[T1:%.*]] = bitcast i16 %h to half
; CHECK-NEXT: [[T2:%.*]] = fpext half [[T1]] to float
; CHECK-NEXT: ret float [[T2]]
; CHECK-NEXT: }
define float @h2f(i16 %h) {
  %r = call float asm "cvt.f32.f16 $0, $1;", "=f,h"(i16 %h)
  ret float %r
}

; CHECK-LABEL: define float @d2f_rz(double %d)
; CHECK-NEXT: [[T1:%.*]] = fptrunc double %d to float
; CHECK-NEXT: [[T2:%.*]] = fpext float [[T1]] to double
; CHECK-NEXT: [[T3:%.*]] = fcmp oeq double [[T2]], %d
; CHECK-NEXT: [[T4:%.*]] = and i1 [[T3]], false
; CHECK-NEXT: [[T5:%.*]] = fcmp ogt double [[T2]], %d
; CHECK-NEXT: [[T6:%.*]] = or i1 [[T5]], [[T4]]
; CHECK-NEXT: [[T7:%.*]] = and i1 [[T3]], false
; CHECK-NEXT: [[T8:%.*]] = fcmp olt double [[T2]], %d
; CHECK-NEXT: [[T9:%.*]] = or i1 [[T8]], [[T7]]
; CHECK-NEXT: [[T10:%.*]] = bitcast float [[T1]] to i32
; CHECK-NEXT: [[T11:%.*]] = fcmp oeq float [[T1]], 0.000000e+00
; CHECK-NEXT: [[T12:%.*]] = fcmp ogt float [[T1]], 0.000000e+00
; CHECK-NEXT: [[T13:%.*]] = add i32 [[T10]], 1
; CHECK-NEXT: [[T14:%.*]] = sub i32 [[T10]], 1
; CHECK-NEXT: [[T15:%.*]] = select i1 [[T12]], i32 [[T13]], i32 [[T14]]
; CHECK-NEXT: [[T16:%.*]] = select i1 [[T11]], i32 1, i32 [[T15]]
; CHECK-NEXT: [[T17:%.*]] = select i1 [[T12]], i32 [[T14]], i32 [[T13]]
; CHECK-NEXT: [[T18:%.*]] = select i1 [[T11]], i32 -2147483647, i32 [[T17]]
; CHECK-NEXT: [[T19:%.*]] = fcmp ogt double %d, 0.000000e+00
; CHECK-NEXT: [[T20:%.*]] = fcmp olt double %d, 0.000000e+00
; CHECK-NEXT: [[T21:%.*]] = and i1 [[T20]], [[T9]]
; CHECK-NEXT: [[T22:%.*]] = select i1 [[T21]], i32 [[T16]], i32 [[T10]]
; CHECK-NEXT: [[T23:%.*]] = and i1 [[T19]], [[T6]]
; CHECK-NEXT: [[T24:%.*]] = select i1 [[T23]], i32 [[T18]], i32 [[T22]]
; CHECK-NEXT: [[T25:%.*]] = bitcast i32 [[T24]] to float
; CHECK-NEXT: ret float [[T25]]
; CHECK-NEXT: }
define float @d2f_rz(double %d) {
  %r = call float asm "cvt.rz.f32.f64 $0, $1;", "=f,d"(double %d)
  ret float %r
}

; CHECK-LABEL: define float @mul_rz(float %a, float %b)
; CHECK-NEXT: [[T1:%.*]] = fpext float %a to double
; CHECK-NEXT: [[T2:%.*]] = fpext float %b to double
; CHECK-NEXT: [[T3:%.*]] = fmul double [[T1]], [[T2]]
; CHECK-NEXT: [[T4:%.*]] = fptrunc double [[T3]] to float
; CHECK-NEXT: [[T5:%.*]] = fpext float [[T4]] to double
; CHECK-NEXT: [[T6:%.*]] = fcmp oeq double [[T5]], [[T3]]
; CHECK-NEXT: [[T7:%.*]] = and i1 [[T6]], false
; CHECK-NEXT: [[T8:%.*]] = fcmp ogt double [[T5]], [[T3]]
; CHECK-NEXT: [[T9:%.*]] = or i1 [[T8]], [[T7]]
; CHECK-NEXT: [[T10:%.*]] = and i1 [[T6]], false
; CHECK-NEXT: [[T11:%.*]] = fcmp olt double [[T5]], [[T3]]
; CHECK-NEXT: [[T12:%.*]] = or i1 [[T11]], [[T10]]
; CHECK-NEXT: [[T13:%.*]] = bitcast float [[T4]] to i32
; CHECK-NEXT: [[T14:%.*]] = fcmp oeq float [[T4]], 0.000000e+00
; CHECK-NEXT: [[T15:%.*]] = fcmp ogt float [[T4]], 0.000000e+00
; CHECK-NEXT: [[T16:%.*]] = add i32 [[T13]], 1
; CHECK-NEXT: [[T17:%.*]] = sub i32 [[T13]], 1
; CHECK-NEXT: [[T18:%.*]] = select i1 [[T15]], i32 [[T16]], i32 [[T17]]
; CHECK-NEXT: [[T19:%.*]] = select i1 [[T14]], i32 1, i32 [[T18]]
; CHECK-NEXT: [[T20:%.*]] = select i1 [[T15]], i32 [[T17]], i32 [[T16]]
; CHECK-NEXT: [[T21:%.*]] = select i1 [[T14]], i32 -2147483647, i32 [[T20]]
; CHECK-NEXT: [[T22:%.*]] = fcmp ogt double [[T3]], 0.000000e+00
; CHECK-NEXT: [[T23:%.*]] = fcmp olt double [[T3]], 0.000000e+00
; CHECK-NEXT: [[T24:%.*]] = and i1 [[T23]], [[T12]]
; CHECK-NEXT: [[T25:%.*]] = select i1 [[T24]], i32 [[T19]], i32 [[T13]]
; CHECK-NEXT: [[T26:%.*]] = and i1 [[T22]], [[T9]]
; CHECK-NEXT: [[T27:%.*]] = select i1 [[T26]], i32 [[T21]], i32 [[T25]]
; CHECK-NEXT: [[T28:%.*]] = bitcast i32 [[T27]] to float
; CHECK-NEXT: ret float [[T28]]
; CHECK-NEXT: }
define float @mul_rz(float %a, float %b) {
  %r = call float asm "mul.rz.f32 $0, $1, $2;", "=f,f,f"(float %a, float %b)
  ret float %r
}

; CHECK-LABEL: define float @sat_ftz(float %a)
; CHECK-NEXT: [[T1:%.*]] = call float @llvm.fabs.f32(float %a)
; CHECK-NEXT: [[T2:%.*]] = fcmp olt float [[T1]], 0x3810000000000000
; CHECK-NEXT: [[T3:%.*]] = call float @llvm.copysign.f32(float 0.000000e+00, float %a)
; CHECK-NEXT: [[T4:%.*]] = select i1 [[T2]], float [[T3]], float %a
; CHECK-NEXT: [[T5:%.*]] = call float @llvm.fabs.f32(float [[T4]])
; CHECK-NEXT: [[T6:%.*]] = fcmp olt float [[T5]], 0x3810000000000000
; CHECK-NEXT: [[T7:%.*]] = call float @llvm.copysign.f32(float 0.000000e+00, float [[T4]])
; CHECK-NEXT: [[T8:%.*]] = select i1 [[T6]], float [[T7]], float [[T4]]
; CHECK-NEXT: [[T9:%.*]] = fcmp olt float [[T8]], 1.000000e+00
; CHECK-NEXT: [[T10:%.*]] = select i1 [[T9]], float [[T8]], float 1.000000e+00
; CHECK-NEXT: [[T11:%.*]] = fcmp ogt float [[T8]], 0.000000e+00
; CHECK-NEXT: [[T12:%.*]] = select i1 [[T11]], float [[T10]], float 0.000000e+00
; CHECK-NEXT: ret float [[T12]]
; CHECK-NEXT: }
define float @sat_ftz(float %a) {
  %r = call float asm "cvt.ftz.sat.f32.f32 $0, $1;", "=f,f"(float %a)
  ret float %r
}

; CHECK-LABEL: define float @approx(float %a)
; CHECK-NEXT: [[T1:%.*]] = fdiv float 1.000000e+00, %a
; CHECK-NEXT: [[T2:%.*]] = call float @llvm.sqrt.f32(float [[T1]])
; CHECK-NEXT: [[T3:%.*]] = call float @llvm.fabs.f32(float [[T2]])
; CHECK-NEXT: [[T4:%.*]] = fcmp olt float [[T3]], 0x3810000000000000
; CHECK-NEXT: [[T5:%.*]] = call float @llvm.copysign.f32(float 0.000000e+00, float [[T2]])
; CHECK-NEXT: [[T6:%.*]] = select i1 [[T4]], float [[T5]], float [[T2]]
; CHECK-NEXT: [[T7:%.*]] = call float @__hetgpu_math_exp2f(float [[T6]])
; CHECK-NEXT: [[T8:%.*]] = call float @llvm.fabs.f32(float [[T7]])
; CHECK-NEXT: [[T9:%.*]] = fcmp olt float [[T8]], 0x3810000000000000
; CHECK-NEXT: [[T10:%.*]] = call float @llvm.copysign.f32(float 0.000000e+00, float [[T7]])
; CHECK-NEXT: [[T11:%.*]] = select i1 [[T9]], float [[T10]], float [[T7]]
; CHECK-NEXT: ret float [[T11]]
; CHECK-NEXT: }
define float @approx(float %a) {
  %r = call float asm "{ .reg .f32 t; rcp.approx.f32 t, $1; sqrt.rn.f32 t, t; ex2.approx.ftz.f32 $0, t; }", "=f,f"(float %a)
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
