//===- SPIRVToSPIR.cpp - SPIR-V for consumers that take SPIR 1.2 ----------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// See SPIRVToSPIR.h. The translator runs with posix_spawn on files in a
/// private temporary directory; its stderr goes into the error message.
///
//===----------------------------------------------------------------------===//

#include "SPIRVToSPIR.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <iterator>
#include <map>
#include <spawn.h>
#include <sstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace hetgpu {
namespace rt {

namespace {
constexpr uint32_t SPIRVMagic = 0x07230203;
constexpr uint16_t OpName = 5, OpMemberName = 6, OpTypeBool = 20,
                   OpTypeInt = 21, OpTypeFloat = 22, OpConstantFalse = 41,
                   OpConstant = 43, OpConstantNull = 46, OpDecorate = 71,
                   OpMemberDecorate = 72, OpPhi = 245, OpLabel = 248,
                   OpBranch = 249, OpBranchConditional = 250, OpSwitch = 251;

/// Control-flow edges by (predecessor label, successor label): how many of
/// the predecessor's terminator operands name the successor. A switch with
/// several cases that go to one block gives that pair a count above one.
using EdgeCounts = std::map<std::pair<uint32_t, uint32_t>, uint32_t>;

/// Collects EdgeCounts from the terminators. OpSwitch literals are one word
/// for selectors up to 32 bits and two for 64-bit ones: the selector's width
/// comes from the integer type its defining instruction names.
EdgeCounts countEdges(const std::vector<uint32_t> &W) {
  std::map<uint32_t, uint32_t> IntWidth;   // OpTypeInt id -> width
  std::map<uint32_t, uint32_t> ValueWidth; // value id -> its int type's width
  EdgeCounts Edges;
  uint32_t Block = 0;
  for (size_t I = 5; I < W.size();) {
    uint32_t Count = W[I] >> 16, Op = W[I] & 0xffff;
    if (Count == 0 || I + Count > W.size())
      break; // the caller reports malformed instructions
    if (Op == OpTypeInt && Count >= 3)
      IntWidth[W[I + 1]] = W[I + 2];
    else if (Op != OpName && Op != OpMemberName && Op != OpDecorate &&
             Op != OpMemberDecorate && Count >= 3 && IntWidth.count(W[I + 1]))
      ValueWidth[W[I + 2]] = IntWidth[W[I + 1]];
    if (Op == OpLabel && Count >= 2)
      Block = W[I + 1];
    else if (Op == OpBranch && Count >= 2)
      ++Edges[{Block, W[I + 1]}];
    else if (Op == OpBranchConditional && Count >= 4) {
      ++Edges[{Block, W[I + 2]}];
      ++Edges[{Block, W[I + 3]}];
    } else if (Op == OpSwitch && Count >= 3) {
      ++Edges[{Block, W[I + 2]}];
      auto It = ValueWidth.find(W[I + 1]);
      size_t Stride = (It != ValueWidth.end() && It->second > 32) ? 3 : 2;
      for (size_t J = I + 3; J + Stride <= I + Count; J += Stride)
        ++Edges[{Block, W[J + Stride - 1]}];
    }
    I += Count;
  }
  return Edges;
}

bool readFile(const std::string &Path, std::vector<char> &Out) {
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    return false;
  Out.assign(std::istreambuf_iterator<char>(In), {});
  return true;
}

bool writeFile(const std::string &Path, const std::vector<char> &Data) {
  std::ofstream Out(Path, std::ios::binary);
  Out.write(Data.data(), Data.size());
  return bool(Out);
}
} // namespace

bool legalizeSPIRVForTranslator(std::vector<char> &Module, std::string &Error) {
  if (Module.size() < 20 || Module.size() % 4) {
    Error = "not a SPIR-V module (size " + std::to_string(Module.size()) + ")";
    return false;
  }
  std::vector<uint32_t> W(Module.size() / 4);
  std::memcpy(W.data(), Module.data(), Module.size());
  if (W[0] != SPIRVMagic) {
    Error = "not a SPIR-V module (bad magic)";
    return false;
  }
  // Scalar types by result id: kind ('b', 'i', 'f') and bit width.
  std::map<uint32_t, std::pair<char, uint32_t>> Scalars;
  EdgeCounts Edges = countEdges(W);
  std::vector<uint32_t> Out(W.begin(), W.begin() + 5);
  uint32_t Block = 0;
  size_t I = 5;
  while (I < W.size()) {
    uint32_t Count = W[I] >> 16, Op = W[I] & 0xffff;
    if (Count == 0 || I + Count > W.size()) {
      Error = "malformed SPIR-V instruction at word " + std::to_string(I);
      return false;
    }
    if (Op == OpLabel && Count >= 2)
      Block = W[I + 1];
    // SPIR-V gives a phi one (value, parent) pair per parent block; LLVM IR
    // wants one per edge. llvm-spirv-15 copies the pairs as they are, so a
    // parent that reaches the block by several edges (switch cases with one
    // target) gives it an invalid phi ("PHINode should have one entry for
    // each predecessor"). The pair is repeated once per edge.
    if (Op == OpPhi && Count >= 3) {
      size_t At = Out.size();
      Out.insert(Out.end(), W.begin() + I, W.begin() + I + 3);
      for (size_t J = I + 3; J + 1 < I + Count; J += 2) {
        auto It = Edges.find({W[J + 1], Block});
        uint32_t Times = It == Edges.end() ? 1 : std::max(It->second, 1u);
        for (uint32_t T = 0; T < Times; ++T)
          Out.insert(Out.end(), {W[J], W[J + 1]});
      }
      uint32_t Words = Out.size() - At;
      if (Words > 0xffff) {
        Error = "a phi with too many incoming edges for one SPIR-V "
                "instruction (" + std::to_string(Words) + " words)";
        return false;
      }
      Out[At] = (Words << 16) | OpPhi;
      I += Count;
      continue;
    }
    if (Op == OpTypeBool)
      Scalars[W[I + 1]] = {'b', 0};
    else if ((Op == OpTypeInt || Op == OpTypeFloat) && Count >= 3)
      Scalars[W[I + 1]] = {Op == OpTypeInt ? 'i' : 'f', W[I + 2]};
    auto It = Op == OpConstantNull && Count == 3 ? Scalars.find(W[I + 1])
                                                 : Scalars.end();
    if (It != Scalars.end()) {
      uint32_t Type = W[I + 1], Id = W[I + 2];
      if (It->second.first == 'b') {
        Out.insert(Out.end(), {(3u << 16) | OpConstantFalse, Type, Id});
      } else {
        uint32_t Words = It->second.second > 32 ? 2 : 1;
        Out.insert(Out.end(), {((3u + Words) << 16) | OpConstant, Type, Id});
        Out.insert(Out.end(), Words, 0u);
      }
    } else {
      Out.insert(Out.end(), W.begin() + I, W.begin() + I + Count);
    }
    I += Count;
  }
  Module.resize(Out.size() * 4);
  std::memcpy(Module.data(), Out.data(), Module.size());
  return true;
}

std::string findSPIRVTranslator(std::string &Error) {
  if (const char *E = getenv("HETGPU_LLVM_SPIRV"); E && *E) {
    if (access(E, X_OK) == 0)
      return E;
    Error = std::string("HETGPU_LLVM_SPIRV=") + E + " is not executable";
    return "";
  }
  const char *Path = getenv("PATH");
  std::string P = Path ? Path : "/usr/bin:/bin";
  for (const char *Name : {"llvm-spirv-15", "llvm-spirv-16", "llvm-spirv-17",
                           "llvm-spirv-18", "llvm-spirv"}) {
    std::stringstream SS(P);
    std::string Dir;
    while (std::getline(SS, Dir, ':')) {
      std::string C = (Dir.empty() ? "." : Dir) + "/" + Name;
      if (access(C.c_str(), X_OK) == 0)
        return C;
    }
  }
  Error = "the Khronos SPIR-V translator (llvm-spirv-15, or "
          "$HETGPU_LLVM_SPIRV) was not found on PATH; it is needed to feed "
          "SPIR-V to OpenCL devices that only accept SPIR 1.2";
  return "";
}

bool translateSPIRVToSPIR(const std::vector<char> &SPIRV,
                          std::vector<char> &Bitcode, std::string &Error) {
  std::string Tool = findSPIRVTranslator(Error);
  if (Tool.empty())
    return false;
  std::vector<char> Legal = SPIRV;
  if (!legalizeSPIRVForTranslator(Legal, Error))
    return false;
  const char *Tmp = getenv("TMPDIR");
  std::string Templ = std::string(Tmp && *Tmp ? Tmp : "/tmp") +
                      "/hetgpu-spirv-XXXXXX";
  std::vector<char> DirBuf(Templ.begin(), Templ.end());
  DirBuf.push_back(0);
  if (!mkdtemp(DirBuf.data())) {
    Error = "cannot create a temporary directory from " + Templ;
    return false;
  }
  std::string Dir = DirBuf.data();
  std::string In = Dir + "/module.spv", Out = Dir + "/module.bc",
              Log = Dir + "/stderr.txt";
  auto Cleanup = [&] {
    unlink(In.c_str());
    unlink(Out.c_str());
    unlink(Log.c_str());
    rmdir(Dir.c_str());
  };
  if (!writeFile(In, Legal)) {
    Error = "cannot write " + In;
    Cleanup();
    return false;
  }
  posix_spawn_file_actions_t FA;
  posix_spawn_file_actions_init(&FA);
  posix_spawn_file_actions_addopen(&FA, 2, Log.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&FA, 1, "/dev/null", O_WRONLY, 0);
  std::vector<std::string> Args = {Tool, "-r", In, "-o", Out};
  std::vector<char *> Argv;
  for (std::string &A : Args)
    Argv.push_back(A.data());
  Argv.push_back(nullptr);
  pid_t Pid;
  int RC = posix_spawn(&Pid, Tool.c_str(), &FA, nullptr, Argv.data(), environ);
  posix_spawn_file_actions_destroy(&FA);
  if (RC != 0) {
    Error = "cannot run " + Tool + ": " + strerror(RC);
    Cleanup();
    return false;
  }
  int WS = 0;
  while (waitpid(Pid, &WS, 0) < 0 && errno == EINTR) {
  }
  std::vector<char> ErrText;
  readFile(Log, ErrText);
  std::string Msg(ErrText.begin(), ErrText.end());
  if (Msg.size() > 4000)
    Msg = Msg.substr(0, 4000) + "...";
  bool Ok = WIFEXITED(WS) && WEXITSTATUS(WS) == 0 && readFile(Out, Bitcode) &&
            !Bitcode.empty();
  if (!Ok) {
    Error = Tool + " -r failed (" +
            (WIFSIGNALED(WS) ? "signal " + std::to_string(WTERMSIG(WS))
                             : "exit " + std::to_string(WEXITSTATUS(WS))) +
            ")" + (Msg.empty() ? "" : ": " + Msg);
  }
  Cleanup();
  return Ok;
}

} // namespace rt
} // namespace hetgpu
