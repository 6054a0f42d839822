; A device function that uses thread-context builtins cannot be called
; through a pointer (it is inlined into kernels): reported as an error.
; RUN: not hetgpu-opt -passes=hetgpu-simt-to-mimd -disable-output %s 2>&1 | FileCheck --check-prefix=ERR %s
; ERR: error: {{.*}}device function 'byptr' uses thread-context builtins {{.*}}and its address is taken: indirect calls to such functions are not supported

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

@fp = global ptr @byptr

define internal i32 @byptr() {
  %t = call i32 @__hetgpu_tid_x()
  ret i32 %t
}

define void @k(ptr %out) #0 {
  %f = load ptr, ptr @fp
  %v = call i32 %f()
  store i32 %v, ptr %out
  ret void
}

declare i32 @__hetgpu_tid_x()

attributes #0 = { "hetgpu-kernel" }
