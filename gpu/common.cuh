// Shared helpers of the gpu/ benchmarks: error checks (CHECK_CU for driver API calls, which
// need -lcuda).
#ifndef GPU_COMMON_CUH
#define GPU_COMMON_CUH
#include <cstdio>
#include <cstdlib>
#include <cuda.h>

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

#define CHECK_CU(call)                                                                        \
    do {                                                                                      \
        CUresult r_ = (call);                                                                 \
        if (r_ != CUDA_SUCCESS) {                                                             \
            const char *msg_ = nullptr;                                                       \
            cuGetErrorString(r_, &msg_);                                                      \
            std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, msg_);        \
            std::exit(1);                                                                     \
        }                                                                                     \
    } while (0)

#endif
