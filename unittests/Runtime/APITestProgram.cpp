//===- APITestProgram.cpp - The program the CUDA API tests drive ----------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Registers the containers of the program CudaAPITest.cpp drives, the way
/// hetgpu-cc's host code does (__cudaRegisterFatBinary/Function/Var), and
/// runs the tests against a private JIT cache directory.
///
//===----------------------------------------------------------------------===//

#include "APITestProgram.h"

#include "hetgpu/IR/Container.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <string>
#include <vector>

using namespace hetgpu;

namespace apitest {

// Host stubs and shadows: only their addresses matter.
char vecAdd, blockSum, dynShared, printer, asserter, trapper, addToCounter,
    readTable, structArg, slowSet, services, bounded, notInContainer, faulter;
char addToCounter2, counter2; // second container (another .cu file)
char badKernel;               // malformed container
char brokenKernel;            // container whose translation fails
int counter;                  // host shadows of __device__ variables
float table[4];
int neverRegistered;

std::string CacheDir;

} // namespace apitest

using namespace apitest;

namespace {

//===----------------------------------------------------------------------===//
// The registered program
//===----------------------------------------------------------------------===//

struct Wrapper {
  int Magic, Version;
  const void *Data;
  void *Unused;
};

container::ParamInfo P(container::ParamKind K, uint32_t Size, uint32_t Off) {
  container::ParamInfo Pi;
  Pi.Kind = K;
  Pi.Size = Size;
  Pi.Align = Size >= 8 ? 8 : Size;
  Pi.Offset = Off;
  return Pi;
}

container::KernelInfo K(const char *Name,
                        std::vector<container::ParamInfo> Params,
                        uint32_t BufSize, uint64_t Static = 0,
                        uint32_t MaxThreads = 0) {
  container::KernelInfo Ki;
  Ki.Name = Name;
  Ki.Demangled = Name;
  Ki.Params = std::move(Params);
  Ki.ParamBufferSize = BufSize;
  Ki.StaticShared = Static;
  Ki.MaxThreads = MaxThreads;
  return Ki;
}

const auto Ptr = container::ParamKind::Pointer;
const auto Val = container::ParamKind::Value;

std::string makeContainer(std::vector<container::KernelInfo> Kernels,
                          std::vector<container::GlobalInfo> Globals,
                          const std::string &IR) {
  container::Container C;
  container::ModuleInfo M;
  M.IRVersionMajor = 1;
  M.Kernels = std::move(Kernels);
  M.Globals = std::move(Globals);
  M.IR = IR;
  C.Modules.push_back(std::move(M));
  return container::write(C);
}

container::GlobalInfo G(const char *Name, uint64_t Size, uint32_t AS) {
  container::GlobalInfo Gi;
  Gi.Name = Name;
  Gi.Size = Size;
  Gi.AddrSpace = AS;
  return Gi;
}

// The containers live as long as the process (like .nv_fatbin sections).
std::string *Main, *Second, *Broken;
Wrapper MainW, SecondW, BadW, BrokenW;
const char Garbage[64] = "this is not a hetGPU container at all, sorry....";

void registerProgram() {
  Main = new std::string(makeContainer(
      {K("vecAdd", {P(Ptr, 8, 0), P(Ptr, 8, 8), P(Ptr, 8, 16), P(Val, 4, 24)},
         28),
       K("blockSum", {P(Ptr, 8, 0), P(Ptr, 8, 8)}, 16, 4096),
       K("dynShared", {P(Ptr, 8, 0)}, 8, 20),
       K("printer", {P(Val, 4, 0), P(Val, 8, 8)}, 16),
       K("asserter", {P(Ptr, 8, 0)}, 8), K("trapper", {}, 0),
       K("addToCounter", {P(Val, 4, 0)}, 4),
       K("readTable", {P(Ptr, 8, 0)}, 8),
       K("structArg",
         {P(container::ParamKind::ByVal, 24, 0), P(Ptr, 8, 24)}, 32),
       K("slowSet", {P(Ptr, 8, 0), P(Val, 4, 8), P(Val, 4, 12)}, 16),
       K("services", {P(Ptr, 8, 0)}, 8),
       K("bounded", {}, 0, 0, /*MaxThreads=*/64),
       K("faulter", {P(Val, 4, 0)}, 4)},
      {G("counter", 4, 1), G("table", 16, 4)}, "main module bitcode"));
  MainW = {0x466243b1, 1, Main->data(), nullptr};
  void **H = __cudaRegisterFatBinary(&MainW);
  auto Fn = [&](char &Stub, const char *Name) {
    __cudaRegisterFunction(H, &Stub, const_cast<char *>(Name), Name, -1,
                           nullptr, nullptr, nullptr, nullptr, nullptr);
  };
  Fn(vecAdd, "vecAdd");
  Fn(blockSum, "blockSum");
  Fn(dynShared, "dynShared");
  Fn(printer, "printer");
  Fn(asserter, "asserter");
  Fn(trapper, "trapper");
  Fn(addToCounter, "addToCounter");
  Fn(readTable, "readTable");
  Fn(structArg, "structArg");
  Fn(slowSet, "slowSet");
  Fn(services, "services");
  Fn(bounded, "bounded");
  Fn(notInContainer, "notInContainer");
  Fn(faulter, "faulter");
  __cudaRegisterVar(H, reinterpret_cast<char *>(&counter),
                    const_cast<char *>("counter"), "counter", 0, 4, 0, 0);
  __cudaRegisterVar(H, reinterpret_cast<char *>(table),
                    const_cast<char *>("table"), "table", 0, 16, 1, 0);
  __cudaRegisterFatBinaryEnd(H);

  // A second translation unit with its own module and its own `counter`.
  Second = new std::string(makeContainer({K("addToCounter", {P(Val, 4, 0)}, 4)},
                                         {G("counter", 4, 1)},
                                         "second module bitcode"));
  SecondW = {0x466243b1, 1, Second->data(), nullptr};
  void **H2 = __cudaRegisterFatBinary(&SecondW);
  __cudaRegisterFunction(H2, &addToCounter2,
                         const_cast<char *>("addToCounter"), "addToCounter",
                         -1, nullptr, nullptr, nullptr, nullptr, nullptr);
  __cudaRegisterVar(H2, &counter2, const_cast<char *>("counter"), "counter",
                    0, 4, 0, 0);
  __cudaRegisterFatBinaryEnd(H2);

  // A malformed container: registration must not crash.
  BadW = {0x466243b1, 1, Garbage, nullptr};
  void **H3 = __cudaRegisterFatBinary(&BadW);
  __cudaRegisterFunction(H3, &badKernel, const_cast<char *>("bad"), "bad", -1,
                         nullptr, nullptr, nullptr, nullptr, nullptr);

  // A container the translator refuses.
  Broken = new std::string(
      makeContainer({K("broken", {}, 0)}, {}, "FAIL: broken module"));
  BrokenW = {0x466243b1, 1, Broken->data(), nullptr};
  void **H4 = __cudaRegisterFatBinary(&BrokenW);
  __cudaRegisterFunction(H4, &brokenKernel, const_cast<char *>("broken"),
                         "broken", -1, nullptr, nullptr, nullptr, nullptr,
                         nullptr);
}

} // namespace

int main(int argc, char **argv) {
  ::testing::InitGoogleTest(&argc, argv);
  setenv("HETGPU_TRANSLATOR", HETGPU_TEST_TRANSLATOR, 1);
  setenv("HETGPU_TEST_MODULE", HETGPU_TEST_KERNELS, 1);
  setenv("HETGPU_DEVICE", "cpu", 1);
  if (const char *D = getenv("HETGPU_TEST_CACHE_DIR")) {
    CacheDir = D;
  } else {
    char Tmpl[] = "/tmp/hetgpu-api-test-XXXXXX";
    if (!mkdtemp(Tmpl))
      return 2;
    CacheDir = Tmpl;
  }
  setenv("HETGPU_CACHE_DIR", CacheDir.c_str(), 1);
  registerProgram();
  int RC = RUN_ALL_TESTS();
  if (!getenv("HETGPU_TEST_CACHE_DIR"))
    (void)system(("rm -rf '" + CacheDir + "'").c_str());
  return RC;
}
