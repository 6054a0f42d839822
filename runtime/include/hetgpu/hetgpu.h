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

#ifdef __cplusplus
}
#endif

#endif /* HETGPU_HETGPU_H */
