/*===- Translate.h - C entry point of the hetIR translator library -------===*\
 * SPDX-License-Identifier: Apache-2.0
 *===----------------------------------------------------------------------===*
 *
 * \file
 * The runtime loads libhetgpu-translate with dlopen only when a translation
 * is missing from the JIT cache, and calls the one function below. This
 * header is plain C and includes no LLVM, so LLVM never leaks into the
 * runtime (the AdaptiveCpp pattern).
 *
\*===----------------------------------------------------------------------===*/

#ifndef HETGPU_TRANSLATE_TRANSLATE_H
#define HETGPU_TRANSLATE_TRANSLATE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Bumped whenever the translator's output may change for the same input:
 *  part of every JIT cache key. */
#define HETGPU_TRANSLATOR_ABI_VERSION 5u

enum hetgpu_translate_flags {
  /** Insert checkpoint/restore code at safe points (live migration). */
  HETGPU_TRANSLATE_INSTRUMENT = 1u << 0,
  /** Translate only the kernels named by `kernels` (ABI version 2). */
  HETGPU_TRANSLATE_SOME_KERNELS = 1u << 1,
  /** Compare `tables` (container::writeTables of the module the runtime
   *  launches with) with the IR's kernel metadata and refuse the
   *  translation when they differ (ABI version 3). */
  HETGPU_TRANSLATE_CHECK_TABLES = 1u << 2,
  /** Check every global and shared access (hetgpu-instrument-memcheck,
   *  HETGPU_MEMCHECK; ABI version 4). */
  HETGPU_TRANSLATE_MEMCHECK = 1u << 3,
};

typedef struct hetgpu_translate_request {
  const char *target;   /**< Targets.def name: "host", "nvptx", "spirv", ... */
  const char *arch;     /**< "sm_90", "gfx942", ...; NULL or "" = default */
  const char *features; /**< target features; NULL or "" = none */
  const void *ir;       /**< hetIR bitcode */
  size_t ir_size;
  unsigned opt_level; /**< 0..3 */
  unsigned flags;     /**< hetgpu_translate_flags */
  /** With HETGPU_TRANSLATE_SOME_KERNELS: the kernels' symbol names
   *  (version 2; read only when that flag is set, so requests of version 1
   *  callers stay valid). */
  const char *const *kernels;
  size_t num_kernels;
  /** With HETGPU_TRANSLATE_CHECK_TABLES (version 3). */
  const void *tables;
  size_t tables_size;
} hetgpu_translate_request;

typedef struct hetgpu_translate_result {
  void *data;  /**< native binary (malloc'ed), NULL on failure */
  size_t size;
  char *error; /**< malloc'ed message naming the kernel/construct, or NULL */
} hetgpu_translate_result;

/** Returns 0 on success; otherwise non-zero and result->error is set. */
int hetgpu_translate(const hetgpu_translate_request *request,
                     hetgpu_translate_result *result);
/** Releases data and error of a result. */
void hetgpu_translate_dispose(hetgpu_translate_result *result);
/** The translator's version string (LLVM version included). */
const char *hetgpu_translate_version(void);

/** One component of a fusion (graph coalescing, docs/Graphs.md): a kernel
 *  of a hetIR module and its launch geometry. Components whose `ir` is the
 *  same pointer share one copy of the module. */
typedef struct hetgpu_fuse_component {
  const void *ir; /**< hetIR bitcode of the kernel's module */
  size_t ir_size;
  const char *kernel; /**< the kernel's symbol name */
  uint32_t grid[3];
  uint32_t block[3];
} hetgpu_fuse_component;

typedef struct hetgpu_fuse_request {
  const hetgpu_fuse_component *components;
  size_t num_components;
  const char *fused_name; /**< the fused kernel's symbol name */
  /** Out: the index of the component refused, -1 when the fusion failed
   *  as a whole (or succeeded). */
  long *refused_component;
} hetgpu_fuse_request;

/** Fuses the components into one kernel that dispatches on the block index
 *  (hetgpu/Transforms/FuseKernels.h). On success result->data is a
 *  container (container::write) of one module holding the fused kernel
 *  alone; otherwise non-zero and result->error says which component was
 *  refused and why. Release the result with hetgpu_translate_dispose. */
int hetgpu_fuse(const hetgpu_fuse_request *request,
                hetgpu_translate_result *result);

typedef int (*hetgpu_translate_fn)(const hetgpu_translate_request *,
                                   hetgpu_translate_result *);
typedef void (*hetgpu_translate_dispose_fn)(hetgpu_translate_result *);
typedef int (*hetgpu_fuse_fn)(const hetgpu_fuse_request *,
                              hetgpu_translate_result *);

#ifdef __cplusplus
}
#endif

#endif /* HETGPU_TRANSLATE_TRANSLATE_H */
