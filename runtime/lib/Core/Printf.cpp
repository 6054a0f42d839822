//===- Printf.cpp - CUDA device printf formatting -------------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Walks the format string one conversion at a time, reads each argument
/// from the vprintf buffer at its natural alignment and formats it with the
/// host's snprintf.
///
//===----------------------------------------------------------------------===//

#include "Core/Printf.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <mutex>

using namespace hetgpu;
using namespace hetgpu::rt;

namespace {

/// Reads arguments from the vprintf buffer at their natural alignment.
class ArgReader {
public:
  explicit ArgReader(const void *Base)
      : Base(static_cast<const unsigned char *>(Base)) {}

  template <typename T> T read() {
    T V{};
    if (!Base)
      return V;
    Offset = (Offset + sizeof(T) - 1) / sizeof(T) * sizeof(T);
    memcpy(&V, Base + Offset, sizeof(T));
    Offset += sizeof(T);
    return V;
  }

private:
  const unsigned char *Base;
  size_t Offset = 0;
};

template <typename... Ts>
void appendf(std::string &Out, const char *Spec, Ts... Vals) {
  char Small[256];
  int N = snprintf(Small, sizeof(Small), Spec, Vals...);
  if (N < 0)
    return;
  if (static_cast<size_t>(N) < sizeof(Small)) {
    Out.append(Small, N);
    return;
  }
  std::string Big(static_cast<size_t>(N) + 1, '\0');
  snprintf(&Big[0], Big.size(), Spec, Vals...);
  Out.append(Big.data(), N);
}

/// Formats one value with the conversion spec \p Spec and optional '*'
/// width/precision values.
template <typename T>
void appendWithStars(std::string &Out, const std::string &Spec, int NumStars,
                     int Star0, int Star1, T V) {
  if (NumStars == 0)
    appendf(Out, Spec.c_str(), V);
  else if (NumStars == 1)
    appendf(Out, Spec.c_str(), Star0, V);
  else
    appendf(Out, Spec.c_str(), Star0, Star1, V);
}

} // namespace

std::string hetgpu::rt::formatDevicePrintf(const char *Format,
                                           const void *Args) {
  std::string Out;
  if (!Format)
    return Out;
  ArgReader R(Args);
  const char *P = Format;
  while (*P) {
    if (*P != '%') {
      const char *Q = strchr(P, '%');
      size_t Len = Q ? size_t(Q - P) : strlen(P);
      Out.append(P, Len);
      P += Len;
      continue;
    }
    const char *Start = P++;
    if (*P == '%') {
      Out.push_back('%');
      ++P;
      continue;
    }
    // Flags, width, precision.
    std::string Spec = "%";
    int NumStars = 0, Stars[2] = {0, 0};
    while (*P && strchr("-+ #0'", *P))
      Spec.push_back(*P++);
    if (*P == '*') {
      Stars[NumStars++] = R.read<int32_t>();
      Spec.push_back(*P++);
    } else {
      while (*P >= '0' && *P <= '9')
        Spec.push_back(*P++);
    }
    if (*P == '.') {
      Spec.push_back(*P++);
      if (*P == '*') {
        Stars[NumStars++] = R.read<int32_t>();
        Spec.push_back(*P++);
      } else {
        while (*P >= '0' && *P <= '9')
          Spec.push_back(*P++);
      }
    }
    // Length modifier: 0 = none, 1 = h, 2 = hh, 3 = 64-bit, 4 = L.
    int Len = 0;
    if (*P == 'h') {
      Len = 1;
      if (*++P == 'h') {
        Len = 2;
        ++P;
      }
    } else if (*P == 'l') {
      Len = 3;
      if (*++P == 'l')
        ++P;
    } else if (*P == 'j' || *P == 'z' || *P == 't' || *P == 'q') {
      Len = 3;
      ++P;
    } else if (*P == 'L') {
      Len = 4;
      ++P;
    }
    char C = *P;
    if (!C) {
      // Incomplete conversion at the end: print it as is.
      Out.append(Start);
      break;
    }
    ++P;
    switch (C) {
    case 'd':
    case 'i': {
      if (Len == 3) {
        appendWithStars(Out, Spec + "lld", NumStars, Stars[0], Stars[1],
                        static_cast<long long>(R.read<int64_t>()));
      } else {
        int32_t V = R.read<int32_t>();
        if (Len == 1)
          V = static_cast<short>(V);
        else if (Len == 2)
          V = static_cast<signed char>(V);
        appendWithStars(Out, Spec + "d", NumStars, Stars[0], Stars[1], V);
      }
      break;
    }
    case 'u':
    case 'x':
    case 'X':
    case 'o': {
      if (Len == 3) {
        appendWithStars(Out, Spec + "ll" + C, NumStars, Stars[0], Stars[1],
                        static_cast<unsigned long long>(R.read<uint64_t>()));
      } else {
        uint32_t V = R.read<uint32_t>();
        if (Len == 1)
          V = static_cast<unsigned short>(V);
        else if (Len == 2)
          V = static_cast<unsigned char>(V);
        appendWithStars(Out, Spec + C, NumStars, Stars[0], Stars[1],
                        static_cast<unsigned>(V));
      }
      break;
    }
    case 'c': {
      int V = Len == 3 ? static_cast<int>(R.read<int64_t>())
                       : R.read<int32_t>();
      appendWithStars(Out, Spec + "c", NumStars, Stars[0], Stars[1], V);
      break;
    }
    case 'f':
    case 'F':
    case 'e':
    case 'E':
    case 'g':
    case 'G':
    case 'a':
    case 'A':
      appendWithStars(Out, Spec + C, NumStars, Stars[0], Stars[1],
                      R.read<double>());
      break;
    case 's': {
      const char *S = reinterpret_cast<const char *>(R.read<uint64_t>());
      appendWithStars(Out, Spec + "s", NumStars, Stars[0], Stars[1],
                      S ? S : "(null)");
      break;
    }
    case 'p': {
      void *V = reinterpret_cast<void *>(R.read<uint64_t>());
      appendWithStars(Out, Spec + "p", NumStars, Stars[0], Stars[1], V);
      break;
    }
    case 'n':
      (void)R.read<uint64_t>();
      break;
    default:
      // Not a conversion printf knows: print the text unchanged.
      Out.append(Start, P - Start);
      break;
    }
  }
  return Out;
}

int hetgpu::rt::devicePrintf(const char *Format, const void *Args) {
  if (!Format)
    return -1;
  std::string Text = formatDevicePrintf(Format, Args);
  static std::mutex M;
  std::lock_guard<std::mutex> Lock(M);
  fwrite(Text.data(), 1, Text.size(), stdout);
  fflush(stdout);
  return static_cast<int>(Text.size());
}

void hetgpu::rt::emitDevicePrintf(const char *Format, const void *Args,
                                  bool ToStderr) {
  if (!ToStderr) {
    devicePrintf(Format, Args);
    return;
  }
  std::string Text = formatDevicePrintf(Format, Args);
  fflush(stdout);
  fputs(Text.c_str(), stderr);
  fflush(stderr);
}
