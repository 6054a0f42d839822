/*===- RVManycore.h - Contract between tt-sim and the RISC-V device runtime ===*\
 * SPDX-License-Identifier: Apache-2.0
 *===----------------------------------------------------------------------===*
 *
 * \file
 * The RISC-V many-core target (lib/Targets/RVManycore) links every kernel
 * module with the device runtime of this folder into one static-PIE ELF.
 * The tt-sim backend (runtime/lib/Backends/TTSim) loads that ELF twice:
 *
 *  1. relocated into device DRAM at an image base it chooses (code, data and
 *     `__device__` variables are then shared by every core and the host, at
 *     the same address everywhere), and
 *  2. as the program each core process runs under qemu-riscv64. That private
 *     copy only boots: it maps the DRAM file (fd RVMC_DRAM_FD) at
 *     RVMC_DRAM_BASE, maps the core's SRAM and stack, and jumps into the DRAM
 *     copy (rvmc_core_main), which runs the blocks of the launch.
 *
 * Core command line: `<image> <launch descriptor address, hex> <core id>
 * <DRAM size, hex>`. The core runs that first launch, then stays: cores are
 * persistent across launches. After each launch it writes one 8-byte word
 * (the blocks it ran) to its control socket (fd RVMC_CTRL_FD) and blocks
 * reading the next two 8-byte words from it: the DRAM address of the next
 * launch descriptor (0, or end of file when the host closed the socket or
 * died: exit) and the bytes of DRAM from RVMC_DRAM_BASE that launch may
 * touch (the core maps what it has not mapped yet before reading the
 * descriptor, which may itself lie in newly allocated DRAM). A launch that
 * aborts (assert, trap) ends the core process.
 *
 * This header is plain C, shared by the freestanding device runtime and the
 * host backend: it must stay free of host and LLVM headers.
 *
\*===----------------------------------------------------------------------===*/

#ifndef HETGPU_ABI_RVMANYCORE_H
#define HETGPU_ABI_RVMANYCORE_H

#include <stdint.h>

#define RVMC_ABI_VERSION 2u

/* Address map of a core (guest virtual addresses). */
#define RVMC_DRAM_BASE 0x1000000000ull   /* shared device DRAM (64 GiB) */
#define RVMC_DRAM_MAX 0x1000000000ull    /* largest DRAM window */
#define RVMC_SRAM_BASE 0x08000000ull     /* core-local SRAM (L1) */
#define RVMC_SRAM_SIZE (1536ull * 1024)  /* 1.5 MiB, as a Tensix core's L1 */
#define RVMC_STACK_BASE 0x09000000ull    /* core stack (guard page below) */
#define RVMC_STACK_SIZE (8ull << 20)
/* Core-private scratch: the thread-local block, then a bump heap for the
 * block executor's frames when they do not fit in SRAM. Sparse. */
#define RVMC_PRIV_BASE 0x0A000000ull
#define RVMC_PRIV_SIZE (256ull << 20)
#define RVMC_TLS_MAX (64ull << 10) /* TLS block at RVMC_PRIV_BASE */
/* File descriptors of every core process: the DRAM file, the image it
 * booted from, and the control socket to the host. */
#define RVMC_DRAM_FD 3
#define RVMC_IMAGE_FD 4
#define RVMC_CTRL_FD 5

/* Exit codes of a core process. */
enum rvmc_exit {
  RVMC_EXIT_OK = 0,
  RVMC_EXIT_BOOT = 10,   /* bad arguments or a mapping failed */
  RVMC_EXIT_ABORT = 11,  /* the launch was aborted (assert/trap/error) */
  RVMC_EXIT_ABI = 12,    /* descriptor of another ABI version */
};

/* Why a launch failed (rvmc_launch.error_kind); the first error wins. */
enum rvmc_error {
  RVMC_ERR_NONE = 0,
  RVMC_ERR_ASSERT = 1,
  RVMC_ERR_TRAP = 2,
  RVMC_ERR_HEAP = 3, /* device malloc found the heap exhausted: not fatal */
};

#define RVMC_ERROR_TEXT 512

/* Block scheduling policies. */
enum rvmc_sched {
  RVMC_SCHED_DYNAMIC = 0, /* cores take the next block from an atomic counter */
  RVMC_SCHED_STATIC = 1,  /* core c runs blocks [first[c], end[c]) */
};

#define RVMC_MAX_CORES 256

/* Device heap for `__hetgpu_malloc`: a bump allocator in DRAM. */
typedef struct rvmc_heap {
  uint64_t base;
  uint64_t size;
  uint64_t next; /* bytes handed out so far (atomic) */
} rvmc_heap;

/* printf ring: records are appended after an atomic reservation and read by
 * the host once every core has exited. */
typedef struct rvmc_ring {
  uint64_t data;     /* DRAM address of the record area */
  uint64_t capacity; /* bytes */
  uint64_t head;     /* bytes reserved so far (atomic) */
  uint32_t dropped;  /* records that did not fit (atomic) */
  uint32_t reserved;
} rvmc_ring;

/* One printf record, 8-byte aligned, followed by the format (NUL
 * terminated), padding to 8, `args_len` bytes of the CUDA vprintf argument
 * buffer (each %s argument replaced by the byte offset of its copy in the
 * string area, or ~0 for a null pointer) and the string area. */
typedef struct rvmc_printf_rec {
  uint32_t size; /* whole record, multiple of 8 */
  uint32_t core;
  uint32_t fmt_len;  /* without the NUL */
  uint32_t args_len; /* argument buffer bytes */
  uint32_t str_len;  /* string area bytes */
  uint32_t block;    /* linear block index of the caller */
} rvmc_printf_rec;

/* The launch descriptor, written by the host into DRAM. */
typedef struct rvmc_launch {
  uint32_t abi_version;
  uint32_t num_cores;
  uint64_t image_base;   /* DRAM address of the image's virtual address 0 */
  uint64_t block_fn;     /* DRAM address of __hetgpu_block_<kernel> */
  uint64_t args;         /* DRAM address of the void *args[] array */
  uint32_t grid[3];
  uint32_t block[3];
  uint64_t num_blocks;
  uint64_t static_shared;  /* bytes at the start of SRAM */
  uint64_t dynamic_offset; /* dynamic shared starts at SRAM + this */
  uint64_t dynamic_shared;
  uint32_t sched; /* rvmc_sched */
  uint32_t pad0;
  uint64_t next_block; /* dynamic scheduling counter (atomic) */
  uint64_t heap;       /* DRAM address of an rvmc_heap, or 0 */
  uint64_t ring;       /* DRAM address of an rvmc_ring, or 0 */
  uint64_t state;      /* live migration state buffer, or 0 */
  uint64_t state_block_stride; /* bytes of one block's state */
  uint64_t yield_flag; /* DRAM address of the yield flag, or 0 */
  /* Thread-local storage template of the image (PT_TLS), in DRAM. */
  uint64_t tls_image;
  uint64_t tls_filesz;
  uint64_t tls_memsz;
  uint64_t tls_align;
  /* Per-core spill area in DRAM for the block executor's thread states and
   * frames when they do not fit in SRAM after the shared memory: core c uses
   * [spill + c * spill_stride, + spill_stride). 0 when they fit in SRAM. */
  uint64_t spill;
  uint64_t spill_stride;
  uint32_t abort;      /* set when a core failed: others stop (atomic) */
  uint32_t error_kind; /* rvmc_error of the first failure (atomic) */
  uint32_t error_core;
  uint32_t error_block;
  char error_text[RVMC_ERROR_TEXT];
  /* Per core: static block range and what the core did. */
  uint64_t first[RVMC_MAX_CORES];
  uint64_t end[RVMC_MAX_CORES];
  uint64_t blocks_done[RVMC_MAX_CORES];
  uint32_t booted[RVMC_MAX_CORES];
} rvmc_launch;

#endif /* HETGPU_ABI_RVMANYCORE_H */
