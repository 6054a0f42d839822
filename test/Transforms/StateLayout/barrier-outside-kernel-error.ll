; A barrier left in a device function (not inlined into a kernel) has no
; state layout: the pass reports it by name.
; RUN: not hetgpu-opt -passes=hetgpu-state-layout -disable-output %s 2>&1 | FileCheck --check-prefix=ERR %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; ERR: error: {{.*}}__syncthreads() in device function 'helper' that was not inlined into a kernel
define void @helper() {
  call void @__hetgpu_barrier()
  ret void
}
declare void @__hetgpu_barrier()
