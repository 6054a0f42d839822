//===- vmm-arena-probe.cpp - One driver reservation for the whole arena ---===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// A stand-alone check (libcuda.so.1 is dlopen'ed, no CUDA SDK) of the
/// NVIDIA backend's address scheme under migration (docs/Migration.md): the
/// H200's driver grants no fixed-address cuMemAddressReserve once a module
/// that uses the device runtime (vprintf, malloc, assert) is loaded, so the
/// backend reserves the whole arena range once, before any module and before
/// the host arena is mapped, and hands chunks between host and GPU inside
/// that one reservation. This probe walks that scheme:
///   1. cuInit, then one reservation of the arena range at its fixed base;
///   2. the host arena mapped over it (MAP_FIXED_NOREPLACE, else MAP_FIXED);
///   3. a chunk lent to the GPU (munmap + cuMemCreate/Map/SetAccess), a
///      kernel stores each word's own address there, read back;
///   4. a module with device printf loaded and run; a separate fixed
///      reservation tried (the refusal this scheme avoids);
///   5. a second chunk lent after the printf module, a chunk given back to
///      the host and lent again; host registration inside the range.
/// "late" as argument loads the printf module before the reservation (the
/// order the scheme must avoid). Prints one line per step and
/// "vmm-arena-probe: OK" when every step held.
///   g++ -O2 bench/migration/vmm-arena-probe.cpp -o probe -ldl && ./probe
///
//===----------------------------------------------------------------------===//

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fstream>
#include <string>
#include <sys/mman.h>
#include <unistd.h>
#include <vector>

#include "../common/cuda-driver-probe.h"

// fill(p, n): p[i] = &p[i]; from clang-22 --cuda-device-only, sm_90.
static const char *FillPtx = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry fill(.param .u64 fill_param_0, .param .u64 fill_param_1)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<10>;
  ld.param.u64 %rd3, [fill_param_0];
  cvta.to.global.u64 %rd4, %rd3;
  ld.param.u64 %rd5, [fill_param_1];
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mul.wide.u32 %rd6, %r1, %r2;
  mov.u32 %r3, %tid.x;
  cvt.u64.u32 %rd7, %r3;
  add.s64 %rd8, %rd6, %rd7;
  setp.ge.u64 %p1, %rd8, %rd5;
  shl.b64 %rd9, %rd8, 3;
  add.s64 %rd1, %rd4, %rd9;
  cvta.global.u64 %rd2, %rd1;
  @%p1 bra DONE;
  st.global.u64 [%rd1], %rd2;
DONE:
  ret;
}
)";

// say(v): printf("probe %d\n", v), i.e. a module using the device runtime.
static const char *SayPtx = R"(.version 8.0
.target sm_90
.address_size 64
.extern .func (.param .b32 func_retval0) vprintf
(.param .b64 vprintf_param_0, .param .b64 vprintf_param_1);
.global .align 1 .b8 fmt[10] = {112, 114, 111, 98, 101, 32, 37, 100, 10};
.visible .entry say(.param .u32 say_param_0)
{
  .local .align 4 .b8 __local_depot0[4];
  .reg .b64 %SP;
  .reg .b64 %SPL;
  .reg .b32 %r<2>;
  .reg .b64 %rd<5>;
  mov.u64 %SPL, __local_depot0;
  cvta.local.u64 %SP, %SPL;
  ld.param.u32 %r1, [say_param_0];
  add.u64 %rd1, %SP, 0;
  add.u64 %rd2, %SPL, 0;
  st.local.u32 [%rd2], %r1;
  {
  .param .b64 param0;
  .param .b64 param1;
  .param .b32 retval0;
  st.param.b64 [param1], %rd1;
  mov.u64 %rd3, fmt;
  cvta.global.u64 %rd4, %rd3;
  st.param.b64 [param0], %rd4;
  call.uni (retval0), vprintf, (param0, param1);
  }
  ret;
}
)";

static int Failures = 0;
static bool step(const char *What, CUresult R) {
  printf("vmm-arena-probe: %-52s %s (%d)\n", What, R ? "FAILED" : "ok", R);
  Failures += R != 0;
  return R == 0;
}

static const uint64_t Base = 0x1000000000ull, Size = 64ull << 30,
                      Chunk = 32ull << 20;
static int Fd = -1;
static int Dev = 0;
static void *Fill = nullptr;

static void showMaps(const char *When) {
  std::ifstream In("/proc/self/maps");
  std::string L;
  printf("vmm-arena-probe: mappings in the arena range %s:\n", When);
  while (std::getline(In, L)) {
    uint64_t Lo = strtoull(L.c_str(), nullptr, 16);
    if (Lo >= Base && Lo < Base + Size)
      printf("vmm-arena-probe:   %s\n", L.c_str());
  }
}

// Runs fill over [At, At + Bytes) and checks every word holds its address.
static void fillAndCheck(const char *What, uint64_t At, uint64_t Bytes) {
  unsigned long long P = At, N = Bytes / 8;
  void *Args[] = {&P, &N};
  unsigned Blocks = unsigned((N + 255) / 256);
  bool Ok = step(What, cuLaunchKernel(Fill, Blocks, 1, 1, 256, 1, 1, 0, nullptr,
                                      Args, nullptr)) &&
            step("  cuCtxSynchronize", cuCtxSynchronize());
  std::vector<uint64_t> Back(N);
  Ok = Ok && step("  cuMemcpyDtoH", cuMemcpyDtoH_v2(Back.data(), At, Bytes));
  size_t Bad = 0;
  for (size_t I = 0; Ok && I < N; ++I)
    Bad += Back[I] != At + I * 8;
  printf("vmm-arena-probe:   words at their own address: %s\n",
         Ok && !Bad ? "ok" : "MISMATCH");
  Failures += !Ok || Bad;
}

struct Lent {
  CUmemHandle H = 0;
};

static Lent lend(uint64_t At) {
  Lent L;
  step("munmap of the host chunk", munmap(reinterpret_cast<void *>(At), Chunk));
  Prop P{};
  P.Type = 1;
  P.Location = {1, Dev};
  step("cuMemCreate", cuMemCreate(&L.H, Chunk, &P, 0));
  step("cuMemMap inside the arena reservation", cuMemMap(At, Chunk, 0, L.H, 0));
  Access Acc{{1, Dev}, 3};
  step("cuMemSetAccess", cuMemSetAccess(At, Chunk, &Acc, 1));
  return L;
}

static void reclaim(uint64_t At, Lent L) {
  step("cuMemUnmap", cuMemUnmap(At, Chunk));
  step("cuMemRelease", cuMemRelease(L.H));
  void *P = mmap(reinterpret_cast<void *>(At), Chunk, PROT_READ | PROT_WRITE,
                 MAP_SHARED | MAP_FIXED, Fd, off_t(At - Base));
  step("host mapping of the chunk back",
       P == reinterpret_cast<void *>(At) ? 0 : -1);
}

static void *loadModule(const char *Ptx, const char *Name, const char *What) {
  void *M = nullptr, *F = nullptr;
  step(What, cuModuleLoadData(&M, Ptx));
  if (M)
    step("  cuModuleGetFunction", cuModuleGetFunction(&F, M, Name));
  return F;
}

static void runSay(void *Say) {
  int V = 7;
  void *Args[] = {&V};
  if (Say &&
      step("launch of the printf kernel",
           cuLaunchKernel(Say, 1, 1, 1, 1, 1, 1, 0, nullptr, Args, nullptr)))
    step("  cuCtxSynchronize", cuCtxSynchronize());
}

int main(int argc, char **argv) {
  setvbuf(stdout, nullptr, _IONBF, 0);
  bool Late = argc > 1 && !strcmp(argv[1], "late");
  void *H = openDriver("vmm-arena-probe");
  if (!H)
    return 2;
#define LOAD(Name) PROBE_LOAD(H, "vmm-arena-probe", Name)
  LOAD(cuInit)
  LOAD(cuDeviceGet) LOAD(cuDevicePrimaryCtxRetain) LOAD(cuCtxSetCurrent)
      LOAD(cuCtxSynchronize) LOAD(cuMemAddressReserve) LOAD(cuMemAddressFree)
          LOAD(cuMemCreate) LOAD(cuMemRelease) LOAD(cuMemMap) LOAD(cuMemUnmap)
              LOAD(cuMemSetAccess) LOAD(cuMemcpyDtoH_v2)
                  LOAD(cuMemHostRegister_v2) LOAD(cuMemHostUnregister)
                      LOAD(cuMemHostGetDevicePointer_v2) LOAD(cuModuleLoadData)
                          LOAD(cuModuleGetFunction) LOAD(cuLaunchKernel)
#undef LOAD
                              void *Ctx = nullptr;
  step("cuInit", cuInit(0));
  step("cuDeviceGet", cuDeviceGet(&Dev, 0));
  step("cuDevicePrimaryCtxRetain", cuDevicePrimaryCtxRetain(&Ctx, Dev));
  step("cuCtxSetCurrent", cuCtxSetCurrent(Ctx));
  Fill = loadModule(FillPtx, "fill", "load of a plain module");
  void *Say = nullptr;
  if (Late)
    Say = loadModule(SayPtx, "say", "load of the printf module (late order)");

  // 1. The whole arena range, reserved once.
  CUdeviceptr Got = 0;
  step("cuMemAddressReserve of the whole arena",
       cuMemAddressReserve(&Got, Size, Chunk, Base, 0));
  printf("vmm-arena-probe: asked 0x%llx got 0x%llx: %s\n",
         (unsigned long long)Base, Got, Got == Base ? "same" : "DIFFERENT");
  if (Got != Base) {
    printf("vmm-arena-probe: FAILED (the reservation is elsewhere)\n");
    return 1;
  }
  showMaps("after the reservation");

  // 2. The host arena over it.
  Fd = memfd_create("vmm-arena-probe", 0);
  if (Fd < 0 || ftruncate(Fd, off_t(Size))) {
    printf("vmm-arena-probe: memfd failed\n");
    return 2;
  }
  void *A = mmap(reinterpret_cast<void *>(Base), Size, PROT_READ | PROT_WRITE,
                 MAP_SHARED | MAP_FIXED_NOREPLACE, Fd, 0);
  printf("vmm-arena-probe: host arena with MAP_FIXED_NOREPLACE: %s\n",
         A == reinterpret_cast<void *>(Base) ? "ok" : strerror(errno));
  if (A != reinterpret_cast<void *>(Base)) {
    A = mmap(reinterpret_cast<void *>(Base), Size, PROT_READ | PROT_WRITE,
             MAP_SHARED | MAP_FIXED, Fd, 0);
    step("host arena with MAP_FIXED",
         A == reinterpret_cast<void *>(Base) ? 0 : -1);
  }
  showMaps("after the host arena");
  uint64_t *Host0 = reinterpret_cast<uint64_t *>(Base);
  Host0[0] = 0x1234;
  uint64_t C1 = Base + Chunk, C2 = Base + 2 * Chunk, C3 = Base + 3 * Chunk;
  reinterpret_cast<uint64_t *>(C1)[5] = 0x5555;

  // 3. A chunk lent before any device-runtime module.
  Lent L1 = lend(C1);
  fillAndCheck("fill on chunk 1 (lent first)", C1, Chunk);

  // 4. The printf module; a fresh fixed reservation elsewhere.
  if (!Late)
    Say = loadModule(SayPtx, "say", "load of the printf module");
  runSay(Say);
  CUdeviceptr Other = 0, Want = Base + Size + (1ull << 30);
  CUresult R = cuMemAddressReserve(&Other, Chunk, Chunk, Want, 0);
  printf("vmm-arena-probe: (info) a new fixed reservation after the printf "
         "module: %d, %s\n",
         R, Other == Want ? "granted" : "elsewhere");
  if (R == 0)
    cuMemAddressFree(Other, Chunk);

  // 5. Lent after, given back, lent again; host registration in the range.
  Lent L2 = lend(C2);
  fillAndCheck("fill on chunk 2 (lent after the printf module)", C2, Chunk);
  reclaim(C1, L1);
  uint64_t *Back1 = reinterpret_cast<uint64_t *>(C1);
  printf("vmm-arena-probe: chunk 1's host bytes after the loan: %s\n",
         Back1[5] == 0x5555 ? "ok" : "CHANGED");
  Failures += Back1[5] != 0x5555;
  Back1[0] = 99;
  L1 = lend(C1);
  fillAndCheck("fill on chunk 1 (lent again)", C1, Chunk);
  runSay(Say);
  reclaim(C1, L1);
  reclaim(C2, L2);
  if (step("cuMemHostRegister of host chunk 3 (portable, devicemap)",
           cuMemHostRegister_v2(reinterpret_cast<void *>(C3), Chunk, 3))) {
    CUdeviceptr DP = 0;
    step("cuMemHostGetDevicePointer",
         cuMemHostGetDevicePointer_v2(&DP, reinterpret_cast<void *>(C3), 0));
    printf("vmm-arena-probe: registered host chunk's device address: %s\n",
           DP == C3 ? "same" : "DIFFERENT");
    Failures += DP != C3;
    if (DP == C3) {
      fillAndCheck("fill on the registered host chunk", C3, Chunk);
      uint64_t *H3 = reinterpret_cast<uint64_t *>(C3);
      printf("vmm-arena-probe: host sees the kernel's stores: %s\n",
             H3[7] == C3 + 56 ? "ok" : "NO");
      Failures += H3[7] != C3 + 56;
    }
    step("cuMemHostUnregister",
         cuMemHostUnregister(reinterpret_cast<void *>(C3)));
  }
  printf("vmm-arena-probe: host chunk 0 kept its bytes: %s\n",
         Host0[0] == 0x1234 ? "ok" : "CHANGED");
  Failures += Host0[0] != 0x1234;
  printf("vmm-arena-probe: %s (%d failures)\n", Failures ? "FAILED" : "OK",
         Failures);
  return Failures ? 1 : 0;
}
