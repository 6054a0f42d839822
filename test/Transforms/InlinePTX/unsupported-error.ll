; Instructions and operands outside the subset are errors naming the
; instruction, the function and the asm line (the `!srcloc` cookie when
; present, which clang turns into the source location); one case per file.
; RUN: split-file %s %t
; RUN: not hetgpu-opt -passes=hetgpu-lower-inline-ptx -disable-output %t/tex.ll 2>&1 | FileCheck --check-prefix=ERR-TEX %s
; RUN: not hetgpu-opt -passes=hetgpu-lower-inline-ptx -disable-output %t/exit.ll 2>&1 | FileCheck --check-prefix=ERR-EXIT %s
; RUN: not hetgpu-opt -passes=hetgpu-lower-inline-ptx -disable-output %t/label.ll 2>&1 | FileCheck --check-prefix=ERR-LABEL %s
; RUN: not hetgpu-opt -passes=hetgpu-lower-inline-ptx -disable-output %t/unknown-register.ll 2>&1 | FileCheck --check-prefix=ERR-UNKNOWN-REGISTER %s
; RUN: not hetgpu-opt -passes=hetgpu-lower-inline-ptx -disable-output %t/memory-constraint.ll 2>&1 | FileCheck --check-prefix=ERR-MEMORY-CONSTRAINT %s
; RUN: not hetgpu-opt -passes=hetgpu-lower-inline-ptx -disable-output %t/param-space.ll 2>&1 | FileCheck --check-prefix=ERR-PARAM-SPACE %s
; RUN: not hetgpu-opt -passes=hetgpu-lower-inline-ptx -disable-output %t/operand-count.ll 2>&1 | FileCheck --check-prefix=ERR-OPERAND-COUNT %s
; RUN: not hetgpu-opt -passes=hetgpu-lower-inline-ptx -disable-output %t/rounding.ll 2>&1 | FileCheck --check-prefix=ERR-ROUNDING %s
; RUN: not hetgpu-opt -passes=hetgpu-lower-inline-ptx -disable-output %t/srcloc.ll 2>&1 | FileCheck --check-prefix=ERR-SRCLOC %s
; ERR-TEX: unsupported PTX instruction 'tex.1d.v4.s32.s32' (cannot parse its operands: {{.*}}) (inline asm line 2)
; ERR-EXIT: in function 'f': PTX instruction 'exit' outside a kernel
; ERR-LABEL: cannot parse inline PTX: labels and branches are not supported (label 'L1')
; ERR-UNKNOWN-REGISTER: unknown register '%envreg3'
; ERR-MEMORY-CONSTRAINT: memory operands ('m' constraints) are not supported
; ERR-PARAM-SPACE: unsupported PTX instruction 'ld.param.u32' (state space)
; ERR-OPERAND-COUNT: 'add.u32' takes 3 operands, 2 given
; ERR-ROUNDING: unsupported PTX instruction 'div.rz.f32' (directed rounding of division and square root)
; ERR-SRCLOC: error: in function 'f': unsupported PTX instruction 'suld.b.1d.b32.trap' {{.*}} at line 1234

;--- tex.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

define i32 @f(i64 %t, i32 %x) {
  %r = call i32 asm "mov.u32 $0, 0;\0A\09tex.1d.v4.s32.s32 {$0, _, _, _}, [$1, {$2}];", "=r,l,r"(i64 %t, i32 %x)
  ret i32 %r
}

;--- exit.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

define void @f() {
  call void asm sideeffect "exit;", ""()
  ret void
}

;--- label.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

define void @f() {
  call void asm sideeffect "L1:\0A\09bra L1;", ""()
  ret void
}

;--- unknown-register.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

define i32 @f() {
  %r = call i32 asm "mov.u32 $0, %envreg3;", "=r"()
  ret i32 %r
}

;--- memory-constraint.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

define void @f(ptr %p) {
  call void asm sideeffect "st.u32 $0, 1;", "=*m"(ptr elementtype(i32) %p)
  ret void
}

;--- param-space.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

define i32 @f(i64 %a) {
  %r = call i32 asm "ld.param.u32 $0, [$1];", "=r,l"(i64 %a)
  ret i32 %r
}

;--- operand-count.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

define i32 @f(i32 %a) {
  %r = call i32 asm "add.u32 $0, $1;", "=r,r"(i32 %a)
  ret i32 %r
}

;--- rounding.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

define float @f(float %a) {
  %r = call float asm "div.rz.f32 $0, $1, $1;", "=f,f"(float %a)
  ret float %r
}

;--- srcloc.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

define i32 @f(i64 %t) {
  %r = call i32 asm "suld.b.1d.b32.trap {$0}, [$1, {0}];", "=r,l"(i64 %t), !srcloc !9
  ret i32 %r
}
!9 = !{i64 1234}
