; hetgpu-lower-host makes integer division total (TotalDivision.h): a safe
; divisor (1 for 0, and for -1 with a dividend of INT_MIN), then the H200's
; value for a division by zero: -1 / all ones (64-bit: 0xffffffff when the
; dividend's upper half is zero), the dividend for a remainder. A constant
; divisor other than 0 and -1 is left alone.
; RUN: hetgpu-opt -passes=hetgpu-lower-host -S %s | FileCheck %s

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK-LABEL: define internal void @k.hetgpu.thread(
; CHECK: %div.zero = icmp eq i32 [[B:%[0-9]+]], 0
; CHECK: %div.ovf = and i1
; CHECK: %div.safe = select i1 {{%[0-9]+}}, i32 1, i32 [[B]]
; CHECK: [[Q:%[0-9]+]] = sdiv i32 {{%[0-9]+}}, %div.safe
; CHECK: %q = select i1 %div.zero, i32 -1, i32 [[Q]]
; CHECK: [[R:%[0-9]+]] = urem i32 %a, %div.safe{{[0-9]+}}
; CHECK: %r = select i1 %div.zero{{[0-9]+}}, i32 %a, i32 [[R]]
; CHECK: [[LQ:%[0-9]+]] = udiv i64 %la, %div.safe{{[0-9]+}}
; CHECK: [[BYZERO:%[0-9]+]] = select i1 {{%[0-9]+}}, i64 4294967295, i64 -1
; CHECK: %lq = select i1 %div.zero{{[0-9]+}}, i64 [[BYZERO]], i64 [[LQ]]
; CHECK: %c = udiv i32 %a, 7
; CHECK: %m = select i1 %div.zero{{[0-9]+}}, i32 {{%[0-9]+}}, i32 {{%[0-9]+}}
define void @k(ptr %out, i32 %a, i32 %b, i64 %la, i64 %lb) #0 {
  %q = sdiv i32 %a, %b
  %r = urem i32 %a, %b
  %lq = udiv i64 %la, %lb
  %c = udiv i32 %a, 7
  %m = srem i32 %a, -1
  store i32 %q, ptr %out
  %p1 = getelementptr i32, ptr %out, i64 1
  store i32 %r, ptr %p1
  %p2 = getelementptr i64, ptr %out, i64 1
  store i64 %lq, ptr %p2
  %p3 = getelementptr i32, ptr %out, i64 4
  store i32 %c, ptr %p3
  %p4 = getelementptr i32, ptr %out, i64 5
  store i32 %m, ptr %p4
  ret void
}

attributes #0 = { "hetgpu-kernel" }
