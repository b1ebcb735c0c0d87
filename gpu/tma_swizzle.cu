// What TMA's swizzle modes do on silicon: a 2-D tensor of 16-bit elements whose values are their
// own row-major indices is loaded by one cp.async.bulk.tensor (TMA) box into shared memory, first
// filled with 0xffff, with each swizzle mode, and the shared memory is copied out as it lies:
// rows x max(span, row bytes) bytes. Each output line is one case: "<name> <swizzle bytes> <rows>
// <cols> <value at shared element 0> <value at 1> ...", so the value at shared element p is the
// logical element stored there (65535: untouched). The Rust test in models/tests/swizzle_h100.rs
// checks every line against the models' tma:<mode> layout.
// Usage: tma_swizzle <out.txt>   (link with -lcuda)
#include "common.cuh"
#include <cuda.h>
#include <algorithm>
#include <vector>

#define MAX_ELEMS 8192

__global__ void tma_load(const __grid_constant__ CUtensorMap map, unsigned short *out, int elems, int footprint)
{
    __shared__ __align__(1024) unsigned short tile[MAX_ELEMS];
    __shared__ __align__(8) unsigned long long bar;
    const unsigned int smem = (unsigned int)__cvta_generic_to_shared(tile);
    const unsigned int mbar = (unsigned int)__cvta_generic_to_shared(&bar);
    for (int i = threadIdx.x; i < MAX_ELEMS; i += blockDim.x) tile[i] = 0xffff;
    // Order the generic-proxy fill before the async-proxy (TMA) writes.
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(mbar) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(mbar), "r"(elems * 2)
                     : "memory");
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3}], [%4];" ::"r"(smem),
                     "l"(reinterpret_cast<unsigned long long>(&map)), "r"(0), "r"(0), "r"(mbar)
                     : "memory");
    }
    // Labels inside { } are local to the block, as in CUTLASS's ClusterBarrier::wait.
    asm volatile("{\n .reg .pred p;\n LAB_WAIT:\n"
                 " mbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0;\n"
                 " @p bra DONE;\n bra LAB_WAIT;\n DONE:\n}" ::"r"(mbar)
                 : "memory");
    for (int i = threadIdx.x; i < footprint; i += blockDim.x) out[i] = tile[i];
}

struct Case {
    const char *name;
    CUtensorMapSwizzle swizzle;
    int span, rows, cols;
};

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: tma_swizzle <out.txt>\n");
        return 2;
    }
    CHECK(cudaFree(0)); // create the context the driver API calls use
    const Case cases[] = {
        {"none-128B-rows", CU_TENSOR_MAP_SWIZZLE_NONE, 0, 64, 64},
        {"32B-32B-rows", CU_TENSOR_MAP_SWIZZLE_32B, 32, 64, 16},
        {"64B-64B-rows", CU_TENSOR_MAP_SWIZZLE_64B, 64, 64, 32},
        {"128B-128B-rows", CU_TENSOR_MAP_SWIZZLE_128B, 128, 64, 64},
        {"64B-32B-rows", CU_TENSOR_MAP_SWIZZLE_64B, 64, 128, 16},
        {"128B-64B-rows", CU_TENSOR_MAP_SWIZZLE_128B, 128, 64, 32},
        {"128B-32B-rows", CU_TENSOR_MAP_SWIZZLE_128B, 128, 128, 16},
    };
    FILE *f = std::fopen(argv[1], "w");
    if (!f) {
        std::perror(argv[1]);
        return 1;
    }
    unsigned short *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, MAX_ELEMS * sizeof(unsigned short)));
    CHECK(cudaMalloc(&d_out, MAX_ELEMS * sizeof(unsigned short)));
    for (const Case &c : cases) {
        const int elems = c.rows * c.cols;
        const int footprint = c.rows * std::max(c.span / 2, c.cols);
        std::vector<unsigned short> host(elems), back(footprint, 0xffff);
        for (int i = 0; i < elems; ++i) host[i] = (unsigned short)i;
        CHECK(cudaMemcpy(d_in, host.data(), elems * 2, cudaMemcpyHostToDevice));
        CHECK(cudaMemset(d_out, 0xff, MAX_ELEMS * sizeof(unsigned short)));
        CUtensorMap map;
        cuuint64_t dims[2] = {(cuuint64_t)c.cols, (cuuint64_t)c.rows};
        cuuint64_t strides[1] = {(cuuint64_t)c.cols * 2};
        cuuint32_t box[2] = {(cuuint32_t)c.cols, (cuuint32_t)c.rows};
        cuuint32_t estrides[2] = {1, 1};
        CHECK_CU(cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_UINT16, 2, d_in, dims, strides, box,
                                        estrides, CU_TENSOR_MAP_INTERLEAVE_NONE, c.swizzle,
                                        CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
        tma_load<<<1, 128>>>(map, d_out, elems, footprint);
        CHECK_LAUNCH();
        CHECK(cudaDeviceSynchronize());
        CHECK(cudaMemcpy(back.data(), d_out, footprint * 2, cudaMemcpyDeviceToHost));
        std::fprintf(f, "%s %d %d %d", c.name, c.span, c.rows, c.cols);
        for (int i = 0; i < footprint; ++i) std::fprintf(f, " %u", back[i]);
        std::fprintf(f, "\n");
        std::printf("tma_swizzle: %s done\n", c.name);
    }
    std::fclose(f);
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    return 0;
}
