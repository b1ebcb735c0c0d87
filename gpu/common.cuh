// Shared helpers of the gpu/ benchmarks: error checks.
#ifndef GPU_COMMON_CUH
#define GPU_COMMON_CUH
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                   \
    do {                                                                              \
        cudaError_t err_ = (call);                                                    \
        if (err_ != cudaSuccess) {                                                    \
            std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,        \
                         cudaGetErrorString(err_));                                   \
            std::exit(1);                                                             \
        }                                                                             \
    } while (0)

#define CHECK_LAUNCH() CHECK(cudaGetLastError())

#endif
