; A recursive device function with a barrier cannot be inlined into the
; kernel: the pass reports the function and the reason and returns normally.
; RUN: not hetgpu-opt -passes=hetgpu-simt-to-mimd -disable-output %s 2>&1 | FileCheck --check-prefix=ERR %s
; ERR: error: {{.*}}device function 'rec' is recursive and uses thread-context builtins (thread indices, shared memory, barriers, warp operations or device services): not supported by the SIMT->MIMD lowering

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

define internal void @rec(i32 %n) {
  call void @__hetgpu_barrier()
  %c = icmp sgt i32 %n, 0
  br i1 %c, label %again, label %done
again:
  %m = sub i32 %n, 1
  call void @rec(i32 %m)
  br label %done
done:
  ret void
}

define void @k(i32 %n) #0 {
  call void @rec(i32 %n)
  ret void
}

declare void @__hetgpu_barrier()

attributes #0 = { "hetgpu-kernel" }
