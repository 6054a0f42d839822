; `exit;` alone in a kernel (CUB's ThreadExit after inlining) ends the
; thread: the kernel returns there and the code after it goes; in any other
; function it is an error (unsupported-error.ll). A guarded or combined exit
; stays an error (PTXLowering). Kernels still have the ptx_kernel calling
; convention here (the pass runs before hetgpu-raise), so the IR verifier
; checks the result.
; RUN: hetgpu-opt -passes=hetgpu-lower-inline-ptx -S %s | FileCheck %s
; RUN: hetgpu-opt -passes=hetgpu-lower-inline-ptx,verify -disable-output %s
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK-LABEL: define ptx_kernel void @k(ptr addrspace(1) %out, i1 %done)
; CHECK: early:
; CHECK-NEXT: store i32 1, ptr addrspace(1) %out
; CHECK-NEXT: ret void
; CHECK: late:
; CHECK-NEXT: store i32 2, ptr addrspace(1) %out
; CHECK-NOT: asm
; CHECK: ret void
define ptx_kernel void @k(ptr addrspace(1) %out, i1 %done) {
entry:
  br i1 %done, label %early, label %late
early:
  store i32 1, ptr addrspace(1) %out
  call void asm sideeffect "exit;", ""()
  store i32 3, ptr addrspace(1) %out
  br label %late
late:
  store i32 2, ptr addrspace(1) %out
  ret void
}
