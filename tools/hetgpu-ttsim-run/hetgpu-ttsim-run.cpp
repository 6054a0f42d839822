//===- hetgpu-ttsim-run.cpp - Launch a kernel of an rvmc image on tt-sim --===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// A test driver for the tt-sim device that needs neither the CUDA runtime
/// API nor the translator: it loads an rvmc image (from hetgpu-translate
/// --target=rvmc or linked by hand), creates buffers, launches one kernel
/// through the Device/Queue interface and prints buffers and variables.
///
/// USAGE: hetgpu-ttsim-run IMAGE KERNEL [options] [params...]
///   --grid X[,Y[,Z]]  --block X[,Y[,Z]]  --dyn-shared BYTES
///   --shared BYTES            static shared bytes of the kernel (container)
///   --launches N              launch N times (same arguments)
/// params, in kernel parameter order:
///   buf:i32|f32|u32:COUNT[:iota|:zero|:=VALUE]   device buffer (pointer)
///   i32:V  i64:V  f32:V  f64:V                   scalar by value
/// after the launch:
///   --print B                 print parameter B's buffer (index from 0)
///   --global NAME:i32|f32:COUNT   print a device variable
///   --set-global NAME:i32:V   write a device variable before the launch
///
//===----------------------------------------------------------------------===//

#include "Backends/TTSim/TTSim.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

using namespace hetgpu;
using namespace hetgpu::rt;

namespace {
[[noreturn]] void die(const std::string &Msg) {
  std::fprintf(stderr, "hetgpu-ttsim-run: %s\n", Msg.c_str());
  std::exit(1);
}
void check(const Status &S, const char *What) {
  if (S)
    die(std::string(What) + ": " + S.Message);
}
std::vector<std::string> split(const std::string &S, char C) {
  std::vector<std::string> Out;
  size_t B = 0;
  for (;;) {
    size_t E = S.find(C, B);
    Out.push_back(S.substr(B, E - B));
    if (E == std::string::npos)
      return Out;
    B = E + 1;
  }
}
void dims(const std::string &S, uint32_t D[3]) {
  auto P = split(S, ',');
  for (size_t I = 0; I < 3; ++I)
    D[I] = I < P.size() ? uint32_t(std::strtoul(P[I].c_str(), nullptr, 0)) : 1;
}
struct Param {
  std::string Type;
  size_t Count = 0;
  void *Dev = nullptr;
  std::vector<char> Bytes; // scalar bytes, or the pointer
  bool IsBuf = false;
};
void printValues(const std::string &Label, const std::string &Type,
                 const char *Data, size_t Count) {
  std::printf("%s:", Label.c_str());
  for (size_t I = 0; I < Count; ++I) {
    if (Type == "f32") {
      float F;
      std::memcpy(&F, Data + I * 4, 4);
      std::printf(" %g", F);
    } else if (Type == "u32") {
      uint32_t U;
      std::memcpy(&U, Data + I * 4, 4);
      std::printf(" %u", U);
    } else {
      int32_t V;
      std::memcpy(&V, Data + I * 4, 4);
      std::printf(" %d", V);
    }
  }
  std::printf("\n");
}
} // namespace

int main(int Argc, char **Argv) {
  if (Argc < 3)
    die("usage: hetgpu-ttsim-run IMAGE KERNEL [options] [params...]");
  std::ifstream In(Argv[1], std::ios::binary);
  if (!In)
    die(std::string("cannot read ") + Argv[1]);
  std::vector<char> Image((std::istreambuf_iterator<char>(In)),
                          std::istreambuf_iterator<char>());
  std::string KernelName = Argv[2];
  uint32_t Grid[3] = {1, 1, 1}, Block[3] = {1, 1, 1};
  uint64_t Dyn = 0, Shared = 0;
  unsigned Launches = 1;
  std::vector<std::string> ParamSpecs, Prints, Globals, SetGlobals;
  for (int I = 3; I < Argc; ++I) {
    std::string A = Argv[I];
    auto Next = [&]() -> std::string {
      if (I + 1 >= Argc)
        die("missing value after " + A);
      return Argv[++I];
    };
    if (A == "--grid")
      dims(Next(), Grid);
    else if (A == "--block")
      dims(Next(), Block);
    else if (A == "--dyn-shared")
      Dyn = std::strtoull(Next().c_str(), nullptr, 0);
    else if (A == "--shared")
      Shared = std::strtoull(Next().c_str(), nullptr, 0);
    else if (A == "--launches")
      Launches = unsigned(std::strtoul(Next().c_str(), nullptr, 0));
    else if (A == "--print")
      Prints.push_back(Next());
    else if (A == "--global")
      Globals.push_back(Next());
    else if (A == "--set-global")
      SetGlobals.push_back(Next());
    else
      ParamSpecs.push_back(A);
  }

  std::unique_ptr<Backend> B = createTTSimBackend();
  std::vector<std::unique_ptr<Device>> Devs;
  check(B->discover(Devs), "discover");
  Device &D = *Devs.at(0);
  std::unique_ptr<Queue> Q;
  check(D.createQueue(Q), "createQueue");

  container::ModuleInfo MI;
  container::KernelInfo KI;
  KI.Name = KernelName;
  KI.StaticShared = Shared;
  KI.Features = container::FeatMalloc;
  std::vector<Param> Params;
  uint32_t Off = 0;
  for (const std::string &S : ParamSpecs) {
    auto F = split(S, ':');
    Param P;
    container::ParamInfo PI;
    if (F[0] == "buf") {
      if (F.size() < 3)
        die("bad buffer parameter " + S);
      P.IsBuf = true;
      P.Type = F[1];
      P.Count = std::strtoull(F[2].c_str(), nullptr, 0);
      check(D.allocate(P.Count * 4, P.Dev), "allocate");
      std::vector<char> Host(P.Count * 4, 0);
      std::string Init = F.size() > 3 ? F[3] : "zero";
      for (size_t I = 0; I < P.Count; ++I) {
        if (P.Type == "f32") {
          float V = Init == "iota" ? float(I)
                    : Init[0] == '=' ? std::strtof(Init.c_str() + 1, nullptr)
                                     : 0.0f;
          std::memcpy(&Host[I * 4], &V, 4);
        } else {
          int32_t V = Init == "iota" ? int32_t(I)
                      : Init[0] == '=' ? int32_t(std::strtol(Init.c_str() + 1,
                                                             nullptr, 0))
                                       : 0;
          std::memcpy(&Host[I * 4], &V, 4);
        }
      }
      check(Q->memcpy(P.Dev, Host.data(), Host.size(),
                      CopyKind::HostToDevice),
            "memcpy");
      check(Q->synchronize(), "memcpy"); // Host dies with this iteration
      P.Bytes.resize(8);
      std::memcpy(P.Bytes.data(), &P.Dev, 8);
      PI.Kind = container::ParamKind::Pointer;
      PI.Size = PI.Align = 8;
    } else {
      if (F.size() != 2)
        die("bad scalar parameter " + S);
      P.Type = F[0];
      if (F[0] == "i32") {
        int32_t V = int32_t(std::strtol(F[1].c_str(), nullptr, 0));
        P.Bytes.assign(reinterpret_cast<char *>(&V),
                       reinterpret_cast<char *>(&V) + 4);
      } else if (F[0] == "i64") {
        int64_t V = std::strtoll(F[1].c_str(), nullptr, 0);
        P.Bytes.assign(reinterpret_cast<char *>(&V),
                       reinterpret_cast<char *>(&V) + 8);
      } else if (F[0] == "f32") {
        float V = std::strtof(F[1].c_str(), nullptr);
        P.Bytes.assign(reinterpret_cast<char *>(&V),
                       reinterpret_cast<char *>(&V) + 4);
      } else if (F[0] == "f64") {
        double V = std::strtod(F[1].c_str(), nullptr);
        P.Bytes.assign(reinterpret_cast<char *>(&V),
                       reinterpret_cast<char *>(&V) + 8);
      } else {
        die("unknown parameter type in " + S);
      }
      PI.Kind = container::ParamKind::Value;
      PI.Size = PI.Align = uint32_t(P.Bytes.size());
    }
    Off = (Off + PI.Align - 1) & ~(PI.Align - 1);
    PI.Offset = Off;
    Off += PI.Size;
    KI.Params.push_back(PI);
    Params.push_back(std::move(P));
  }
  KI.ParamBufferSize = Off;
  MI.Kernels.push_back(KI);

  std::unique_ptr<Module> M;
  check(D.loadModule(Image, MI, M), "loadModule");
  for (const std::string &S : SetGlobals) {
    auto F = split(S, ':');
    void *Addr;
    size_t Size;
    check(M->getGlobal(F.at(0), Addr, Size), "getGlobal");
    int32_t V = int32_t(std::strtol(F.at(2).c_str(), nullptr, 0));
    check(Q->memcpy(Addr, &V, 4, CopyKind::HostToDevice), "memcpy");
    check(Q->synchronize(), "memcpy");
  }
  Kernel *K;
  check(M->getKernel(KernelName, K), "getKernel");
  std::vector<void *> Args;
  for (Param &P : Params)
    Args.push_back(P.Bytes.data());
  LaunchParams LP;
  std::memcpy(LP.Grid, Grid, sizeof(Grid));
  std::memcpy(LP.Block, Block, sizeof(Block));
  LP.DynamicShared = Dyn;
  LP.Args = Args.data();
  for (unsigned I = 0; I < Launches; ++I)
    check(Q->launch(*K, LP), "launch");
  check(Q->synchronize(), "launch");
  for (const std::string &S : Prints) {
    size_t I = std::strtoul(S.c_str(), nullptr, 0);
    if (I >= Params.size() || !Params[I].IsBuf)
      die("--print " + S + " is not a buffer parameter");
    std::vector<char> Host(Params[I].Count * 4);
    check(Q->memcpy(Host.data(), Params[I].Dev, Host.size(),
                    CopyKind::DeviceToHost),
          "memcpy");
    check(Q->synchronize(), "memcpy");
    printValues("param " + S, Params[I].Type, Host.data(), Params[I].Count);
  }
  for (const std::string &S : Globals) {
    auto F = split(S, ':');
    void *Addr;
    size_t Size;
    check(M->getGlobal(F.at(0), Addr, Size), "getGlobal");
    size_t Count = std::strtoul(F.at(2).c_str(), nullptr, 0);
    std::vector<char> Host(Count * 4);
    check(Q->memcpy(Host.data(), Addr, Host.size(), CopyKind::DeviceToHost),
          "memcpy");
    check(Q->synchronize(), "memcpy");
    printValues(F[0], F[1], Host.data(), Count);
  }
  for (Param &P : Params)
    if (P.IsBuf)
      check(D.release(P.Dev), "release");
  return 0;
}
