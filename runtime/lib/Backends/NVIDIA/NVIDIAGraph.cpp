//===- NVIDIAGraph.cpp - CUDA graphs as the driver's own graphs -----------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// The NVIDIA backend's DeviceGraph (Core/Device.h): a CUgraph built node by
/// node (cuGraphAdd*Node with the translated CUfunction and the launch's
/// parameter pointers, copies as CUDA_MEMCPY3D, fills, host functions,
/// event records and waits, empty nodes), instantiated once
/// (cuGraphInstantiateWithFlags) and launched with one cuGraphLaunch on the
/// queue's CUstream. The entry points are optional: a driver without them
/// has no device graphs, and CUDA graphs replay as eager work.
///
//===----------------------------------------------------------------------===//

#include "Backends/NVIDIA/NVIDIADevice.h"

#include <cstdlib>
#include <dlfcn.h>
#include <type_traits>

using namespace hetgpu;
using namespace hetgpu::rt;
using namespace hetgpu::rt::cu;

const GraphApi *cu::loadGraphApi(std::string &Why) {
  static GraphApi Api;
  static std::string Missing;
  static bool Ok = [] {
    void *H = loadedDriverLibrary();
    if (!H) {
      Missing = "the driver library is not loaded";
      return false;
    }
    auto Get = [&](auto &Fn, const char *Name, const char *Older = nullptr) {
      using Ptr = std::remove_reference_t<decltype(Fn)>;
      Fn = reinterpret_cast<Ptr>(dlsym(H, Name));
      // The _v1 forms read the leading fields of the _v2 parameters.
      if (!Fn && Older)
        Fn = reinterpret_cast<Ptr>(dlsym(H, Older));
      if (!Fn)
        Missing += std::string(Missing.empty() ? "" : ", ") + Name;
    };
    Get(Api.Create, "cuGraphCreate");
    Get(Api.Destroy, "cuGraphDestroy");
    Get(Api.AddKernel, "cuGraphAddKernelNode_v2", "cuGraphAddKernelNode");
    Get(Api.AddMemcpy, "cuGraphAddMemcpyNode");
    Get(Api.AddMemset, "cuGraphAddMemsetNode");
    Get(Api.AddHost, "cuGraphAddHostNode");
    Get(Api.AddEmpty, "cuGraphAddEmptyNode");
    Get(Api.AddEventRecord, "cuGraphAddEventRecordNode");
    Get(Api.AddEventWait, "cuGraphAddEventWaitNode");
    Get(Api.Instantiate, "cuGraphInstantiateWithFlags");
    Get(Api.ExecDestroy, "cuGraphExecDestroy");
    Get(Api.Launch, "cuGraphLaunch");
    Get(Api.ExecKernelSetParams, "cuGraphExecKernelNodeSetParams_v2",
        "cuGraphExecKernelNodeSetParams");
    if (!Missing.empty())
      Missing = "the driver lacks " + Missing;
    return Missing.empty();
  }();
  if (!Ok)
    Why = Missing;
  return Ok ? &Api : nullptr;
}

namespace {

class NVIDIAGraph final : public DeviceGraph {
public:
  NVIDIAGraph(const Driver &D, const GraphApi &G, CUcontext Ctx, CUgraph Gr,
              uint64_t OptinShared)
      : D(D), G(G), Ctx(Ctx), Graph(Gr), OptinShared(OptinShared) {}
  ~NVIDIAGraph() override {
    ContextScope S(D, Ctx);
    if (Exec)
      G.ExecDestroy(Exec); // an executing launch is freed when it completes
    G.Destroy(Graph);
  }

  Status addKernel(Kernel &K, const LaunchParams &P, const Deps &Ds,
                   NodeId &Out) override {
    CuKernelNodeParams KP;
    if (Status St = kernelParams(K, P, KP))
      return St;
    std::vector<CUgraphNode> In = nodes(Ds);
    CUgraphNode N = nullptr;
    return added(G.AddKernel(&N, Graph, In.data(), In.size(), &KP),
                 "cuGraphAddKernelNode(" + K.info().Name + ")", N, Out);
  }

  Status addCopy(const Copy &C, const Deps &Ds, NodeId &Out) override {
    CuMemcpy3D M = {};
    bool SrcDev =
        C.Kind == CopyKind::DeviceToHost || C.Kind == CopyKind::DeviceToDevice;
    bool DstDev =
        C.Kind == CopyKind::HostToDevice || C.Kind == CopyKind::DeviceToDevice;
    M.SrcMemoryType = SrcDev ? CU_MEMORYTYPE_DEVICE : CU_MEMORYTYPE_HOST;
    if (SrcDev)
      M.SrcDevice = dptr(C.Src);
    else
      M.SrcHost = C.Src;
    M.DstMemoryType = DstDev ? CU_MEMORYTYPE_DEVICE : CU_MEMORYTYPE_HOST;
    if (DstDev)
      M.DstDevice = dptr(C.Dst);
    else
      M.DstHost = C.Dst;
    M.SrcPitch = C.Height > 1 ? C.SrcPitch : C.Width;
    M.DstPitch = C.Height > 1 ? C.DstPitch : C.Width;
    M.SrcHeight = M.DstHeight = C.Height;
    M.WidthInBytes = C.Width;
    M.Height = C.Height;
    M.Depth = 1;
    std::vector<CUgraphNode> In = nodes(Ds);
    CUgraphNode N = nullptr;
    return added(G.AddMemcpy(&N, Graph, In.data(), In.size(), &M, Ctx),
                 "cuGraphAddMemcpyNode", N, Out);
  }

  Status addFill(const Fill &F, const Deps &Ds, NodeId &Out) override {
    CuMemsetNodeParams M = {dptr(F.Dst), F.Height > 1 ? F.Pitch : 0,
                            F.Value,     F.ElementSize,
                            F.Width,     F.Height};
    std::vector<CUgraphNode> In = nodes(Ds);
    CUgraphNode N = nullptr;
    return added(G.AddMemset(&N, Graph, In.data(), In.size(), &M, Ctx),
                 "cuGraphAddMemsetNode", N, Out);
  }

  Status addHost(void (*Fn)(void *), void *User, const Deps &Ds,
                 NodeId &Out) override {
    CuHostNodeParams H = {Fn, User};
    std::vector<CUgraphNode> In = nodes(Ds);
    CUgraphNode N = nullptr;
    return added(G.AddHost(&N, Graph, In.data(), In.size(), &H),
                 "cuGraphAddHostNode", N, Out);
  }

  Status addRecord(Event &E, const Deps &Ds, NodeId &Out) override {
    std::vector<CUgraphNode> In = nodes(Ds);
    CUgraphNode N = nullptr;
    return added(G.AddEventRecord(&N, Graph, In.data(), In.size(),
                                  static_cast<NVIDIAEvent &>(E).Ev),
                 "cuGraphAddEventRecordNode", N, Out);
  }

  Status addWait(Event &E, const Deps &Ds, NodeId &Out) override {
    std::vector<CUgraphNode> In = nodes(Ds);
    CUgraphNode N = nullptr;
    return added(G.AddEventWait(&N, Graph, In.data(), In.size(),
                                static_cast<NVIDIAEvent &>(E).Ev),
                 "cuGraphAddEventWaitNode", N, Out);
  }

  Status addEmpty(const Deps &Ds, NodeId &Out) override {
    std::vector<CUgraphNode> In = nodes(Ds);
    CUgraphNode N = nullptr;
    return added(G.AddEmpty(&N, Graph, In.data(), In.size()),
                 "cuGraphAddEmptyNode", N, Out);
  }

  Status instantiate() override {
    ContextScope S(D, Ctx);
    return check(D, G.Instantiate(&Exec, Graph, 0),
                 "cuGraphInstantiateWithFlags");
  }

  Status launch(Queue &Q) override {
    if (!Exec)
      return Status(ErrorCode::InvalidValue,
                    "cuGraphLaunch: the graph is not instantiated");
    ContextScope S(D, Ctx);
    return check(D, G.Launch(Exec, static_cast<NVIDIAQueue &>(Q).stream()),
                 "cuGraphLaunch");
  }

  Status setKernel(NodeId Id, Kernel &K, const LaunchParams &P) override {
    if (!Exec || Id >= Nodes.size())
      return Status(ErrorCode::InvalidValue,
                    "cuGraphExecKernelNodeSetParams: no such node");
    CuKernelNodeParams KP;
    if (Status St = kernelParams(K, P, KP))
      return St;
    ContextScope S(D, Ctx);
    return check(
        D, G.ExecKernelSetParams(Exec, Nodes[Id], &KP),
        ("cuGraphExecKernelNodeSetParams(" + K.info().Name + ")").c_str());
  }

private:
  Status kernelParams(Kernel &K, const LaunchParams &P,
                      CuKernelNodeParams &KP) {
    auto &NK = static_cast<NVIDIAKernel &>(K);
    if (P.State)
      return Status(ErrorCode::NotSupported,
                    "kernel node '" + NK.info().Name +
                        "': migratable launches are not graph nodes");
    ContextScope S(D, Ctx);
    if (Status St = allowDynamicShared(D, NK, P.DynamicShared, OptinShared))
      return St;
    KP = {NK.Fn,      P.Grid[0],
          P.Grid[1],  P.Grid[2],
          P.Block[0], P.Block[1],
          P.Block[2], static_cast<unsigned>(P.DynamicShared),
          P.Args,     nullptr,
          nullptr,    nullptr};
    return Status::ok();
  }

  std::vector<CUgraphNode> nodes(const Deps &Ds) const {
    std::vector<CUgraphNode> In;
    for (NodeId I : Ds)
      In.push_back(Nodes[I]);
    return In;
  }

  Status added(CUresult R, const std::string &What, const CUgraphNode &N,
               NodeId &Out) {
    if (R != CUDA_SUCCESS)
      return check(D, R, What.c_str());
    Out = Nodes.size();
    Nodes.push_back(N);
    return Status::ok();
  }

  const Driver &D;
  const GraphApi &G;
  CUcontext Ctx;
  CUgraph Graph;
  CUgraphExec Exec = nullptr;
  uint64_t OptinShared;
  std::vector<CUgraphNode> Nodes;
};

} // namespace

Status NVIDIADevice::createGraph(std::unique_ptr<DeviceGraph> &Out) {
  std::string Why;
  const GraphApi *G = loadGraphApi(Why);
  if (!G)
    return Status(ErrorCode::NotSupported, Why);
  ContextScope S(D, Ctx);
  CUgraph Gr = nullptr;
  if (Status St = check(D, G->Create(&Gr, 0), "cuGraphCreate"))
    return St;
  Out = std::make_unique<NVIDIAGraph>(D, *G, Ctx, Gr,
                                      Props.SharedMemPerBlockOptin);
  return Status::ok();
}
