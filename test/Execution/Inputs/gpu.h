// gpu.h - helpers of the GPU execution tests: every failure prints a line
// starting with FAIL (which the CHECK-NOT lines catch) and exits non-zero.
#include <cstdio>
#include <cstdlib>

#define CK(call)                                                               \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      std::printf("FAIL %s:%d: %s: %s (%s)\n", __FILE__, __LINE__, #call,      \
                  cudaGetErrorName(err_), cudaGetErrorString(err_));           \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

#define EXPECT(cond, ...)                                                      \
  do {                                                                         \
    if (!(cond)) {                                                             \
      std::printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);              \
      std::printf(__VA_ARGS__);                                                \
      std::printf("\n");                                                       \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

/// Prints the device the runtime picked, so logs show where a test ran.
static inline void printDevice() {
  int d = 0;
  cudaDeviceProp p;
  CK(cudaGetDevice(&d));
  CK(cudaGetDeviceProperties(&p, d));
  std::printf("device: %s (cc %d.%d)\n", p.name, p.major, p.minor);
}
