//===- PrintfTest.cpp - Tests of device printf formatting -----------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The vprintf buffer is a struct of the promoted arguments, each at its
/// natural alignment: the tests build it as a C++ struct, which has exactly
/// that layout.
///
//===----------------------------------------------------------------------===//

#include "Core/Printf.h"

#include "gtest/gtest.h"

#include <cstdint>

using hetgpu::rt::formatDevicePrintf;

namespace {

TEST(DevicePrintf, PlainTextAndPercent) {
  EXPECT_EQ(formatDevicePrintf("hello\n", nullptr), "hello\n");
  EXPECT_EQ(formatDevicePrintf("100%% done", nullptr), "100% done");
  EXPECT_EQ(formatDevicePrintf("", nullptr), "");
}

TEST(DevicePrintf, MixedArgumentsAtNaturalAlignment) {
  struct {
    int32_t I;      // offset 0
    double D;       // offset 8 (float promoted to double)
    const char *S;  // offset 16
    int64_t L;      // offset 24
    int32_t C;      // offset 32 (%c is an int)
    uint32_t U;     // offset 36
  } Buf = {-7, 2.5, "str", 1234567890123ll, 'Z', 0xbeefu};
  EXPECT_EQ(formatDevicePrintf("%d %f %s %lld %c %x", &Buf),
            "-7 2.500000 str 1234567890123 Z beef");
}

TEST(DevicePrintf, IntFollowedByIntIsPacked) {
  struct {
    int32_t A, B;
    int64_t C;
  } Buf = {1, 2, 3};
  EXPECT_EQ(formatDevicePrintf("%d,%i,%ld", &Buf), "1,2,3");
}

TEST(DevicePrintf, WidthPrecisionFlags) {
  struct {
    int32_t A, B; // two ints packed at 0 and 4
    double C;     // at 8
    uint32_t D;   // at 16
  } Buf = {42, 255, 3.14159, 255};
  EXPECT_EQ(formatDevicePrintf("[%5d][%-5d|][%08.3f][%#x]", &Buf),
            "[   42][255  |][0003.142][0xff]")
      ;
}

TEST(DevicePrintf, StarWidthAndPrecision) {
  struct {
    int32_t W;
    int32_t V;
    int32_t W2, P2;
    double D;
  } Buf = {6, 42, 8, 2, 1.23456};
  EXPECT_EQ(formatDevicePrintf("[%*d][%*.*f]", &Buf), "[    42][    1.23]");
}

TEST(DevicePrintf, LengthModifiers) {
  struct {
    int32_t HH;  // %hhd of 255 -> -1
    int32_t H;   // %hu of 70000 -> 4464
    uint64_t Z;  // %zu
    int64_t J;   // %jd
    uint64_t LLX;
  } Buf = {255, 70000, 18446744073709551615ull, -5, 0x123456789abcdefull};
  EXPECT_EQ(formatDevicePrintf("%hhd %hu %zu %jd %llX", &Buf),
            "-1 4464 18446744073709551615 -5 123456789ABCDEF");
}

TEST(DevicePrintf, FloatingFormats) {
  struct {
    double A, B, C;
  } Buf = {1e10, 0.000123, -0.5};
  EXPECT_EQ(formatDevicePrintf("%e %g %.1f", &Buf),
            "1.000000e+10 0.000123 -0.5");
}

TEST(DevicePrintf, NullStringAndPointer) {
  struct {
    const char *S;
    void *P;
  } Buf = {nullptr, reinterpret_cast<void *>(0x1000)};
  EXPECT_EQ(formatDevicePrintf("%s %p", &Buf), "(null) 0x1000");
}

TEST(DevicePrintf, UnknownConversionAndTrailingPercent) {
  struct {
    int32_t A;
  } Buf = {5};
  EXPECT_EQ(formatDevicePrintf("%y %d %", &Buf), "%y 5 %");
}

TEST(DevicePrintf, LongStringIsNotTruncated) {
  std::string Long(1000, 'a');
  struct {
    const char *S;
  } Buf = {Long.c_str()};
  EXPECT_EQ(formatDevicePrintf("<%s>", &Buf), "<" + Long + ">");
}

} // namespace
