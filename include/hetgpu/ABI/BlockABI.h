/*===- BlockABI.h - ABI between the runtime and translated CPU code ------===*\
 * SPDX-License-Identifier: Apache-2.0
 *===----------------------------------------------------------------------===*
 *
 * \file
 * The host lowering target (lib/Targets/Host) turns a hetIR module into a
 * shared object; the CPU backend (runtime/lib/Backends/CPU) dlopen's it.
 * The RISC-V many-core target uses the same block structure. This header is
 * their whole contract.
 *
 * For every kernel K (symbol name as in the container's kernel table) the
 * shared object exports
 *
 *     void __hetgpu_block_<K>(void **args, hetgpu_block_ctx *ctx);
 *
 * which runs every thread of the block ctx->block_idx. `args` is the array
 * cudaLaunchKernel receives (args[i] points to parameter i's bytes). Static
 * __shared__ variables live at the offsets of the kernel's shared layout
 * (docs/hetIR.md) from ctx->shared; dynamic shared memory starts at
 * ctx->shared + ctx->dynamic_shared_offset. `__device__`/`__constant__`
 * variables are ordinary exported data symbols of the shared object, under
 * their hetIR names.
 *
 * The object also exports `uint32_t __hetgpu_host_abi_version`, equal to
 * HETGPU_HOST_ABI_VERSION.
 *
\*===----------------------------------------------------------------------===*/

#ifndef HETGPU_ABI_BLOCKABI_H
#define HETGPU_ABI_BLOCKABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HETGPU_HOST_ABI_VERSION 1u

/* Services the runtime gives translated code. The noreturn ones leave the
 * block (the runtime longjmp's back to its worker) after recording the
 * error for the launch. */
typedef struct hetgpu_host_services {
  void *rt; /* passed back as the first argument of every service */
  int (*printf)(void *rt, const char *format, const void *args);
  void (*assert_fail)(void *rt, const char *message, const char *file,
                      uint32_t line, const char *function); /* noreturn */
  void (*trap)(void *rt);                                   /* noreturn */
  void *(*malloc)(void *rt, uint64_t size);
  void (*free)(void *rt, void *ptr);
  uint64_t (*clock64)(void *rt);
  uint64_t (*globaltimer)(void *rt); /* nanoseconds */
} hetgpu_host_services;

typedef struct hetgpu_block_ctx {
  uint32_t grid_dim[3];
  uint32_t block_dim[3];
  uint32_t block_idx[3];
  uint32_t reserved0;
  /* This block's shared memory: static part, then dynamic part. */
  void *shared;
  uint64_t dynamic_shared_offset;
  uint64_t dynamic_shared_size;
  const hetgpu_host_services *services;
  /* Live migration (docs/StateMetadata.md): this block's state area and
   * the launch's yield flag; NULL when the launch is not migratable. */
  void *state;
  volatile uint32_t *yield_flag;
} hetgpu_block_ctx;

typedef void (*hetgpu_block_fn)(void **args, hetgpu_block_ctx *ctx);

#ifdef __cplusplus
}
#endif

#endif /* HETGPU_ABI_BLOCKABI_H */
