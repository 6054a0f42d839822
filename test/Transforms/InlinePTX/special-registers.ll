; Special registers become index builtins; those without a builtin are
; computed from them (%warpid, %nwarpid) or are constants (%smid, %nsmid).
; RUN: hetgpu-opt -passes=hetgpu-lower-inline-ptx -S %s | FileCheck %s
; RUN: hetgpu-opt -passes=hetgpu-lower-inline-ptx,hetgpu-verify -disable-output %s
; RUN: hetgpu-opt -passes=hetgpu-lower-inline-ptx,hetgpu-lower-inline-ptx -S %s | FileCheck %s
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK-LABEL: define i32 @laneid()
; CHECK-NEXT: [[T1:%.*]] = call i32 @__hetgpu_lane_id()
; CHECK-NEXT: ret i32 [[T1]]
; CHECK-NEXT: }
define i32 @laneid() {
  %r = call i32 asm "mov.u32 $0, %laneid;", "=r"()
  ret i32 %r
}

; CHECK-LABEL: define i32 @tid_ntid()
; CHECK-NEXT: [[T1:%.*]] = call i32 @__hetgpu_tid_x()
; CHECK-NEXT: [[T2:%.*]] = call i32 @__hetgpu_ntid_y()
; CHECK-NEXT: [[T3:%.*]] = call i32 @__hetgpu_ctaid_z()
; CHECK-NEXT: [[T4:%.*]] = call i32 @__hetgpu_nctaid_x()
; CHECK-NEXT: [[T5:%.*]] = insertvalue { i32, i32, i32, i32 } poison, i32 [[T1]], 0
; CHECK-NEXT: [[T6:%.*]] = insertvalue { i32, i32, i32, i32 } [[T5]], i32 [[T2]], 1
; CHECK-NEXT: [[T7:%.*]] = insertvalue { i32, i32, i32, i32 } [[T6]], i32 [[T3]], 2
; CHECK-NEXT: [[T8:%.*]] = insertvalue { i32, i32, i32, i32 } [[T7]], i32 [[T4]], 3
; CHECK-NEXT: %a = extractvalue { i32, i32, i32, i32 } [[T8]], 0
; CHECK-NEXT: %b = extractvalue { i32, i32, i32, i32 } [[T8]], 3
; CHECK-NEXT: %s = add i32 %a, %b
; CHECK-NEXT: ret i32 %s
; CHECK-NEXT: }
define i32 @tid_ntid() {
  %r = call { i32, i32, i32, i32 } asm "mov.u32 $0, %tid.x;\0A\09mov.u32 $1, %ntid.y;\0A\09mov.u32 $2, %ctaid.z;\0A\09mov.u32 $3, %nctaid.x;", "=r,=r,=r,=r"()
  %a = extractvalue { i32, i32, i32, i32 } %r, 0
  %b = extractvalue { i32, i32, i32, i32 } %r, 3
  %s = add i32 %a, %b
  ret i32 %s
}

; CHECK-LABEL: define i32 @warpid()
; CHECK-NEXT: [[T1:%.*]] = call i32 @__hetgpu_tid_x()
; CHECK-NEXT: [[T2:%.*]] = call i32 @__hetgpu_tid_y()
; CHECK-NEXT: [[T3:%.*]] = call i32 @__hetgpu_tid_z()
; CHECK-NEXT: [[T4:%.*]] = call i32 @__hetgpu_ntid_x()
; CHECK-NEXT: [[T5:%.*]] = call i32 @__hetgpu_ntid_y()
; CHECK-NEXT: [[T6:%.*]] = mul i32 [[T5]], [[T3]]
; CHECK-NEXT: [[T7:%.*]] = add i32 [[T2]], [[T6]]
; CHECK-NEXT: [[T8:%.*]] = mul i32 [[T4]], [[T7]]
; CHECK-NEXT: [[T9:%.*]] = add i32 [[T1]], [[T8]]
; CHECK-NEXT: [[T10:%.*]] = lshr i32 [[T9]], 5
; CHECK-NEXT: ret i32 [[T10]]
; CHECK-NEXT: }
define i32 @warpid() {
  %r = call i32 asm "mov.u32 $0, %warpid;", "=r"()
  ret i32 %r
}

; CHECK-LABEL: define i32 @nwarpid()
; CHECK-NEXT: [[T1:%.*]] = call i32 @__hetgpu_ntid_z()
; CHECK-NEXT: [[T2:%.*]] = call i32 @__hetgpu_ntid_y()
; CHECK-NEXT: [[T3:%.*]] = mul i32 [[T2]], [[T1]]
; CHECK-NEXT: [[T4:%.*]] = call i32 @__hetgpu_ntid_x()
; CHECK-NEXT: [[T5:%.*]] = mul i32 [[T4]], [[T3]]
; CHECK-NEXT: [[T6:%.*]] = add i32 [[T5]], 31
; CHECK-NEXT: [[T7:%.*]] = lshr i32 [[T6]], 5
; CHECK-NEXT: ret i32 [[T7]]
; CHECK-NEXT: }
define i32 @nwarpid() {
  %r = call i32 asm "mov.u32 $0, %nwarpid;", "=r"()
  ret i32 %r
}

; CHECK-LABEL: define i32 @smid()
; CHECK-NEXT: %a = extractvalue { i32, i32 } { i32 0, i32 1 }, 0
; CHECK-NEXT: ret i32 %a
; CHECK-NEXT: }
define i32 @smid() {
  %r = call { i32, i32 } asm "mov.u32 $0, %smid;\0A\09mov.u32 $1, %nsmid;", "=r,=r"()
  %a = extractvalue { i32, i32 } %r, 0
  ret i32 %a
}

; CHECK-LABEL: define i32 @lanemask_lt()
; CHECK-NEXT: [[T1:%.*]] = call i32 @__hetgpu_lane_id()
; CHECK-NEXT: [[T2:%.*]] = shl i32 1, [[T1]]
; CHECK-NEXT: [[T3:%.*]] = sub i32 [[T2]], 1
; CHECK-NEXT: ret i32 [[T3]]
; CHECK-NEXT: }
define i32 @lanemask_lt() {
  %r = call i32 asm "mov.u32 $0, %lanemask_lt;", "=r"()
  ret i32 %r
}

; CHECK-LABEL: define i32 @lanemask_ge()
; CHECK-NEXT: [[T1:%.*]] = call i32 @__hetgpu_lane_id()
; CHECK-NEXT: [[T2:%.*]] = shl i32 1, [[T1]]
; CHECK-NEXT: [[T3:%.*]] = sub i32 [[T2]], 1
; CHECK-NEXT: [[T4:%.*]] = xor i32 [[T3]], -1
; CHECK-NEXT: ret i32 [[T4]]
; CHECK-NEXT: }
define i32 @lanemask_ge() {
  %r = call i32 asm "mov.u32 $0, %lanemask_ge;", "=r"()
  ret i32 %r
}

; CHECK-LABEL: define i64 @clock64()
; CHECK-NEXT: [[T1:%.*]] = call i64 @__hetgpu_clock64()
; CHECK-NEXT: ret i64 [[T1]]
; CHECK-NEXT: }
define i64 @clock64() {
  %r = call i64 asm sideeffect "mov.u64 $0, %clock64;", "=l"()
  ret i64 %r
}

; CHECK-LABEL: define i32 @clock()
; CHECK-NEXT: [[T1:%.*]] = call i32 @__hetgpu_clock()
; CHECK-NEXT: ret i32 [[T1]]
; CHECK-NEXT: }
define i32 @clock() {
  %r = call i32 asm sideeffect "mov.u32 $0, %clock;", "=r"()
  ret i32 %r
}

; CHECK-LABEL: define i64 @globaltimer()
; CHECK-NEXT: [[T1:%.*]] = call i64 @__hetgpu_globaltimer()
; CHECK-NEXT: ret i64 [[T1]]
; CHECK-NEXT: }
define i64 @globaltimer() {
  %r = call i64 asm sideeffect "mov.u64 $0, %globaltimer;", "=l"()
  ret i64 %r
}

; CHECK-LABEL: define i32 @warp_sz()
; CHECK-NEXT: ret i32 32
; CHECK-NEXT: }
define i32 @warp_sz() {
  %r = call i32 asm "mov.u32 $0, WARP_SZ;", "=r"()
  ret i32 %r
}

; Negative twin: a call that is not asm stays.
; CHECK-LABEL: define internal i32 @other()
; CHECK-NEXT: ret i32 7
; CHECK-NEXT: }
define internal i32 @other() {
  ret i32 7
}
; CHECK-LABEL: define i32 @not_asm()
; CHECK-NEXT: %r = call i32 @other()
; CHECK-NEXT: ret i32 %r
; CHECK-NEXT: }
define i32 @not_asm() {
  %r = call i32 @other()
  ret i32 %r
}

!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{}
!0 = !{i32 1, i32 0}
