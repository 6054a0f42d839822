//===- DeviceMathTest.cpp - Tests of the device math library loader -------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
/// \file
/// Checks, for every triple, that lib/hetgpu-math-<triple>.bc defines every
/// math builtin of Builtins.def with exactly the builtin's type, keeps
/// nothing else external, declares nothing (no libc), carries no subtarget
/// attributes once loaded, and that linkDeviceMathLibrary resolves a
/// module's math calls and reports errors by name.
//===----------------------------------------------------------------------===//

#include "hetgpu/IR/Builtins.h"
#include "hetgpu/Targets/DeviceMath.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/Error.h"

#include "gtest/gtest.h"

#include <cstdlib>

using namespace llvm;
using namespace hetgpu;

namespace {

const char *const Triples[] = {"x86_64-unknown-linux-gnu",
                               "nvptx64-nvidia-cuda", "amdgcn-amd-amdhsa",
                               "riscv64-unknown-elf", "spirv64-unknown-unknown"};

std::vector<BuiltinID> mathBuiltins() {
  std::vector<BuiltinID> IDs;
#define HETGPU_MATH_F(Name, Arity) IDs.push_back(BuiltinID::math_##Name##f);
#define HETGPU_MATH_D(Name, Arity) IDs.push_back(BuiltinID::math_##Name);
#include "hetgpu/IR/Builtins.def"
  return IDs;
}

class DeviceMathTest : public ::testing::TestWithParam<const char *> {};

TEST_P(DeviceMathTest, DefinesEveryMathBuiltinWithItsType) {
  LLVMContext Ctx;
  Expected<std::unique_ptr<Module>> Lib = loadDeviceMathLibrary(Ctx, GetParam());
  ASSERT_TRUE(bool(Lib)) << toString(Lib.takeError());
  std::vector<BuiltinID> IDs = mathBuiltins();
  for (BuiltinID ID : IDs) {
    StringRef Name = getBuiltinInfo(ID).Name;
    Function *F = (*Lib)->getFunction(Name);
    ASSERT_NE(F, nullptr) << Name.str() << " missing for " << GetParam();
    EXPECT_FALSE(F->isDeclaration()) << Name.str();
    EXPECT_EQ(F->getFunctionType(), getBuiltinType(Ctx, ID)) << Name.str();
    EXPECT_FALSE(F->hasFnAttribute("target-cpu")) << Name.str();
    EXPECT_FALSE(F->hasFnAttribute("target-features")) << Name.str();
  }
  unsigned External = 0, Cold = 0;
  for (Function &F : **Lib) {
    if (F.isIntrinsic())
      continue;
    // Freestanding: nothing may be left for a C library to provide.
    EXPECT_FALSE(F.isDeclaration()) << "undefined " << F.getName().str();
    if (F.hasLocalLinkage())
      continue;
    // Rare paths out of line (src/MathInternal.h, HM_COLD): the host target
    // takes them from a prebuilt object.
    if (F.getName().starts_with("__hetgpu_mathc_")) {
      EXPECT_TRUE(F.hasFnAttribute(Attribute::NoInline)) << F.getName().str();
      ++Cold;
      continue;
    }
    EXPECT_TRUE(F.getName().starts_with(MathPrefix)) << F.getName().str();
    ++External;
  }
  EXPECT_EQ(External, IDs.size());
  EXPECT_EQ(Cold, 9u) << "the rare paths of src/Float.c and Core.c";
  for (GlobalVariable &G : (*Lib)->globals())
    EXPECT_TRUE(G.hasLocalLinkage()) << G.getName().str();
  EXPECT_EQ((*Lib)->getModuleFlagsMetadata(), nullptr);
  EXPECT_FALSE(verifyModule(**Lib, &errs()));
}

INSTANTIATE_TEST_SUITE_P(AllTriples, DeviceMathTest,
                         ::testing::ValuesIn(Triples));

TEST(DeviceMath, TripleMapping) {
  EXPECT_EQ(cantFail(getDeviceMathTriple("x86_64-pc-linux-gnu")),
            "x86_64-unknown-linux-gnu");
  EXPECT_EQ(cantFail(getDeviceMathTriple("nvptx64-nvidia-cuda")),
            "nvptx64-nvidia-cuda");
  EXPECT_EQ(cantFail(getDeviceMathTriple("riscv64-unknown-linux-gnu")),
            "riscv64-unknown-elf");
  Expected<std::string> Bad = getDeviceMathTriple("mips-unknown-linux");
  ASSERT_FALSE(bool(Bad));
  EXPECT_NE(toString(Bad.takeError()).find("no device math library for triple 'mips"),
            std::string::npos);
}

/// A module calling sinf and pow, in the shape the lowering targets produce.
std::unique_ptr<Module> makeUser(LLVMContext &Ctx, StringRef Triple) {
  auto M = std::make_unique<Module>("user", Ctx);
  M->setTargetTriple(llvm::Triple(Triple));
  Function *SinF = getOrDeclareBuiltin(*M, BuiltinID::math_sinf);
  Function *Pow = getOrDeclareBuiltin(*M, BuiltinID::math_pow);
  Type *F32 = Type::getFloatTy(Ctx), *F64 = Type::getDoubleTy(Ctx);
  Function *K = Function::Create(
      FunctionType::get(F64, {F32, F64}, false), Function::ExternalLinkage,
      "k", *M);
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", K));
  Value *S = B.CreateCall(SinF, {K->getArg(0)});
  Value *P = B.CreateCall(Pow, {K->getArg(1), B.CreateFPExt(S, F64)});
  B.CreateRet(P);
  return M;
}

TEST(DeviceMath, LinkResolvesOnlyWhatIsUsed) {
  for (const char *T : Triples) {
    LLVMContext Ctx;
    std::unique_ptr<Module> M = makeUser(Ctx, T);
    ASSERT_FALSE(bool(linkDeviceMathLibrary(*M))) << T;
    EXPECT_FALSE(M->getFunction("__hetgpu_math_sinf")->isDeclaration()) << T;
    EXPECT_FALSE(M->getFunction("__hetgpu_math_pow")->isDeclaration()) << T;
    EXPECT_EQ(M->getFunction("__hetgpu_math_cos"), nullptr) << T;
    EXPECT_FALSE(verifyModule(*M, &errs())) << T;
  }
}

TEST(DeviceMath, NoMathNoLoad) {
  LLVMContext Ctx;
  Module M("empty", Ctx);
  M.setTargetTriple(llvm::Triple("mips-unknown-linux")); // no library exists
  EXPECT_FALSE(bool(linkDeviceMathLibrary(M)));
}

TEST(DeviceMath, ErrorsNameTheProblem) {
  LLVMContext Ctx;
  std::unique_ptr<Module> M = makeUser(Ctx, "mips-unknown-linux");
  Error E = linkDeviceMathLibrary(*M);
  ASSERT_TRUE(bool(E));
  EXPECT_NE(toString(std::move(E)).find("mips"), std::string::npos);

  // A library directory without the file: the message lists where it looked.
  ::setenv("HETGPU_MATH_LIBRARY", "/nonexistent-dir/x.bc", 1);
  Expected<std::string> P = findDeviceMathLibrary("nvptx64-nvidia-cuda");
  ::unsetenv("HETGPU_MATH_LIBRARY");
  if (P) // found next to the binary after the missing override: fine
    SUCCEED();
  else
    EXPECT_NE(toString(P.takeError()).find("/nonexistent-dir/x.bc"),
              std::string::npos);
}

} // namespace
