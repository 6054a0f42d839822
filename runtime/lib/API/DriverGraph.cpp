//===- DriverGraph.cpp - Executable graphs as device graphs ---------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Builds an executable graph's DeviceGraph (API/DriverGraph.h) from its
/// replay plan: every node of the replay order becomes a device graph node
/// after the device graph nodes of its dependencies, an empty node or a
/// child graph passing its own dependencies on (a child graph enters through
/// an empty node its roots depend on, and its sinks are what depends on it
/// depends on), each usable fused group one kernel node after its members'
/// dependencies. Kernel nodes are checked as an eager launch checks them;
/// copies and fills only between host memory and this device's own memory.
///
//===----------------------------------------------------------------------===//

#include "API/DriverGraph.h"
#include "Core/GridRounds.h"
#include "Core/KernelMemCheck.h"
#include "Core/Log.h"
#include "Core/MigrationService.h"

#include <cstdlib>
#include <cstring>
#include <set>

using namespace hetgpu;
using namespace hetgpu::rt;
using namespace hetgpu::rt::api;

std::string api::driverGraphsOff() {
  if (const char *E = getenv("HETGPU_DRIVER_GRAPHS"); E && !strcmp(E, "0"))
    return "HETGPU_DRIVER_GRAPHS=0";
  if (activeMigrationService())
    return "live migration is on (its launches are instrumented per kernel)";
  if (memCheckEnabled())
    return "HETGPU_MEMCHECK is on (its launches are checked per kernel)";
  return "";
}

namespace {

/// Why kernel launch \p L would not pass an eager launch's checks on a
/// device with properties \p P (so that replay reports its error), or "".
std::string kernelUnmappable(const KernelLaunch &L, const DeviceProperties &P) {
  const KernelRecord *K = L.K;
  std::string Name = "kernel node '" + launchName(L) + "'";
  if (!K || !K->Info)
    return Name + " has no kernel information";
  if (!K->Info->LaunchRules.empty())
    return Name + " has launch rules of the device link (checked per launch)";
  if (cudaError_t E = checkLaunchConfig(*K, P, L.Grid, L.Block, L.Shared))
    return Name + " has a launch its launch checks refuse (" +
           cudaGetErrorName(E) + ")";
  if (gridRoundsKernel(P, *K->Info))
    return Name + " has grid barriers the device runs in rounds";
  return "";
}

LaunchParams launchOf(const KernelLaunch &L) {
  LaunchParams LP;
  LP.Grid[0] = L.Grid.x;
  LP.Grid[1] = L.Grid.y;
  LP.Grid[2] = L.Grid.z;
  LP.Block[0] = L.Block.x;
  LP.Block[1] = L.Block.y;
  LP.Block[2] = L.Block.z;
  LP.DynamicShared = L.Shared;
  LP.Args = L.Args->args();
  return LP;
}

enum class Side { Host, Device, Other };

/// Which memory \p N bytes at \p P are for a node of \p Ctx's graph: host
/// memory (pageable or page-locked), device memory of the context, or
/// something the device graph does not take (managed memory, another
/// device's, freed or past an allocation's end).
Side sideOf(const void *P, size_t N, const DeviceContext &Ctx) {
  Allocation A;
  switch (RT().lookupRange(P, N, A)) {
  case Runtime::RangeState::Unknown:
    return Side::Host;
  case Runtime::RangeState::Inside:
    if (A.Kind == AllocKind::Device)
      return A.Device == Ctx.Index ? Side::Device : Side::Other;
    if (A.Kind == AllocKind::Host || A.Kind == AllocKind::Registered)
      return Side::Host;
    return Side::Other;
  default:
    return Side::Other;
  }
}

} // namespace

namespace hetgpu {
namespace rt {
namespace api {

class DriverGraphBuilder {
public:
  DriverGraphBuilder(DriverGraph &Out, DeviceContext &Ctx)
      : Out(Out), Ctx(Ctx) {}

  /// Adds \p N (of the replay order) to the device graph; false with Why.
  bool add(const GraphNode &N);
  /// Adds group \p Gr as one kernel node; false with Why, or with Why
  /// empty when its members are to be added one by one.
  bool addGroup(FusedGroup &Gr);
  void findParents(const GraphObj &G) {
    for (const auto &N : G.Nodes)
      if (N->Kind == NodeKind::Child && N->Child) {
        Parent[N->Child.get()] = N.get();
        findParents(*N->Child);
      }
  }

  std::string Why;
  size_t Kernels = 0;

private:
  /// The device graph nodes work after \p N depends on.
  bool exits(const GraphNode *N, std::set<DeviceGraph::NodeId> &Into);
  /// The device graph nodes \p N depends on.
  bool depsOf(const GraphNode *N, DeviceGraph::Deps &Out);
  bool depsInto(const GraphNode *N, std::set<DeviceGraph::NodeId> &Into);
  /// (\p Id by reference: it is set by the call that makes \p St.)
  bool ok(const Status &St, const GraphNode &N, const DeviceGraph::NodeId &Id) {
    if (St) {
      Why = St.Message;
      return false;
    }
    Mapped[&N] = Id;
    ++Out.Count;
    return true;
  }
  bool addCopy(const GraphNode &N, const DeviceGraph::Deps &D,
               DeviceGraph::NodeId &Id);
  bool addFill(const GraphNode &N, const DeviceGraph::Deps &D,
               DeviceGraph::NodeId &Id);
  bool addEvent(const GraphNode &N, const DeviceGraph::Deps &D,
                DeviceGraph::NodeId &Id);

  DriverGraph &Out;
  DeviceContext &Ctx;
  std::map<const GraphObj *, const GraphNode *> Parent;
  std::map<const GraphNode *, DeviceGraph::NodeId> Mapped, Entry;
};

} // namespace api
} // namespace rt
} // namespace hetgpu

bool DriverGraphBuilder::depsInto(const GraphNode *N,
                                  std::set<DeviceGraph::NodeId> &Into) {
  if (N->Deps.empty()) {
    auto P = Parent.find(N->Owner);
    if (P == Parent.end())
      return true; // a root of the executable graph
    // A root of a child graph: after the child's entry node.
    auto E = Entry.find(P->second);
    if (E == Entry.end()) {
      DeviceGraph::Deps D;
      DeviceGraph::NodeId Id;
      if (!depsOf(P->second, D))
        return false;
      if (Status St = Out.G->addEmpty(D, Id)) {
        Why = St.Message;
        return false;
      }
      ++Out.Count;
      E = Entry.emplace(P->second, Id).first;
    }
    Into.insert(E->second);
    return true;
  }
  for (const GraphNode *D : N->Deps)
    if (!exits(D, Into))
      return false;
  return true;
}

bool DriverGraphBuilder::depsOf(const GraphNode *N, DeviceGraph::Deps &Out) {
  std::set<DeviceGraph::NodeId> S;
  if (!depsInto(N, S))
    return false;
  Out.assign(S.begin(), S.end());
  return true;
}

bool DriverGraphBuilder::exits(const GraphNode *N,
                               std::set<DeviceGraph::NodeId> &Into) {
  auto It = Mapped.find(N);
  if (It != Mapped.end()) {
    Into.insert(It->second);
    return true;
  }
  if (N->Kind == NodeKind::Child && N->Child && !N->Child->Nodes.empty()) {
    for (const auto &C : N->Child->Nodes)
      if (C->Dependents.empty() && !exits(C.get(), Into))
        return false;
    return true;
  }
  // An empty node (left out of the replay order) or an empty child graph.
  return depsInto(N, Into);
}

bool DriverGraphBuilder::addCopy(const GraphNode &N, const DeviceGraph::Deps &D,
                                 DeviceGraph::NodeId &Id) {
  const cudaMemcpy3DParms &P = N.Copy;
  if (P.srcArray || P.dstArray || P.extent.depth > 1 || P.srcPos.z ||
      P.dstPos.z) {
    Why = "a memcpy node with CUDA arrays or of more than one slice";
    return false;
  }
  DeviceGraph::Copy C;
  C.Width = P.extent.width;
  C.Height = P.extent.height ? P.extent.height : 1;
  C.SrcPitch = P.srcPtr.pitch;
  C.DstPitch = P.dstPtr.pitch;
  C.Src = static_cast<const char *>(P.srcPtr.ptr) + P.srcPos.y * C.SrcPitch +
          P.srcPos.x;
  C.Dst =
      static_cast<char *>(P.dstPtr.ptr) + P.dstPos.y * C.DstPitch + P.dstPos.x;
  size_t SrcBytes =
      C.Height > 1 ? C.SrcPitch * (C.Height - 1) + C.Width : C.Width;
  size_t DstBytes =
      C.Height > 1 ? C.DstPitch * (C.Height - 1) + C.Width : C.Width;
  CopyKind K;
  if (!C.Width || copyKind(C.Dst, C.Src, P.kind, K)) {
    Why = "a memcpy node the runtime checks at replay (empty or of no kind)";
    return false;
  }
  Side S = sideOf(C.Src, SrcBytes, Ctx), T = sideOf(C.Dst, DstBytes, Ctx);
  bool FromDev = K == CopyKind::DeviceToHost || K == CopyKind::DeviceToDevice;
  bool ToDev = K == CopyKind::HostToDevice || K == CopyKind::DeviceToDevice;
  if (S != (FromDev ? Side::Device : Side::Host) ||
      T != (ToDev ? Side::Device : Side::Host)) {
    Why = "a memcpy node of memory other than host memory and the device's "
          "own (managed, another device's, freed, or not of its kind)";
    return false;
  }
  C.Kind = K;
  return ok(Out.G->addCopy(C, D, Id), N, Id);
}

bool DriverGraphBuilder::addFill(const GraphNode &N, const DeviceGraph::Deps &D,
                                 DeviceGraph::NodeId &Id) {
  const cudaMemsetParams &P = N.Set;
  DeviceGraph::Fill F;
  F.Dst = P.dst;
  F.Pitch = P.pitch;
  F.Width = P.width;
  F.Height = P.height ? P.height : 1;
  F.Value = P.value;
  F.ElementSize = P.elementSize;
  size_t Row = F.Width * F.ElementSize;
  size_t Bytes = F.Height > 1 ? F.Pitch * (F.Height - 1) + Row : Row;
  if (!Row ||
      (F.ElementSize != 1 && F.ElementSize != 2 && F.ElementSize != 4) ||
      sideOf(F.Dst, Bytes, Ctx) != Side::Device) {
    Why = "a memset node of memory other than the device's own";
    return false;
  }
  return ok(Out.G->addFill(F, D, Id), N, Id);
}

bool DriverGraphBuilder::addEvent(const GraphNode &N,
                                  const DeviceGraph::Deps &D,
                                  DeviceGraph::NodeId &Id) {
  auto *Ev = reinterpret_cast<EventObj *>(N.Event);
  if (!RT().isLiveEvent(Ev) || Ev->Ctx != &Ctx) {
    Why = "an event node whose event is not of the graph's device";
    return false;
  }
  bool Record = N.Kind == NodeKind::EventRecord;
  Status St =
      Record ? Out.G->addRecord(*Ev->E, D, Id) : Out.G->addWait(*Ev->E, D, Id);
  Out.Events.push_back(Ev);
  if (Record)
    Out.Records.push_back(Ev);
  return ok(St, N, Id);
}

bool DriverGraphBuilder::add(const GraphNode &N) {
  DeviceGraph::Deps D;
  if (!depsOf(&N, D))
    return false;
  DeviceGraph::NodeId Id;
  if (!N.Enabled) // cudaGraphNodeSetEnabled(..., 0)
    return ok(Out.G->addEmpty(D, Id), N, Id);
  switch (N.Kind) {
  case NodeKind::Kernel: {
    Why = kernelUnmappable(N.Kernel, Ctx.Dev->properties());
    if (!Why.empty())
      return false;
    Kernel *Kn;
    if (RT().getKernel(Ctx, *N.Kernel.K, Kn)) {
      Why = "kernel node '" + launchName(N.Kernel) + "' did not load";
      return false;
    }
    if (!ok(Out.G->addKernel(*Kn, launchOf(N.Kernel), D, Id), N, Id))
      return false;
    Out.Plain[&N] = Id;
    ++Kernels;
    return true;
  }
  case NodeKind::Memcpy:
    return addCopy(N, D, Id);
  case NodeKind::Memset:
    return addFill(N, D, Id);
  case NodeKind::Host:
    return ok(Out.G->addHost(N.Host.fn, N.Host.userData, D, Id), N, Id);
  case NodeKind::EventRecord:
  case NodeKind::WaitEvent:
    return addEvent(N, D, Id);
  case NodeKind::Child: // expanded in the replay order
  case NodeKind::Empty:
    return true;
  }
  Why = "a node of an unknown kind";
  return false;
}

bool DriverGraphBuilder::addGroup(FusedGroup &Gr) {
  uint64_t Shared;
  if (!fusedUnusable(Gr, Ctx, Shared).empty())
    return false; // its members one by one
  std::set<DeviceGraph::NodeId> S;
  std::vector<const KernelLaunch *> Ls;
  for (GraphNode *M : Gr.Members) {
    if (!depsInto(M, S))
      return false;
    Ls.push_back(&M->Kernel);
  }
  DeviceGraph::Deps D(S.begin(), S.end());
  std::vector<void *> Args;
  DeviceGraph::NodeId Id;
  if (Status St =
          Out.G->addKernel(*Gr.Kn, fusedParams(Gr, Ls, Shared, Args), D, Id)) {
    Why = St.Message;
    return false;
  }
  ++Out.Count;
  ++Kernels;
  for (GraphNode *M : Gr.Members) {
    Mapped[M] = Id;
    Out.Fused[M] = {&Gr, Id};
  }
  return true;
}

std::unique_ptr<DriverGraph>
DriverGraph::build(const GraphObj &Copy, const std::vector<GraphNode *> &Order,
                   const std::vector<std::unique_ptr<FusedGroup>> &Groups,
                   DeviceContext &Ctx, std::string &Why, bool &NodeFault) {
  NodeFault = false;
  Why = driverGraphsOff();
  if (!Why.empty())
    return nullptr;
  auto Out = std::unique_ptr<DriverGraph>(new DriverGraph());
  Out->Dev = Ctx.Dev;
  if (Status St = Ctx.Dev->createGraph(Out->G)) {
    Why = St.Message;
    return nullptr;
  }
  NodeFault = true;
  DriverGraphBuilder B(*Out, Ctx);
  B.findParents(Copy);
  size_t NextGroup = 0;
  for (size_t I = 0; I < Order.size(); ++I) {
    if (NextGroup < Groups.size() && Groups[NextGroup]->At == I) {
      FusedGroup &Gr = *Groups[NextGroup++];
      if (B.addGroup(Gr)) {
        I += Gr.Members.size() - 1;
        continue;
      }
      if (!B.Why.empty()) {
        Why = B.Why;
        return nullptr;
      }
    }
    if (!B.add(*Order[I])) {
      Why = B.Why;
      return nullptr;
    }
  }
  if (Status St = Out->G->instantiate()) {
    Why = St.Message;
    return nullptr;
  }
  Out->Kernels = B.Kernels;
  return Out;
}

cudaError_t DriverGraph::launch(StreamObj &S, std::string &Why) {
  DeviceContext &Ctx = *S.Ctx;
  if (Ctx.Dev != Dev) {
    Why = "the context moved to another device";
    return cudaSuccess;
  }
  if (activeMigrationService()) {
    Why = "live migration is on (its launches are instrumented per kernel)";
    return cudaSuccess;
  }
  for (EventObj *E : Events)
    if (!RT().isLiveEvent(E)) {
      Why = "an event of an event node was destroyed";
      return cudaSuccess;
    }
  std::lock_guard<std::recursive_mutex> Lock(Ctx.M);
  RT().orderLegacy(S);
  if (cudaError_t E = mapStatus(Ctx, G->launch(*S.Q)))
    return E;
  for (EventObj *E : Records) {
    E->Recorded = true;
    E->AgeMs = 0;
  }
  return cudaSuccess;
}

bool DriverGraph::updateKernel(const GraphNode &N, DeviceContext &Ctx) {
  if (Ctx.Dev != Dev || !N.Enabled)
    return false;
  if (auto It = Plain.find(&N); It != Plain.end()) {
    Kernel *Kn;
    if (!kernelUnmappable(N.Kernel, Ctx.Dev->properties()).empty() ||
        RT().getKernel(Ctx, *N.Kernel.K, Kn))
      return false;
    return !G->setKernel(It->second, *Kn, launchOf(N.Kernel));
  }
  auto It = Fused.find(&N);
  if (It == Fused.end())
    return false;
  FusedGroup &Gr = *It->second.first;
  uint64_t Shared;
  if (!fusedUnusable(Gr, Ctx, Shared).empty())
    return false;
  std::vector<const KernelLaunch *> Ls;
  for (GraphNode *M : Gr.Members)
    Ls.push_back(&M->Kernel);
  std::vector<void *> Args;
  return !G->setKernel(It->second.second, *Gr.Kn,
                       fusedParams(Gr, Ls, Shared, Args));
}
