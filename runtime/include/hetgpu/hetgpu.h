/*===- hetgpu.h - hetGPU's own C API ---------------------------------------===*\
 * SPDX-License-Identifier: Apache-2.0
 *===----------------------------------------------------------------------===*
 *
 * \file
 * What CUDA's API cannot say: which backend and lowering target a device
 * uses, which backends were not found and why, where the JIT cache is.
 * Device numbers are those of the CUDA API (cudaSetDevice). Functions return
 * 0 on success, non-zero (a cudaError_t value) on failure. Strings stay
 * valid for the life of the process.
 *
\*===----------------------------------------------------------------------===*/

#ifndef HETGPU_HETGPU_H
#define HETGPU_HETGPU_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Version of libhetgpu-rt, e.g. "hetGPU 0.1 (CUDA runtime API 12.8)". */
const char *hetgpuGetVersion(void);

/** Number of backends libhetgpu-rt knows (built or not). */
int hetgpuGetBackendCount(void);
/** Backend \p index: its name ("cpu", "nvidia", ...), whether it is built,
 *  whether it was probed, how many devices it found and, when it found
 *  none, the reason. Any out pointer may be NULL. */
int hetgpuGetBackendInfo(int index, const char **name, int *built,
                         int *probed, int *numDevices, const char **status);

/** The version of the driver or library backend \p index found ("CUDA
 *  driver 12.8 (libcuda.so.1)"), or NULL when it found none or does not
 *  know it. */
const char *hetgpuGetBackendVersion(int index);

/** Backend name, lowering target ("host", "nvptx", ...) and processor of
 *  device \p device. Any out pointer may be NULL. */
int hetgpuGetDeviceInfo(int device, const char **backend, const char **target,
                        const char **arch);

/** The JIT cache directory (HETGPU_CACHE_DIR, $XDG_CACHE_HOME/hetgpu or
 *  ~/.cache/hetgpu). */
const char *hetgpuGetCacheDir(void);
/** The translator library a cache miss loads. */
const char *hetgpuGetTranslatorPath(void);
/** 1 when the translator library has been loaded in this process. */
int hetgpuTranslatorLoaded(void);

/** Fills the JIT cache with what device \p device would translate of the
 *  hetGPU container at \p data (\p size bytes) when it first launches its
 *  kernels: each module whole, or in kernel groups where the runtime would
 *  translate groups (HETGPU_KERNEL_GROUP); a module with an embedded image
 *  for the device uses the image (finalised and cached where the device has
 *  a finalisation step). Counts modules or groups found in the cache, made
 *  from images and translated (any pointer may be NULL). On failure
 *  returns a cudaError_t and \p why (if not NULL) says what failed (valid
 *  until the next call). hetgpu-precompile calls it. */
int hetgpuPrecompile(int device, const void *data, size_t size,
                     unsigned *cached, unsigned *images, unsigned *translated,
                     const char **why);

/*===--- Live migration (docs/Migration.md; the migration work's block) ---===*/
/** 1 when launches are migratable (HETGPU_MIGRATE set and valid). */
int hetgpuMigrationEnabled(void);
/** Counters since process start: migratable launches, suspensions, bytes
 *  moved and time spent checkpointing/restoring. Any pointer may be NULL. */
void hetgpuMigrationGetStats(unsigned long long *launches,
                             unsigned long long *migrations,
                             unsigned long long *bytesMoved,
                             double *checkpointMs, double *restoreMs);
/** Checks a checkpoint file (format version, size, checksum): 0 when it is
 *  valid, -1 otherwise with the reason in *why (valid until the next call;
 *  why may be NULL). */
int hetgpuCheckpointValidate(const char *path, const char **why);

/* The calls below need a migratable process: HETGPU_MIGRATE set (e.g.
 * HETGPU_MIGRATE=on: kernels are translated with safe points, nothing
 * triggers by itself). `target` names a device as HETGPU_DEVICE does: a
 * backend ("cpu", "opencl", "tt-sim", "nvidia", ...) or a device index;
 * backends that HETGPU_DEVICE left out are found when HETGPU_MIGRATE's to=
 * names them. Device memory keeps its addresses on every device (one
 * address layout: docs/Migration.md), so pointers stored in device memory
 * stay valid. They return 0 or a cudaError_t value; the reason is in
 * hetgpuMigrationLastError(). */

/** Moves CUDA device `device` onto device `target`: its allocations,
 *  `__device__` variables (modules are translated for the target), streams
 *  and events; later work of the program runs there, under the same device
 *  number. A launch running on it in another host thread is suspended at
 *  its next safe point and resumed on the target before this returns;
 *  queued work finishes on the old device first. */
int hetgpuMigrateDevice(int device, const char *target);
/** Writes a checkpoint of the work of `stream` (a cudaStream_t; NULL: the
 *  default stream) to `path`: the launch running on it in another host
 *  thread, suspended at its next safe point (it then carries on), or, when
 *  nothing runs, the memory of the stream's device alone. */
int hetgpuCheckpoint(void *stream, const char *path);
/** The same into a malloc'ed buffer (*buffer, *size; the caller frees it). */
int hetgpuCheckpointToBuffer(void *stream, void **buffer, size_t *size);
/** Restores a checkpoint on device `target` (NULL: where its device is
 *  now). The image is checked first (version, size, checksum; every
 *  allocation it holds is live with the same size; its kernel is
 *  registered): a refused image changes nothing. Then the device moves to
 *  `target`, its memory is written back and a suspended launch in the image
 *  resumes there and runs to completion before this returns. */
int hetgpuRestore(const char *path, const char *target);
int hetgpuRestoreFromBuffer(const void *buffer, size_t size,
                            const char *target);
/** Why the last migration call of this thread failed ("" after success). */
const char *hetgpuMigrationLastError(void);

#ifdef __cplusplus
}
#endif

#endif /* HETGPU_HETGPU_H */
