//===- Runtime.cpp - Process-wide state of the CUDA runtime ---------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Device selection (HETGPU_DEVICE), streams and the legacy default stream's
/// ordering, module loading through the JIT cache, the allocation table.
///
//===----------------------------------------------------------------------===//

#include "Core/Runtime.h"
#include "Core/CudaErrors.h"
#include "Core/GridRounds.h"
#include "Core/KernelMemCheck.h"
#include "Core/Log.h"
#include "Core/MigrationService.h"
#include "Core/Prefetch.h"
#include "Core/Translator.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

using namespace hetgpu;
using namespace hetgpu::rt;

static thread_local cudaError_t LastError = cudaSuccess;
static thread_local int CurrentDevice = -1;

cudaError_t hetgpu::rt::setLastError(cudaError_t E) {
  if (E != cudaSuccess)
    LastError = E;
  return E;
}

cudaError_t hetgpu::rt::takeLastError(bool Reset) {
  cudaError_t E = LastError;
  if (Reset)
    LastError = cudaSuccess;
  return E;
}

Runtime &Runtime::get() {
  static Runtime *R = new Runtime();
  return *R;
}

KernelRecord *Runtime::findKernel(const void *Stub) {
  std::lock_guard<std::mutex> Lock(RegM);
  auto It = Kernels.find(Stub);
  return It == Kernels.end() ? nullptr : &It->second;
}

VarRecord *Runtime::findVar(const void *Shadow) {
  std::lock_guard<std::mutex> Lock(RegM);
  auto It = Vars.find(Shadow);
  return It == Vars.end() ? nullptr : &It->second;
}

//===----------------------------------------------------------------------===//
// Devices
//===----------------------------------------------------------------------===//

/// Discrete GPUs first, then the CPU, then the rest (integrated or
/// simulated devices, e.g. OpenCL on the CPU, tt-sim).
static int rank(const DiscoveredDevice &D) {
  const DeviceProperties &P = D.Dev->properties();
  if (P.Kind == BackendKind::CPU)
    return 1;
  if (P.Kind == BackendKind::TTSim || P.Integrated)
    return 2;
  return 0;
}

/// What HETGPU_DEVICE asks for: nothing (the GPUs, else the CPU), `all`
/// (every device), one backend or a comma list of backends (their devices,
/// in that order), or a device index (the default device among those
/// counted without the variable). False (and the reason logged) when it
/// names no backend.
static bool parseDeviceSelection(const std::string &Sel,
                                 std::vector<std::string> &Listed,
                                 bool &IsIndex, bool &All) {
  IsIndex =
      !Sel.empty() && Sel.find_first_not_of("0123456789") == std::string::npos;
  All = Sel == "all";
  if (Sel.empty() || IsIndex || All)
    return true;
  const auto &Names = allBackendNames();
  size_t Start = 0;
  while (Start <= Sel.size()) {
    size_t Comma = Sel.find(',', Start);
    std::string Name = Sel.substr(
        Start, Comma == std::string::npos ? std::string::npos : Comma - Start);
    if (std::find(Names.begin(), Names.end(), Name) == Names.end()) {
      std::string Valid;
      for (const std::string &N : Names)
        Valid += (Valid.empty() ? "" : "|") + N;
      log(LogLevel::Error, "HETGPU_DEVICE=" + Sel + " names no backend" +
                               (Name != Sel ? " ('" + Name + "')" : "") +
                               " (expected " + Valid +
                               "|all|<list>|<device index>)");
      return false;
    }
    if (std::find(Listed.begin(), Listed.end(), Name) == Listed.end())
      Listed.push_back(Name);
    if (Comma == std::string::npos)
      break;
    Start = Comma + 1;
  }
  return true;
}

/// How many of \p Found (sorted by rank) CUDA programs see without
/// HETGPU_DEVICE: the GPUs when there are any, else the CPU device, else
/// every device. The others stay contexts the CUDA API does not count
/// (migration targets, hetgpuGetDeviceInfo by name).
static size_t defaultVisibleCount(const std::vector<DiscoveredDevice> &Found) {
  size_t GPUs = 0, CPUs = 0;
  for (const DiscoveredDevice &D : Found) {
    GPUs += rank(D) == 0;
    CPUs += rank(D) == 1;
  }
  if (GPUs)
    return GPUs;
  return CPUs ? GPUs + CPUs : Found.size();
}

cudaError_t Runtime::init() {
  std::call_once(InitOnce, [this] {
    std::string Sel;
    if (const char *E = getenv("HETGPU_DEVICE"))
      Sel = E;
    std::vector<std::string> Listed;
    bool IsIndex = false, All = false;
    if (!parseDeviceSelection(Sel, Listed, IsIndex, All)) {
      InitError = cudaErrorNoDevice;
      return;
    }
    std::string Only = Sel;
    std::vector<DiscoveredDevice> Found;
    discoverDevices(Listed, Found, Reports);
    auto Position = [&](const DiscoveredDevice &D) {
      return std::find(Listed.begin(), Listed.end(), D.Backend) -
             Listed.begin();
    };
    std::stable_sort(Found.begin(), Found.end(),
                     [&](const DiscoveredDevice &A, const DiscoveredDevice &B) {
                       if (!Listed.empty())
                         return Position(A) < Position(B);
                       return rank(A) < rank(B);
                     });
    size_t Visible =
        Listed.empty() && !All ? defaultVisibleCount(Found) : Found.size();
    for (DiscoveredDevice &D : Found) {
      auto Ctx = std::make_unique<DeviceContext>();
      Ctx->Index = static_cast<int>(Contexts.size());
      Ctx->Dev = std::move(D.Dev);
      Ctx->Backend = D.Backend;
      Ctx->Home = Ctx->Dev;
      Ctx->HomeBackend = D.Backend;
      Contexts.push_back(std::move(Ctx));
    }
    VisibleCount = static_cast<int>(Visible);
    // Migration targets of backends HETGPU_DEVICE left out are discovered
    // too, as contexts the CUDA API does not count.
    MigrationService *Mig = registeredMigrationService();
    if (Mig && !Listed.empty() && !Contexts.empty())
      for (const std::string &T : Mig->targetDevices()) {
        const auto &Names = allBackendNames();
        if (std::find(Listed.begin(), Listed.end(), T) != Listed.end() ||
            std::find(Names.begin(), Names.end(), T) == Names.end())
          continue;
        bool Have = false;
        for (auto &C : Contexts)
          Have |= C->Backend == T;
        if (Have)
          continue;
        std::vector<DiscoveredDevice> Extra;
        std::vector<BackendReport> ExtraReports;
        discoverDevices({T}, Extra, ExtraReports);
        for (BackendReport &R : ExtraReports)
          if (R.Probed)
            for (BackendReport &Old : Reports)
              if (Old.Name == R.Name)
                Old = R;
        for (DiscoveredDevice &D : Extra) {
          auto Ctx = std::make_unique<DeviceContext>();
          Ctx->Index = static_cast<int>(Contexts.size());
          Ctx->Dev = std::move(D.Dev);
          Ctx->Backend = D.Backend;
          Ctx->Home = Ctx->Dev;
          Ctx->HomeBackend = D.Backend;
          Contexts.push_back(std::move(Ctx));
        }
      }
    if (Contexts.empty()) {
      std::string Why;
      for (const BackendReport &R : Reports)
        if (R.Probed)
          Why += "; " + R.Name + ": " +
                 (R.Discovery ? R.Discovery.Message : "no devices");
      log(LogLevel::Error,
          (Listed.empty() ? std::string("no device found")
                          : "HETGPU_DEVICE=" + Only + ": no device found") +
              Why);
      InitError = cudaErrorNoDevice;
      return;
    }
    if (IsIndex) {
      int I = atoi(Sel.c_str());
      if (I >= deviceCount()) {
        log(LogLevel::Error, "HETGPU_DEVICE=" + Sel + ": only " +
                                 std::to_string(deviceCount()) +
                                 " devices found");
        InitError = cudaErrorNoDevice;
        return;
      }
      DefaultIndex = I;
    }
    {
      // Translations start now, for the default device (Core/Prefetch.h).
      std::lock_guard<std::mutex> L(RegM);
      std::vector<BinaryRecord *> Bins;
      for (auto &B : Binaries)
        Bins.push_back(B.get());
      startPrefetch(*Contexts[DefaultIndex]->Dev, Bins);
    }
    for (auto &C : Contexts)
      log(LogLevel::Info,
          "device " + std::to_string(C->Index) + ": " +
              C->Dev->properties().Name + " (" + C->Backend + ")" +
              (C->Index == DefaultIndex ? " [default]" : "") +
              (C->Index >= VisibleCount ? " [not counted by the CUDA API]"
                                        : ""));
  });
  return InitError;
}

DeviceContext *Runtime::context(int Index) {
  if (Index < 0 || Index >= contextCount())
    return nullptr;
  return Contexts[Index].get();
}

int Runtime::findContext(const std::string &Spec) {
  if (init() != cudaSuccess || Spec.empty())
    return -1;
  if (Spec.find_first_not_of("0123456789") == std::string::npos) {
    int I = atoi(Spec.c_str());
    return I < contextCount() ? I : -1;
  }
  // The context that *is* a device of that backend (not one that migrated
  // onto it).
  for (auto &C : Contexts)
    if (C->HomeBackend == Spec)
      return C->Index;
  return -1;
}

int Runtime::currentIndex() {
  return CurrentDevice < 0 ? DefaultIndex : CurrentDevice;
}

void Runtime::setCurrentIndex(int I) { CurrentDevice = I; }

cudaError_t Runtime::current(DeviceContext *&Ctx) {
  if (cudaError_t E = init())
    return E;
  Ctx = context(currentIndex());
  return Ctx ? cudaSuccess : cudaErrorInvalidDevice;
}

//===----------------------------------------------------------------------===//
// Streams
//===----------------------------------------------------------------------===//

cudaError_t Runtime::createStream(DeviceContext &Ctx, unsigned Flags,
                                  int Priority, StreamObj *&Out) {
  auto S = std::make_unique<StreamObj>();
  S->Ctx = &Ctx;
  S->Flags = Flags;
  S->Priority = Priority;
  if (Status St = Ctx.Dev->createQueue(S->Q)) {
    log(LogLevel::Error, "cannot create a stream: " + St.Message);
    return toCudaError(St.Code);
  }
  if (Status St = Ctx.Dev->createEvent(S->Marker)) {
    log(LogLevel::Error, "cannot create a stream: " + St.Message);
    return toCudaError(St.Code);
  }
  Out = S.release();
  std::lock_guard<std::mutex> Lock(HandleM);
  LiveStreams.insert(Out);
  return cudaSuccess;
}

bool Runtime::isLiveStream(StreamObj *S) {
  std::lock_guard<std::mutex> Lock(HandleM);
  return LiveStreams.count(S) != 0;
}

bool Runtime::isLiveEvent(EventObj *E) {
  std::lock_guard<std::mutex> Lock(HandleM);
  return LiveEvents.count(E) != 0;
}

cudaError_t Runtime::resolveStream(cudaStream_t S, StreamObj *&Out) {
  DeviceContext *Ctx;
  if (S == nullptr || S == cudaStreamLegacy || S == cudaStreamPerThread) {
    if (cudaError_t E = current(Ctx))
      return E;
    std::lock_guard<std::recursive_mutex> Lock(Ctx->M);
    if (!Ctx->NullStream) {
      StreamObj *N;
      if (cudaError_t E = createStream(*Ctx, 0, 0, N))
        return E;
      N->IsNull = true;
      Ctx->NullStream.reset(N);
    }
    Out = Ctx->NullStream.get();
    return cudaSuccess;
  }
  StreamObj *Obj = reinterpret_cast<StreamObj *>(S);
  if (!isLiveStream(Obj))
    return cudaErrorInvalidResourceHandle;
  Out = Obj;
  return cudaSuccess;
}

cudaError_t Runtime::destroyStream(StreamObj *S) {
  {
    std::lock_guard<std::mutex> Lock(HandleM);
    if (!LiveStreams.erase(S))
      return cudaErrorInvalidResourceHandle;
  }
  // CUDA lets queued work finish; so do we, before the queue goes away.
  Status St = S->Q->synchronize();
  {
    std::lock_guard<std::recursive_mutex> Lock(S->Ctx->M);
    S->Ctx->Streams.erase(S);
  }
  cudaError_t E = St ? absorb(*S->Ctx, St) : cudaSuccess;
  delete S;
  return E;
}

void Runtime::orderLegacy(StreamObj &S) {
  DeviceContext &Ctx = *S.Ctx;
  if (S.IsNull) {
    for (StreamObj *T : Ctx.Streams) {
      if (T->Flags & cudaStreamNonBlocking)
        continue;
      if (T->Q->query().isOk())
        continue; // idle: nothing to wait for
      T->Q->record(*T->Marker);
      S.Q->wait(*T->Marker);
    }
    return;
  }
  if (S.Flags & cudaStreamNonBlocking)
    return;
  StreamObj *N = Ctx.NullStream.get();
  if (!N || N->Q->query().isOk())
    return;
  N->Q->record(*N->Marker);
  S.Q->wait(*N->Marker);
}

cudaError_t Runtime::absorb(DeviceContext &Ctx, const Status &S) {
  if (S.isOk())
    return cudaSuccess;
  cudaError_t E = toCudaError(S.Code);
  if (E == cudaErrorNotReady)
    return E;
  if (isStickyError(E)) {
    int Expected = 0;
    if (Ctx.Sticky.compare_exchange_strong(Expected, E))
      log(LogLevel::Debug, "device " + std::to_string(Ctx.Index) +
                               ": sticky error " + cudaErrorNameOrNull(E) +
                               ": " + S.Message);
    return static_cast<cudaError_t>(Ctx.Sticky.load());
  }
  log(LogLevel::Warn, S.Message);
  return E;
}

//===----------------------------------------------------------------------===//
// Modules
//===----------------------------------------------------------------------===//

cudaError_t Runtime::loadModule(DeviceContext &Ctx, BinaryRecord &B,
                                int ModuleIndex, LoadedModule *&Out) {
  std::lock_guard<std::recursive_mutex> Lock(Ctx.M);
  auto Key = std::make_pair(static_cast<const BinaryRecord *>(&B), ModuleIndex);
  LoadedModule &LM = Ctx.Modules[Key];
  Out = &LM;
  if (LM.M)
    return cudaSuccess;
  if (LM.Error)
    return toCudaError(LM.Error.Code);
  const container::ModuleInfo &MI = B.C.Modules[ModuleIndex];
  std::vector<char> Binary;
  // Live migration (Core/MigrationService.h): instrumented translation,
  // hidden kernel parameters.
  MigrationService *Mig = activeMigrationService();
  unsigned Flags = moduleTranslateFlags();
  Status S;
  if (takePrefetched(B, ModuleIndex, -1, *Ctx.Dev, Flags, Binary, S))
    log(LogLevel::Debug, "taking the prefetched translation of module " +
                             std::to_string(ModuleIndex) + " for device " +
                             std::to_string(Ctx.Index));
  else
    S = getTranslation(MI, *Ctx.Dev, Flags, Binary);
  if (S.isOk())
    S = Ctx.Dev->loadModule(
        Binary,
        Mig ? Mig->loadedModuleInfo(MI)
            : gridRoundsModuleInfo(Ctx.Dev->properties(), MI, false),
        LM.M);
  if (S.isOk() && !LM.M)
    S = Status(ErrorCode::NoBinaryForGpu, "backend returned no module");
  if (S) {
    LM.M.reset();
    if (S.Code != ErrorCode::OutOfMemory)
      S.Code = ErrorCode::NoBinaryForGpu;
    LM.Error = S;
    log(LogLevel::Error, "cannot load a module on device " +
                             std::to_string(Ctx.Index) + " (" +
                             Ctx.Dev->properties().Name + "): " + S.Message);
    return toCudaError(S.Code);
  }
  if (memCheckEnabled())
    if (Status MS = memCheckModuleLoaded(Ctx, MI, LM)) {
      log(LogLevel::Error, MS.Message);
      LM.M.reset();
      LM.Error = MS;
      return toCudaError(MS.Code);
    }
  // Point the host pointers of managed variables at their device storage.
  std::lock_guard<std::mutex> RLock(RegM);
  for (auto &V : Vars) {
    VarRecord &VR = V.second;
    if (VR.Bin == &B && VR.ModuleIndex == ModuleIndex && VR.ManagedPtr) {
      void *Addr = nullptr;
      size_t Size = 0;
      if (LM.M->getGlobal(VR.Name, Addr, Size).isOk())
        *VR.ManagedPtr = Addr;
    }
  }
  return cudaSuccess;
}

cudaError_t Runtime::getKernel(DeviceContext &Ctx, KernelRecord &K,
                               Kernel *&Out) {
  if (!K.Bin || !K.Bin->Valid) {
    log(LogLevel::Error, "cannot launch " + K.Name +
                             ": its device code container was rejected: " +
                             (K.Bin ? K.Bin->Error : "no container"));
    return cudaErrorInvalidKernelImage;
  }
  if (K.ModuleIndex < 0) {
    log(LogLevel::Error, "cannot launch " + K.Name +
                             ": the kernel is not in its container");
    return cudaErrorInvalidDeviceFunction;
  }
  cudaError_t PartError = cudaSuccess;
  if (loadKernelPart(Ctx, K, Out, PartError))
    return PartError;
  LoadedModule *LM;
  if (cudaError_t E = loadModule(Ctx, *K.Bin, K.ModuleIndex, LM))
    return E;
  std::lock_guard<std::recursive_mutex> Lock(Ctx.M);
  auto It = LM->Kernels.find(K.Name);
  if (It != LM->Kernels.end()) {
    Out = It->second;
    return cudaSuccess;
  }
  Kernel *Kn = nullptr;
  if (Status S = LM->M->getKernel(K.Name, Kn); S || !Kn) {
    log(LogLevel::Error, "kernel " + K.Name + " missing from its translation: " +
                             S.Message);
    return cudaErrorInvalidDeviceFunction;
  }
  LM->Kernels[K.Name] = Kn;
  Out = Kn;
  return cudaSuccess;
}

bool Runtime::loadKernelPart(DeviceContext &Ctx, KernelRecord &K, Kernel *&Out,
                             cudaError_t &E) {
  const container::ModuleInfo &MI = K.Bin->C.Modules[K.ModuleIndex];
  int Group = kernelGroupOf(MI, K.Name);
  if (Group < 0)
    return false;
  std::lock_guard<std::recursive_mutex> Lock(Ctx.M);
  LoadedModule &LM = Ctx.Modules[{K.Bin, K.ModuleIndex}];
  if (auto It = LM.Kernels.find(K.Name); It != LM.Kernels.end()) {
    Out = It->second;
    E = cudaSuccess;
    return true;
  }
  if (LM.M || LM.Error)
    return false;
  // An image of the whole module: loadModule takes it (and logs the images
  // passed over); otherwise say once why each image was passed over.
  if (chooseImage(MI, *Ctx.Dev, 0, false))
    return false;
  if (!LM.ImagesChecked && !MI.Images.empty())
    logImageRefusals(MI, *Ctx.Dev, 0);
  LM.ImagesChecked = true;
  // The kernels of the group image that holds the kernel (container 2.2:
  // hetgpu-cc makes the runtime's groups), else the kernel's group. Its
  // group if the prefetch made it (or is making it); while that waits in
  // the prefetch queue, the kernel alone, or the image's group.
  std::vector<std::string> Names = kernelGroup(MI, Group);
  const container::AOTImage *Img = groupImageOf(MI, *Ctx.Dev, K.Name);
  bool Prefetchable = !Img || Img->Kernels == Names;
  if (Img)
    Names = Img->Kernels;
  std::vector<char> Binary;
  Status S;
  // With an image, a group still queued is taken out of the queue (loading
  // the image here costs what the worker would pay; on NVIDIA the driver
  // would otherwise compile the group twice).
  Prefetched P = Prefetched::None;
  if (Img && Prefetchable)
    P = takePrefetched(*K.Bin, K.ModuleIndex, Group, *Ctx.Dev, 0, Binary, S)
            ? Prefetched::Taken
            : Prefetched::None;
  else if (Prefetchable)
    P = takeOrPromotePrefetched(*K.Bin, K.ModuleIndex, Group, *Ctx.Dev, 0,
                                Binary, S);
  switch (P) {
  case Prefetched::Taken:
    break;
  case Prefetched::Queued:
    if (!Img)
      Names = {K.Name};
    [[fallthrough]];
  case Prefetched::None:
    S = getTranslation(MI, *Ctx.Dev, 0, Binary, Names);
    break;
  }
  container::ModuleInfo &PI = LM.PartInfos.emplace_back();
  PI.Kind = MI.Kind;
  PI.IRVersionMajor = MI.IRVersionMajor;
  PI.IRVersionMinor = MI.IRVersionMinor;
  PI.IRHash = MI.IRHash;
  for (const std::string &N : Names)
    PI.Kernels.push_back(*MI.findKernel(N));
  PI = gridRoundsModuleInfo(Ctx.Dev->properties(), PI, false);
  std::unique_ptr<Module> Part;
  if (S.isOk())
    S = Ctx.Dev->loadModule(Binary, PI, Part);
  if (S.isOk() && !Part)
    S = Status(ErrorCode::NoBinaryForGpu, "backend returned no module");
  std::vector<Kernel *> Kns;
  for (size_t I = 0; S.isOk() && I < Names.size(); ++I) {
    Kernel *Kn = nullptr;
    S = Part->getKernel(Names[I], Kn);
    if (S.isOk() && !Kn)
      S = Status(ErrorCode::NoBinaryForGpu,
                 "kernel " + Names[I] + " missing from its translation");
    Kns.push_back(Kn);
  }
  if (S) {
    Part.reset(); // before the ModuleInfo it was loaded with
    LM.PartInfos.pop_back();
    if (S.Code != ErrorCode::OutOfMemory)
      S.Code = ErrorCode::NoBinaryForGpu;
    LM.Error = S;
    log(LogLevel::Error, "cannot load kernel " + K.Name + " on device " +
                             std::to_string(Ctx.Index) + " (" +
                             Ctx.Dev->properties().Name + "): " + S.Message);
    E = toCudaError(S.Code);
    return true;
  }
  LM.Parts.push_back(std::move(Part));
  for (size_t I = 0; I < Names.size(); ++I)
    LM.Kernels[Names[I]] = Kns[I];
  Out = LM.Kernels[K.Name];
  E = cudaSuccess;
  return true;
}

cudaError_t Runtime::getSymbol(DeviceContext &Ctx, const void *Symbol,
                               void *&Addr, size_t &Size) {
  VarRecord *V = findVar(Symbol);
  if (!V)
    return cudaErrorInvalidSymbol;
  if (!V->Bin || !V->Bin->Valid)
    return cudaErrorInvalidKernelImage;
  if (V->ModuleIndex < 0) {
    log(LogLevel::Error, "variable " + V->Name + " is not in its container");
    return cudaErrorInvalidSymbol;
  }
  LoadedModule *LM;
  if (cudaError_t E = loadModule(Ctx, *V->Bin, V->ModuleIndex, LM))
    return E;
  if (Status S = LM->M->getGlobal(V->Name, Addr, Size)) {
    log(LogLevel::Error, "variable " + V->Name +
                             " missing from its translation: " + S.Message);
    return cudaErrorInvalidSymbol;
  }
  if (!Size)
    Size = V->Size;
  addSymbolRange(Addr, Size, Ctx.Index);
  return cudaSuccess;
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

void Runtime::addAlloc(const Allocation &A) {
  std::lock_guard<std::mutex> Lock(AllocM);
  forgetFreedOverlapping(A.Base, A.Size);
  Allocs[A.Base] = A;
}

bool Runtime::findAlloc(const void *P, Allocation &Out) {
  uintptr_t U = reinterpret_cast<uintptr_t>(P);
  std::lock_guard<std::mutex> Lock(AllocM);
  auto It = Allocs.upper_bound(U);
  if (It == Allocs.begin())
    return false;
  --It;
  const Allocation &A = It->second;
  if (U < A.Base || U >= A.Base + std::max<size_t>(A.Size, 1))
    return false;
  Out = A;
  return true;
}

bool Runtime::removeAlloc(const void *Base, AllocKind Kind, Allocation &Out) {
  std::lock_guard<std::mutex> Lock(AllocM);
  auto It = Allocs.find(reinterpret_cast<uintptr_t>(Base));
  if (It == Allocs.end())
    return false;
  bool KindOK = It->second.Kind == Kind ||
                (Kind == AllocKind::Device &&
                 It->second.Kind == AllocKind::Managed);
  if (!KindOK)
    return false;
  Out = It->second;
  Allocs.erase(It);
  return true;
}

void Runtime::removeDeviceAllocs(int Device) {
  std::vector<Allocation> Gone;
  {
    std::lock_guard<std::mutex> Lock(AllocM);
    for (auto It = Allocs.begin(); It != Allocs.end();) {
      if (It->second.Device == Device && It->second.Kind != AllocKind::Registered) {
        Gone.push_back(It->second);
        It = Allocs.erase(It);
      } else {
        ++It;
      }
    }
  }
  flushQuarantine(Device);
  DeviceContext *Ctx = context(Device);
  for (const Allocation &A : Gone) {
    void *P = reinterpret_cast<void *>(A.Base);
    if (A.Kind == AllocKind::Host)
      (A.Owner ? A.Owner : Ctx->Dev.get())->releaseHost(P);
    else
      Ctx->Dev->release(P);
  }
}
