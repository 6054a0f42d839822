//===- core.c - Block scheduler and device services of a many-core core ----===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
///
/// \file
/// Runs in the relocated copy of the image in device DRAM, shared by every
/// core: this file therefore has no writable globals; per-core state lives
/// on the core's stack or in TLS. The core is persistent: after a launch it
/// waits on its control socket for the next one (ABI/RVManycore.h). A core takes
/// blocks of the launch (atomic counter or static range), builds the
/// hetgpu_block_ctx of ABI/BlockABI.h for each (shared memory in the core's SRAM)
/// and calls the kernel's block function, which the SIMT->MIMD lowering made
/// from the kernel. The services of ABI/BlockABI.h
/// are implemented here: printf records go to a DRAM ring, assert and trap
/// abort the launch, malloc bumps a DRAM heap.
///
//===----------------------------------------------------------------------===//

#include "hetgpu/ABI/BlockABI.h"
#include "hetgpu/ABI/RVManycore.h"
#include "hetgpu/ABI/RVManycorePrintf.h"
#include "rvmc_sys.h"

void *memcpy(void *Dst, const void *Src, unsigned long N);

extern _Thread_local uint64_t rvmc_sram_free
    __attribute__((visibility("hidden")));
extern _Thread_local uint64_t rvmc_spill __attribute__((visibility("hidden")));
extern _Thread_local uint64_t rvmc_spill_size
    __attribute__((visibility("hidden")));

typedef struct CoreState {
  rvmc_launch *L;
  uint64_t Core;
  uint64_t Block;
} CoreState;

static uint32_t fetchAdd32(uint32_t *P, uint32_t V) {
  return __atomic_fetch_add(P, V, __ATOMIC_RELAXED);
}
static uint64_t fetchAdd64(uint64_t *P, uint64_t V) {
  return __atomic_fetch_add(P, V, __ATOMIC_RELAXED);
}

// ---- Launch errors --------------------------------------------------------

static char *append(char *Out, char *End, const char *S) {
  while (S && *S && Out < End)
    *Out++ = *S++;
  return Out;
}

static char *appendDecimal(char *Out, char *End, uint64_t V) {
  char Buf[24];
  int N = 0;
  do {
    Buf[N++] = (char)('0' + V % 10);
    V /= 10;
  } while (V);
  while (N && Out < End)
    *Out++ = Buf[--N];
  return Out;
}

/// Records the first failure of the launch, stops the other cores from
/// taking new blocks and ends this core.
__attribute__((noreturn)) static void abortLaunch(CoreState *CS,
                                                  uint32_t Kind,
                                                  const char *Text1,
                                                  const char *Text2) {
  rvmc_launch *L = CS->L;
  uint32_t Expected = RVMC_ERR_NONE;
  if (__atomic_compare_exchange_n(&L->error_kind, &Expected, Kind, 0,
                                  __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
    L->error_core = (uint32_t)CS->Core;
    L->error_block = (uint32_t)CS->Block;
    char *Out = L->error_text;
    char *End = L->error_text + RVMC_ERROR_TEXT - 1;
    Out = append(Out, End, Text1);
    Out = append(Out, End, Text2);
    *Out = 0;
  }
  __atomic_store_n(&L->abort, 1, __ATOMIC_RELEASE);
  rvmc_exit(RVMC_EXIT_ABORT);
}

static void svcAssert(void *Rt, const char *Msg, const char *File,
                      uint32_t Line, const char *Func) {
  char Buf[RVMC_ERROR_TEXT];
  char *Out = Buf, *End = Buf + sizeof(Buf) - 1;
  Out = append(Out, End, File);
  Out = append(Out, End, ":");
  Out = appendDecimal(Out, End, Line);
  Out = append(Out, End, ": ");
  Out = append(Out, End, Func);
  // CUDA's wording; the thread is not known to a block-level service.
  CoreState *CS = (CoreState *)Rt;
  uint64_t B = CS->Block, GX = CS->L->grid[0], GY = CS->L->grid[1];
  Out = append(Out, End, ": block: [");
  Out = appendDecimal(Out, End, B % GX);
  Out = append(Out, End, ",");
  Out = appendDecimal(Out, End, (B / GX) % GY);
  Out = append(Out, End, ",");
  Out = appendDecimal(Out, End, B / (GX * GY));
  Out = append(Out, End, "], thread: [?,?,?] Assertion `");
  Out = append(Out, End, Msg);
  Out = append(Out, End, "` failed.");
  *Out = 0;
  abortLaunch(CS, RVMC_ERR_ASSERT, Buf, 0);
}

static void svcTrap(void *Rt) {
  abortLaunch((CoreState *)Rt, RVMC_ERR_TRAP, "__trap() called", 0);
}

// ---- printf -------------------------------------------------------------

/// Appends a record of the call to the launch's ring: the format, the
/// argument buffer and a copy of every %s string (the host cannot read a
/// core's private memory).
static int svcPrintf(void *Rt, const char *Fmt, const void *Args) {
  CoreState *CS = (CoreState *)Rt;
  rvmc_ring *Ring = (rvmc_ring *)CS->L->ring;
  if (!Ring || !Fmt)
    return -1;
  const unsigned char *A = (const unsigned char *)Args;
  // Pass 1: sizes.
  uint32_t FmtLen = (uint32_t)rvmc_strlen(Fmt);
  uint32_t ArgsLen = 0, StrLen = 0, NumArgs = 0;
  rvmc_fmt_piece P;
  for (uint32_t Pos = 0; rvmc_fmt_next(Fmt, Pos, &P); Pos += P.len) {
    for (uint32_t S = 0; S < P.stars; ++S)
      ArgsLen = rvmc_fmt_align(ArgsLen, 4) + 4;
    if (!P.size)
      continue;
    ArgsLen = rvmc_fmt_align(ArgsLen, P.size);
    if (P.kind == RVMC_FMT_STRING) {
      const char *Str;
      __builtin_memcpy(&Str, A + ArgsLen, 8);
      if (Str)
        StrLen += (uint32_t)rvmc_strlen(Str) + 1;
    }
    ArgsLen += P.size;
    ++NumArgs;
  }
  uint32_t FmtArea = (FmtLen + 1 + 7) & ~7u;
  uint32_t Size = (uint32_t)sizeof(rvmc_printf_rec) + FmtArea +
                  ((ArgsLen + 7) & ~7u) + StrLen;
  Size = (Size + 7) & ~7u;
  uint64_t At = fetchAdd64(&Ring->head, Size);
  if (At + Size > Ring->capacity) {
    fetchAdd32(&Ring->dropped, 1);
    return -1;
  }
  unsigned char *Rec = (unsigned char *)(Ring->data + At);
  rvmc_printf_rec H;
  H.size = Size;
  H.core = (uint32_t)CS->Core;
  H.fmt_len = FmtLen;
  H.args_len = ArgsLen;
  H.str_len = StrLen;
  H.block = (uint32_t)CS->Block;
  unsigned char *FmtOut = Rec + sizeof(H);
  unsigned char *ArgOut = FmtOut + FmtArea;
  unsigned char *StrOut = ArgOut + ((ArgsLen + 7) & ~7u);
  __builtin_memcpy(FmtOut, Fmt, FmtLen + 1);
  __builtin_memcpy(ArgOut, A, ArgsLen);
  // Pass 2: copy the strings, point their slots at the copies.
  uint32_t Off = 0, StrAt = 0;
  for (uint32_t Pos = 0; rvmc_fmt_next(Fmt, Pos, &P); Pos += P.len) {
    for (uint32_t S = 0; S < P.stars; ++S)
      Off = rvmc_fmt_align(Off, 4) + 4;
    if (!P.size)
      continue;
    Off = rvmc_fmt_align(Off, P.size);
    if (P.kind == RVMC_FMT_STRING) {
      const char *Str;
      __builtin_memcpy(&Str, A + Off, 8);
      uint64_t Slot = ~0ull;
      if (Str) {
        uint32_t N = (uint32_t)rvmc_strlen(Str) + 1;
        __builtin_memcpy(StrOut + StrAt, Str, N);
        Slot = StrAt;
        StrAt += N;
      }
      __builtin_memcpy(ArgOut + Off, &Slot, 8);
    }
    Off += P.size;
  }
  // The header last: the host skips records whose size is still zero.
  __builtin_memcpy(Rec, &H, sizeof(H));
  return (int)NumArgs;
}

// ---- Heap, clocks -----------------------------------------------------------

static void *svcMalloc(void *Rt, uint64_t Size) {
  CoreState *CS = (CoreState *)Rt;
  rvmc_heap *Heap = (rvmc_heap *)CS->L->heap;
  if (!Heap || Size == 0)
    return 0;
  uint64_t Rounded = (Size + 15) & ~15ull;
  uint64_t At = fetchAdd64(&Heap->next, Rounded);
  if (At + Rounded > Heap->size)
    return 0;
  return (void *)(Heap->base + At);
}

static void svcFree(void *Rt, void *Ptr) {
  (void)Rt;
  (void)Ptr; // The bump heap is reset after each launch by the host.
}

/// Nanoseconds of host time, as on the CPU device (a 1 GHz clock): qemu's
/// rdcycle is the host's time-stamp counter, whose rate a kernel cannot know.
static uint64_t svcClock64(void *Rt) {
  (void)Rt;
  struct {
    long Sec, Nsec;
  } Ts = {0, 0};
  rvmc_syscall6(RVMC_SYS_CLOCK_GETTIME, 1 /*CLOCK_MONOTONIC*/, (long)&Ts, 0,
                0, 0, 0);
  return (uint64_t)Ts.Sec * 1000000000ull + (uint64_t)Ts.Nsec;
}

static uint64_t svcGlobalTimer(void *Rt) {
  (void)Rt;
  struct {
    long Sec, Nsec;
  } Ts = {0, 0};
  rvmc_syscall6(RVMC_SYS_CLOCK_GETTIME, 0 /*CLOCK_REALTIME*/, (long)&Ts, 0, 0,
                0, 0);
  return (uint64_t)Ts.Sec * 1000000000ull + (uint64_t)Ts.Nsec;
}

// ---- The block loop ---------------------------------------------------------

static void runBlock(rvmc_launch *L, CoreState *CS, hetgpu_block_ctx *Ctx,
                     hetgpu_block_fn Fn, uint64_t B) {
  CS->Block = B;
  uint64_t GX = L->grid[0], GY = L->grid[1];
  Ctx->block_idx[0] = (uint32_t)(B % GX);
  Ctx->block_idx[1] = (uint32_t)((B / GX) % GY);
  Ctx->block_idx[2] = (uint32_t)(B / (GX * GY));
  if (L->state)
    Ctx->state = (void *)(L->state + B * L->state_block_stride);
  Fn((void **)L->args, Ctx);
}

/// Runs this core's share of the blocks of launch \p L; returns how many.
static uint64_t runLaunch(rvmc_launch *L, uint64_t Core) {
  CoreState CS = {L, Core, 0};
  hetgpu_host_services Svc;
  Svc.rt = &CS;
  Svc.printf = svcPrintf;
  Svc.assert_fail = svcAssert;
  Svc.trap = svcTrap;
  Svc.malloc = svcMalloc;
  Svc.free = svcFree;
  Svc.clock64 = svcClock64;
  Svc.globaltimer = svcGlobalTimer;

  hetgpu_block_ctx Ctx;
  for (int I = 0; I < 3; ++I) {
    Ctx.grid_dim[I] = L->grid[I];
    Ctx.block_dim[I] = L->block[I];
    Ctx.block_idx[I] = 0;
  }
  Ctx.reserved0 = 0;
  Ctx.shared = (void *)RVMC_SRAM_BASE;
  Ctx.dynamic_shared_offset = L->dynamic_offset;
  Ctx.dynamic_shared_size = L->dynamic_shared;
  Ctx.services = &Svc;
  Ctx.state = 0;
  Ctx.yield_flag = (volatile uint32_t *)L->yield_flag;

  // Block executor frames use the SRAM after the shared memory, or this
  // core's spill area in DRAM when the host found they do not fit there.
  rvmc_sram_free = (RVMC_SRAM_BASE + L->dynamic_offset + L->dynamic_shared +
                    63) & ~63ull;
  rvmc_spill = L->spill ? L->spill + Core * L->spill_stride : 0;
  rvmc_spill_size = L->spill ? L->spill_stride : 0;
  hetgpu_block_fn Fn = (hetgpu_block_fn)L->block_fn;
  uint64_t Done = 0;
  if (L->sched == RVMC_SCHED_STATIC) {
    for (uint64_t B = L->first[Core]; B < L->end[Core]; ++B) {
      if (__atomic_load_n(&L->abort, __ATOMIC_ACQUIRE))
        break;
      runBlock(L, &CS, &Ctx, Fn, B);
      ++Done;
    }
  } else {
    for (;;) {
      if (__atomic_load_n(&L->abort, __ATOMIC_ACQUIRE))
        break;
      uint64_t B = fetchAdd64(&L->next_block, 1);
      if (B >= L->num_blocks)
        break;
      runBlock(L, &CS, &Ctx, Fn, B);
      ++Done;
    }
  }
  L->blocks_done[Core] = Done;
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  return Done;
}

static int readWord(uint64_t *Out) {
  unsigned char *P = (unsigned char *)Out;
  uint64_t Got = 0;
  while (Got < 8) {
    long R = rvmc_read(RVMC_CTRL_FD, P + Got, 8 - Got);
    if (R == -4 /* EINTR */)
      continue;
    if (R <= 0)
      return 0;
    Got += (uint64_t)R;
  }
  return 1;
}

/// The core's life: run the launch it booted with, report, wait for the next
/// descriptor on the control socket; exit on 0 or end of file. \p DramMapped
/// is how much of DRAM boot mapped; a later launch may need more (the host
/// allocated since), which is mapped from the same file before the core
/// reads its descriptor.
void rvmc_core_main(rvmc_launch *L, uint64_t Core, uint64_t DramMapped)
    __attribute__((visibility("hidden")));
void rvmc_core_main(rvmc_launch *L, uint64_t Core, uint64_t DramMapped) {
  for (;;) {
    uint64_t Done = runLaunch(L, Core);
    if (rvmc_write(RVMC_CTRL_FD, (const char *)&Done, 8) != 8)
      rvmc_exit(RVMC_EXIT_OK); // the host is gone
    uint64_t Next = 0, DramSize = 0;
    if (!readWord(&Next) || Next == 0 || !readWord(&DramSize))
      rvmc_exit(RVMC_EXIT_OK);
    if (DramSize > DramMapped) {
      if (DramSize > RVMC_DRAM_MAX ||
          rvmc_mmap_at(RVMC_DRAM_BASE + DramMapped, DramSize - DramMapped,
                       RVMC_PROT_READ | RVMC_PROT_WRITE | RVMC_PROT_EXEC,
                       RVMC_MAP_SHARED | RVMC_MAP_FIXED, RVMC_DRAM_FD,
                       DramMapped) != (void *)(RVMC_DRAM_BASE + DramMapped)) {
        rvmc_puts(2, "tt-sim core: cannot extend the DRAM mapping\n");
        rvmc_exit(RVMC_EXIT_BOOT);
      }
      DramMapped = DramSize;
    }
    if (Next < RVMC_DRAM_BASE ||
        Next + sizeof(rvmc_launch) > RVMC_DRAM_BASE + DramMapped) {
      rvmc_puts(2, "tt-sim core: launch descriptor outside mapped DRAM\n");
      rvmc_exit(RVMC_EXIT_BOOT);
    }
    L = (rvmc_launch *)Next;
    if (L->abi_version != RVMC_ABI_VERSION) {
      rvmc_puts(2, "tt-sim core: launch descriptor of another ABI version\n");
      rvmc_exit(RVMC_EXIT_ABI);
    }
  }
}
