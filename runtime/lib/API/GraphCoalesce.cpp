//===- GraphCoalesce.cpp - Independent small kernels as one launch --------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Implements API/GraphCoalesce.h: the wave plan of the replay order, the
/// choice of the kernel nodes to fuse, the fused kernel's translation and
/// load, and its launch.
///
//===----------------------------------------------------------------------===//

#include "API/GraphCoalesce.h"

#include "Core/CudaErrors.h"
#include "Core/KernelMemCheck.h"
#include "Core/Log.h"
#include "Core/MigrationService.h"
#include "Core/Translator.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <map>

using namespace hetgpu;
using namespace hetgpu::rt;
using namespace hetgpu::rt::api;

namespace {

/// At most this many kernels a fused launch.
constexpr size_t MaxFusedParts = 32;
constexpr const char *FusedName = "hetgpu_fused_kernel";

std::string nodeName(const GraphNode &N) { return launchName(N.Kernel); }

} // namespace

std::string api::launchName(const KernelLaunch &K) {
  if (K.K && K.K->Info && !K.K->Info->Demangled.empty())
    return K.K->Info->Demangled;
  return K.K ? K.K->Name : "?";
}

std::string api::coalescingOff() {
  if (const char *E = getenv("HETGPU_COALESCE"); E && !strcmp(E, "0"))
    return "HETGPU_COALESCE=0";
  if (activeMigrationService())
    return "live migration is on (its launches are instrumented per kernel)";
  if (memCheckEnabled())
    return "HETGPU_MEMCHECK is on (its launches are checked per kernel)";
  return "";
}

unsigned api::minFusedKernels(const DeviceProperties &P) {
  if (const char *E = getenv("HETGPU_COALESCE_MIN"); E && *E) {
    int N = atoi(E);
    return N < 2 ? 2 : unsigned(N);
  }
  // The CPU device runs a launch of one block on the calling thread and one
  // of several blocks on its thread pool: a fused launch pays for the
  // pool's wake-up only from this many one-block kernels
  // (bench/coalesce, docs/Graphs.md "Measured").
  return P.Kind == BackendKind::CPU ? CPUMinFusedKernels : 2;
}

std::string api::notCandidate(const KernelLaunch &L,
                              const DeviceProperties &P) {
  const KernelRecord *K = L.K;
  if (!K || !K->Info || !K->Bin || !K->Bin->Valid || K->ModuleIndex < 0)
    return "its kernel has no valid module";
  const container::KernelInfo &I = *K->Info;
  if (I.Features & container::FeatGrid)
    return "it uses grid-wide barriers";
  uint64_t Threads = uint64_t(L.Block.x) * L.Block.y * L.Block.z;
  if (!Threads || Threads > P.MaxThreadsPerBlock ||
      (I.MaxThreads && Threads > I.MaxThreads) || !I.LaunchRules.empty())
    return "its block size is checked by its own launch";
  if (L.Shared + I.StaticShared > P.SharedMemPerBlock)
    return "its shared memory is checked by its own launch";
  uint64_t Blocks = uint64_t(L.Grid.x) * L.Grid.y * L.Grid.z;
  int PerSM = std::max(1, occupancy(P, &I, int(Threads), L.Shared));
  uint64_t Capacity =
      uint64_t(PerSM) * std::max<uint32_t>(1, P.MultiProcessorCount);
  if (Blocks >= Capacity)
    return "its grid of " + std::to_string(Blocks) +
           " blocks fills the device (" + std::to_string(Capacity) +
           " blocks at once)";
  return "";
}

Status api::buildFused(FusedGroup &G,
                       const std::vector<const KernelLaunch *> &Ls,
                       DeviceContext &Ctx, long &Refused) {
  std::vector<FusePart> Parts;
  uint64_t MaxShared = 0;
  for (const KernelLaunch *LP : Ls) {
    const KernelLaunch &L = *LP;
    FusePart P;
    P.M = &L.K->Bin->C.Modules[L.K->ModuleIndex];
    P.Kernel = L.K->Name;
    P.Grid[0] = L.Grid.x, P.Grid[1] = L.Grid.y, P.Grid[2] = L.Grid.z;
    P.Block[0] = L.Block.x, P.Block[1] = L.Block.y, P.Block[2] = L.Block.z;
    Parts.push_back(P);
    G.AsFused.push_back(L);
    G.Blocks += L.Grid.x * L.Grid.y * L.Grid.z;
    G.Block.x = std::max(G.Block.x, L.Block.x);
    G.Block.y = std::max(G.Block.y, L.Block.y);
    G.Block.z = std::max(G.Block.z, L.Block.z);
    MaxShared = std::max<uint64_t>(MaxShared, L.Shared);
  }
  std::vector<char> Bytes;
  if (Status S = getFusedModule(Parts, FusedName, Bytes, Refused))
    return S;
  container::Container C;
  std::string Why;
  if (!container::read(Bytes.data(), Bytes.size(), C, Why) ||
      C.Modules.size() != 1 || C.Modules[0].Kernels.size() != 1)
    return Status(ErrorCode::NoBinaryForGpu,
                  "the fused module is malformed: " +
                      (Why.empty() ? "not one kernel" : Why));
  G.Info = std::move(C.Modules[0]);
  const DeviceProperties &P = Ctx.Dev->properties();
  uint64_t Static = G.Info.Kernels[0].StaticShared;
  if (Static + MaxShared > P.SharedMemPerBlock)
    return Status(ErrorCode::NoBinaryForGpu,
                  "the fused kernel would need " +
                      std::to_string(Static + MaxShared) +
                      " bytes of shared memory, more than the device's " +
                      std::to_string(P.SharedMemPerBlock));
  std::vector<char> Binary;
  if (Status S = getTranslation(G.Info, *Ctx.Dev, 0, Binary))
    return S;
  if (Status S = Ctx.Dev->loadModule(Binary, G.Info, G.Mod))
    return S;
  if (!G.Mod)
    return Status(ErrorCode::NoBinaryForGpu, "backend returned no module");
  if (Status S = G.Mod->getKernel(FusedName, G.Kn); S || !G.Kn)
    return Status(ErrorCode::NoBinaryForGpu,
                  "the fused kernel is missing from its translation: " +
                      S.Message);
  G.Dev = Ctx.Dev;
  return Status::ok();
}

std::unique_ptr<FusedGroup>
api::fuseChunk(std::vector<size_t> Chunk,
               const std::vector<const KernelLaunch *> &Ls, DeviceContext &Ctx,
               const CoalesceWords &W, std::vector<size_t> &Alone) {
  std::string Pre = std::string(W.Prefix) + ": ";
  const unsigned Min = minFusedKernels(Ctx.Dev->properties());
  while (true) {
    if (Chunk.size() >= 2 && Chunk.size() < Min) {
      std::string Names;
      for (size_t I : Chunk)
        Names += (Names.empty() ? "" : ", ") + launchName(*Ls[I]);
      log(LogLevel::Info,
          Pre + std::to_string(Chunk.size()) + " " + W.Many + " (" + Names +
              ") not coalesced: fewer than the " + std::to_string(Min) +
              " a fused launch pays for on " + Ctx.Dev->properties().Name +
              " (HETGPU_COALESCE_MIN)");
      Alone.insert(Alone.end(), Chunk.begin(), Chunk.end());
      return nullptr;
    }
    if (Chunk.size() < 2) {
      for (size_t I : Chunk) {
        log(LogLevel::Info, Pre + W.One + " '" + launchName(*Ls[I]) +
                                "' not coalesced: no other small " + W.One +
                                " of its block size is independent of it");
        Alone.push_back(I);
      }
      return nullptr;
    }
    auto G = std::make_unique<FusedGroup>();
    G->Parts = Chunk;
    std::vector<const KernelLaunch *> Members;
    for (size_t I : Chunk) {
      Members.push_back(Ls[I]);
      G->Names += (G->Names.empty() ? "" : ", ") + launchName(*Ls[I]);
    }
    long Refused = -1;
    if (Status S = buildFused(*G, Members, Ctx, Refused)) {
      if (Refused >= 0 && size_t(Refused) < Chunk.size()) {
        log(LogLevel::Info, Pre + W.One + " '" +
                                launchName(*Ls[Chunk[Refused]]) +
                                "' not coalesced: " + S.Message);
        Alone.push_back(Chunk[Refused]);
        Chunk.erase(Chunk.begin() + Refused);
        continue;
      }
      log(LogLevel::Info, Pre + std::to_string(Chunk.size()) + " " + W.Many +
                              " (" + G->Names + ") not fused: " + S.Message);
      Alone.insert(Alone.end(), Chunk.begin(), Chunk.end());
      return nullptr;
    }
    const dim3 &B = G->Block;
    log(LogLevel::Info, Pre + "fused " + std::to_string(Chunk.size()) + " " +
                            W.Many + " (" + G->Names + ") into one launch of " +
                            std::to_string(G->Blocks) + " blocks of " +
                            std::to_string(B.x) + "x" + std::to_string(B.y) +
                            "x" + std::to_string(B.z) + " threads");
    return G;
  }
}

namespace {

using Bucket = std::pair<std::array<unsigned, 3>, std::vector<size_t>>;

/// A launch alone in its block size that may run with idle threads (no
/// barriers, no warp operations) joins the largest group of a block at
/// least as large in every dimension.
void joinLargerBlocks(std::vector<Bucket> &Buckets,
                      const std::vector<const KernelLaunch *> &Ls) {
  const uint32_t NotGuardable =
      container::FeatBarrier | container::FeatWarp | container::FeatGrid;
  for (Bucket &S : Buckets) {
    if (S.second.size() != 1 ||
        (Ls[S.second[0]]->K->Info->Features & NotGuardable))
      continue;
    Bucket *Best = nullptr;
    for (Bucket &T : Buckets)
      if (&T != &S && !T.second.empty() && T.first[0] >= S.first[0] &&
          T.first[1] >= S.first[1] && T.first[2] >= S.first[2] &&
          (!Best || T.second.size() > Best->second.size()))
        Best = &T;
    if (!Best)
      continue;
    Best->second.push_back(S.second[0]);
    S.second.clear();
  }
}

} // namespace

std::vector<std::vector<size_t>>
api::planChunks(const std::vector<const KernelLaunch *> &Ls) {
  std::vector<Bucket> Buckets;
  for (size_t I = 0; I < Ls.size(); ++I) {
    const dim3 &B = Ls[I]->Block;
    std::array<unsigned, 3> Key = {B.x, B.y, B.z};
    auto It = std::find_if(Buckets.begin(), Buckets.end(),
                           [&](const auto &E) { return E.first == Key; });
    if (It == Buckets.end())
      Buckets.push_back({Key, {I}});
    else
      It->second.push_back(I);
  }
  joinLargerBlocks(Buckets, Ls);
  std::vector<std::vector<size_t>> Chunks;
  for (auto &[Key, Is] : Buckets)
    for (size_t I = 0; I < Is.size(); I += MaxFusedParts)
      Chunks.emplace_back(Is.begin() + I,
                          Is.begin() + std::min(Is.size(), I + MaxFusedParts));
  return Chunks;
}

namespace {

/// One wave: the nodes that are not candidates go first, then each block
/// size's candidates, fused.
void planWave(const std::vector<GraphNode *> &Wave, DeviceContext &Ctx,
              std::vector<GraphNode *> &Order,
              std::vector<std::unique_ptr<FusedGroup>> &Groups) {
  const DeviceProperties &P = Ctx.Dev->properties();
  std::vector<GraphNode *> Cands;
  std::vector<const KernelLaunch *> Ls;
  for (GraphNode *N : Wave) {
    if (N->Kind == NodeKind::Child) {
      N->Child->flatten(Order); // acyclic: checked by the caller
      continue;
    }
    if (N->Kind == NodeKind::Empty)
      continue;
    if (N->Kind != NodeKind::Kernel) {
      Order.push_back(N);
      continue;
    }
    if (std::string Why = notCandidate(N->Kernel, P); !Why.empty()) {
      log(LogLevel::Info, "graph coalescing: kernel node '" + nodeName(*N) +
                              "' not coalesced: " + Why);
      Order.push_back(N);
      continue;
    }
    Cands.push_back(N);
    Ls.push_back(&N->Kernel);
  }
  const CoalesceWords W = {"graph coalescing", "kernel node", "kernel nodes"};
  for (std::vector<size_t> &Chunk : planChunks(Ls)) {
    std::vector<size_t> Alone;
    std::unique_ptr<FusedGroup> G = fuseChunk(Chunk, Ls, Ctx, W, Alone);
    for (size_t I : Alone)
      Order.push_back(Cands[I]);
    if (!G)
      continue;
    G->At = Order.size();
    for (size_t I : G->Parts) {
      G->Members.push_back(Cands[I]);
      Order.push_back(Cands[I]);
    }
    Groups.push_back(std::move(G));
  }
}

} // namespace

FusedGroup::~FusedGroup() = default;

bool api::planReplay(const GraphObj &G, DeviceContext &Ctx,
                     std::vector<GraphNode *> &Order,
                     std::vector<std::unique_ptr<FusedGroup>> &Groups) {
  Groups.clear();
  std::string Off = coalescingOff();
  if (!Off.empty()) {
    log(LogLevel::Debug, "graph coalescing off: " + Off);
    return G.flatten(Order);
  }
  // A child graph must be acyclic for its expansion.
  for (const auto &N : G.Nodes)
    if (N->Kind == NodeKind::Child) {
      std::vector<GraphNode *> Tmp;
      if (!N->Child->flatten(Tmp))
        return false;
    }
  std::map<const GraphNode *, size_t> Pending;
  std::vector<GraphNode *> Wave;
  for (const auto &N : G.Nodes) {
    Pending[N.get()] = N->Deps.size();
    if (N->Deps.empty())
      Wave.push_back(N.get());
  }
  size_t Done = 0;
  while (!Wave.empty()) {
    planWave(Wave, Ctx, Order, Groups);
    Done += Wave.size();
    std::vector<GraphNode *> Next;
    for (GraphNode *N : Wave)
      for (GraphNode *D : N->Dependents)
        if (--Pending[D] == 0)
          Next.push_back(D);
    // Creation order within a wave, as flatten() breaks ties.
    std::sort(Next.begin(), Next.end(), [&](GraphNode *A, GraphNode *B) {
      return G.indexOf(A) < G.indexOf(B);
    });
    Wave = std::move(Next);
  }
  return Done == G.Nodes.size();
}

std::string api::fusedUnusable(const FusedGroup &G, DeviceContext &Ctx,
                               uint64_t &Shared) {
  if (Ctx.Dev != G.Dev)
    return "the context moved to another device";
  Shared = 0;
  for (GraphNode *N : G.Members)
    Shared = std::max<uint64_t>(Shared, N->Kernel.Shared);
  if (G.Info.Kernels[0].StaticShared + Shared >
      Ctx.Dev->properties().SharedMemPerBlock)
    return "a node's dynamic shared memory grew past what the fused kernel "
           "has room for";
  for (size_t I = 0; I < G.Members.size(); ++I) {
    const KernelLaunch &Now = G.Members[I]->Kernel, &Then = G.AsFused[I];
    if (!G.Members[I]->Enabled)
      return "node '" + nodeName(*G.Members[I]) + "' is disabled";
    if (Now.Func != Then.Func || Now.Grid.x != Then.Grid.x ||
        Now.Grid.y != Then.Grid.y || Now.Grid.z != Then.Grid.z ||
        Now.Block.x != Then.Block.x || Now.Block.y != Then.Block.y ||
        Now.Block.z != Then.Block.z)
      return "node '" + nodeName(*G.Members[I]) +
             "' has another kernel or geometry now";
  }
  return "";
}

cudaError_t api::launchFused(FusedGroup &G, StreamObj &S, bool &Launched) {
  Launched = false;
  uint64_t Shared = 0;
  std::string Why = fusedUnusable(G, *S.Ctx, Shared);
  if (!Why.empty()) {
    if (!G.SaidUnfused)
      log(LogLevel::Info, "graph coalescing: the fused launch of (" + G.Names +
                              ") replays its nodes one by one: " + Why);
    G.SaidUnfused = true;
    return cudaSuccess;
  }
  std::vector<const KernelLaunch *> Ls;
  for (GraphNode *N : G.Members)
    Ls.push_back(&N->Kernel);
  Launched = true;
  return launchFusedKernel(G, S, Ls, Shared);
}

LaunchParams api::fusedParams(const FusedGroup &G,
                              const std::vector<const KernelLaunch *> &Ls,
                              uint64_t Shared, std::vector<void *> &Args) {
  Args.clear();
  for (const KernelLaunch *L : Ls) {
    void **A = L->Args->args();
    Args.insert(Args.end(), A, A + L->K->Info->Params.size());
  }
  LaunchParams LP;
  LP.Grid[0] = G.Blocks;
  LP.Block[0] = G.Block.x;
  LP.Block[1] = G.Block.y;
  LP.Block[2] = G.Block.z;
  LP.DynamicShared = Shared;
  LP.Args = Args.data();
  return LP;
}

cudaError_t api::launchFusedKernel(FusedGroup &G, StreamObj &S,
                                   const std::vector<const KernelLaunch *> &Ls,
                                   uint64_t Shared) {
  DeviceContext &Ctx = *S.Ctx;
  std::vector<void *> Args;
  LaunchParams LP = fusedParams(G, Ls, Shared, Args);
  std::lock_guard<std::recursive_mutex> Lock(Ctx.M);
  RT().orderLegacy(S);
  return mapStatus(Ctx, S.Q->launch(*G.Kn, LP));
}
