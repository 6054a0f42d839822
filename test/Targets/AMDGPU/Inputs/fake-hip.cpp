// fake-hip.cpp - a stand-in for libamdhip64 that runs on the host, so the
// HIP backend's own code (discovery, code object loading, the packed kernarg
// buffer, streams, events, draining the printf buffer, the assert/trap flags)
// can be tested without an AMD GPU. Kernels do not run: a "launch" checks
// the code object is an AMDGPU ELF and writes one printf record, in the
// device layout of ABI/AMDGPUDevice.h, describing the
// launch (kernel name as a %s string, kernarg size, the int at offset 8);
// a kernel whose name contains "trap" sets the trap flag instead.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {
struct Module {
  std::vector<unsigned char> Printf = std::vector<unsigned char>(16 + (1u << 20));
};
struct Function {
  Module *M;
  std::string Name;
};
struct Event {
  std::chrono::steady_clock::time_point T;
};
uint32_t put32(std::vector<unsigned char> &R, size_t Off, uint32_t V) {
  std::memcpy(R.data() + Off, &V, 4);
  return V;
}
} // namespace

extern "C" {
int hipInit(unsigned) { return 0; }
int hipDriverGetVersion(int *V) { *V = 60000000; return 0; }
const char *hipGetErrorName(int E) { return E ? "hipErrorFake" : "hipSuccess"; }
const char *hipGetErrorString(int E) { return E ? "fake error" : "no error"; }
int hipGetDeviceCount(int *C) { *C = 1; return 0; }
int hipSetDevice(int D) { return D == 0 ? 0 : 101; }
int hipDeviceGetName(char *N, int L, int) { std::snprintf(N, L, "Fake AMD GPU"); return 0; }
int hipDeviceGetAttribute(int *V, int A, int) {
  switch (A) {
  case 56: case 26: case 27: *V = 1024; break;
  case 28: *V = 1024; break;
  case 29: *V = 2147483647; break;
  case 30: case 31: *V = 65535; break;
  case 74: case 75: case 76: *V = 65536; break;
  case 63: *V = 4; break;
  default: *V = 0;
  }
  return 0;
}
int hipGetDevicePropertiesR0600(void *P, int) {
  std::memset(P, 0, 1400);
  std::strcpy(static_cast<char *>(P), "Fake AMD GPU");
  std::strcpy(static_cast<char *>(P) + 1160, "gfx942:sramecc+:xnack-");
  return 0;
}
int hipDeviceTotalMem(size_t *B, int) { *B = size_t(1) << 30; return 0; }
int hipDeviceSynchronize() { return 0; }
int hipMalloc(void **P, size_t B) { *P = std::calloc(1, B); return *P ? 0 : 2; }
int hipMallocManaged(void **P, size_t B, unsigned) { return hipMalloc(P, B); }
int hipFree(void *P) { std::free(P); return 0; }
int hipHostMalloc(void **P, size_t B, unsigned) { return hipMalloc(P, B); }
int hipHostFree(void *P) { std::free(P); return 0; }
int hipMemGetInfo(size_t *F, size_t *T) { *F = *T = size_t(1) << 30; return 0; }
int hipMemcpy(void *D, const void *S, size_t B, int) { std::memmove(D, S, B); return 0; }
int hipMemcpyAsync(void *D, const void *S, size_t B, int K, void *) { return hipMemcpy(D, S, B, K); }
int hipMemsetAsync(void *D, int V, size_t B, void *) { std::memset(D, V, B); return 0; }
int hipModuleLoadData(Module **M, const void *Image) {
  const unsigned char *E = static_cast<const unsigned char *>(Image);
  uint16_t Machine;
  std::memcpy(&Machine, E + 18, 2);
  if (std::memcmp(E, "\x7f" "ELF", 4) != 0 || Machine != 224 /*EM_AMDGPU*/)
    return 200; // hipErrorInvalidImage
  *M = new Module;
  return 0;
}
int hipModuleUnload(Module *M) { delete M; return 0; }
int hipModuleGetFunction(Function **F, Module *M, const char *Name) {
  *F = new Function{M, Name};
  return 0;
}
int hipModuleGetGlobal(void **P, size_t *B, Module *M, const char *Name) {
  if (std::strcmp(Name, "__hetgpu_amdgpu_printf") != 0)
    return 500;
  *P = M->Printf.data();
  *B = M->Printf.size();
  return 0;
}
int hipModuleLaunchKernel(Function *F, unsigned GX, unsigned, unsigned, unsigned BX,
                          unsigned, unsigned, unsigned, void *, void **,
                          void **Extra) {
  size_t Size = 0;
  const unsigned char *Args = nullptr;
  for (int I = 0; Extra && Extra[I] != reinterpret_cast<void *>(3); I += 2) {
    if (Extra[I] == reinterpret_cast<void *>(1))
      Args = static_cast<const unsigned char *>(Extra[I + 1]);
    if (Extra[I] == reinterpret_cast<void *>(2))
      Size = *static_cast<size_t *>(Extra[I + 1]);
  }
  std::vector<unsigned char> &Buf = F->M->Printf;
  if (F->Name.find("trap") != std::string::npos) {
    Buf[8] |= 2;
    return 0;
  }
  int At8 = 0;
  if (Args && Size >= 12)
    std::memcpy(&At8, Args + 8, 4);
  // One record: header, format, args {char*, u32, u32, i32}, string table,
  // the kernel name.
  const char *Fmt = "fake-hip: %s grid %u block %u kernarg %u bytes, int at 8: %d\n";
  uint32_t FmtLen = std::strlen(Fmt) + 1, ArgsOff = (32 + FmtLen + 7) & ~7u;
  uint32_t ArgsLen = 24, TableOff = ArgsOff + ArgsLen, StrOff = TableOff + 8;
  uint32_t Total = (StrOff + F->Name.size() + 1 + 7) & ~7u;
  std::vector<unsigned char> R(Total, 0);
  put32(R, 0, Total); put32(R, 4, 1); put32(R, 8, 32); put32(R, 12, FmtLen);
  put32(R, 16, ArgsOff); put32(R, 20, ArgsLen); put32(R, 24, 1); put32(R, 28, TableOff);
  std::memcpy(R.data() + 32, Fmt, FmtLen);
  uint64_t DevicePtr = 0xdead0000; // a device address the host must not use
  std::memcpy(R.data() + ArgsOff, &DevicePtr, 8);
  put32(R, ArgsOff + 8, GX); put32(R, ArgsOff + 12, BX);
  put32(R, ArgsOff + 16, Size); put32(R, ArgsOff + 20, At8);
  put32(R, TableOff, 0); put32(R, TableOff + 4, StrOff);
  std::memcpy(R.data() + StrOff, F->Name.c_str(), F->Name.size() + 1);
  uint64_t Head;
  std::memcpy(&Head, Buf.data(), 8);
  std::memcpy(Buf.data() + 16 + Head, R.data(), Total);
  Head += Total;
  std::memcpy(Buf.data(), &Head, 8);
  return 0;
}
int hipLaunchHostFunc(void *, void (*Fn)(void *), void *U) { Fn(U); return 0; }
int hipStreamCreateWithFlags(void **S, unsigned) { *S = new int; return 0; }
int hipStreamDestroy(void *S) { delete static_cast<int *>(S); return 0; }
int hipStreamSynchronize(void *) { return 0; }
int hipStreamQuery(void *) { return 0; }
int hipStreamWaitEvent(void *, void *, unsigned) { return 0; }
int hipEventCreateWithFlags(Event **E, unsigned) { *E = new Event; return 0; }
int hipEventDestroy(Event *E) { delete E; return 0; }
int hipEventRecord(Event *E, void *) { E->T = std::chrono::steady_clock::now(); return 0; }
int hipEventSynchronize(Event *) { return 0; }
int hipEventQuery(Event *) { return 0; }
int hipEventElapsedTime(float *Ms, Event *A, Event *B) {
  *Ms = std::chrono::duration<float, std::milli>(B->T - A->T).count();
  return 0;
}
}
