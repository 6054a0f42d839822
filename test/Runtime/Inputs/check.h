// check.h - helpers of the runtime's end-to-end tests.
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      std::printf("FAIL %s:%d: %s: %s (%s)\n", __FILE__, __LINE__, #call,      \
                  cudaGetErrorName(err_), cudaGetErrorString(err_));           \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

#define EXPECT_ERR(call, expected)                                             \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != (expected)) {                                                  \
      std::printf("FAIL %s:%d: %s gave %s, expected %s\n", __FILE__, __LINE__, \
                  #call, cudaGetErrorName(err_), cudaGetErrorName(expected));  \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

#define EXPECT_TRUE(cond)                                                      \
  do {                                                                         \
    if (!(cond)) {                                                             \
      std::printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);              \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)
