; A recursive device function with a barrier cannot be inlined: a clear
; error names it.
; RUN: not hetgpu-opt -passes=hetgpu-raise -disable-output %s 2>&1 | FileCheck --check-prefix=ERR %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; ERR: error: {{.*}}recursive device function 'rec' contains __syncthreads()
define void @rec(i32 %n) {
  call void @__hetgpu_barrier()
  %c = icmp eq i32 %n, 0
  br i1 %c, label %done, label %again
again:
  %m = sub i32 %n, 1
  call void @rec(i32 %m)
  br label %done
done:
  ret void
}
define ptx_kernel void @k() {
  call void @rec(i32 3)
  ret void
}
declare void @__hetgpu_barrier()
