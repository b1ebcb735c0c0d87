// Triton issue #8149 in CUDA: the Gluon async-copy tutorial's 1-D memcpy. Each block of 128
// threads copies XBLOCK = 8192 floats: cp.async (4 bytes per thread, masked by the element
// count, zero-filled beyond it) into an unswizzled shared array, wait, then each thread reads
// elements t, t + 128, ... back (ld.shared, 32 consecutive floats per warp access) and stores
// them to global memory: the SASS pattern of `memcpy_1d_cpasync_kernel` with
// BlockedLayout([1], [32], [4], [0]) and SwizzledSharedLayout(vec=1, per_phase=1, max_phase=1).
// Nsight Compute profiles one launch per element count; the result is checked on the host.
// Usage: cpasync_copy <log2 n> [<log2 n> ...]
#include "common.cuh"
#include <algorithm>
#include <cstdlib>
#include <vector>

#define XBLOCK 8192
#define THREADS 128

__global__ void swz_cpasync_copy(const float *in, float *out, long long n)
{
    __shared__ __align__(16) float s[XBLOCK];
    const long long base = (long long)blockIdx.x * XBLOCK;
    for (int i = threadIdx.x; i < XBLOCK; i += THREADS) {
        const long long x = base + i;
        const unsigned int dst = (unsigned int)__cvta_generic_to_shared(&s[i]);
        const int bytes = x < n ? 4 : 0;
        const float *src = in + (x < n ? x : 0);
        asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(dst), "l"(src), "r"(bytes)
                     : "memory");
    }
    asm volatile("cp.async.commit_group;" ::: "memory");
    asm volatile("cp.async.wait_group 0;" ::: "memory");
    __syncthreads();
    for (int i = threadIdx.x; i < XBLOCK; i += THREADS) {
        const long long x = base + i;
        if (x < n) out[x] = s[i];
    }
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: cpasync_copy <log2 n> ...\n");
        return 2;
    }
    for (int a = 1; a < argc; ++a) {
        const long long n = 1LL << std::atoi(argv[a]);
        float *d_in, *d_out;
        CHECK(cudaMalloc(&d_in, n * sizeof(float)));
        CHECK(cudaMalloc(&d_out, n * sizeof(float)));
        std::vector<float> sample(1 << 16);
        for (size_t i = 0; i < sample.size(); ++i) sample[i] = (float)(i * 7 % 1000) + 0.5f;
        for (long long off = 0; off < n; off += (long long)sample.size())
            CHECK(cudaMemcpy(d_in + off, sample.data(),
                             std::min<long long>(sample.size(), n - off) * sizeof(float),
                             cudaMemcpyHostToDevice));
        const long long blocks = (n + XBLOCK - 1) / XBLOCK;
        swz_cpasync_copy<<<(unsigned int)blocks, THREADS>>>(d_in, d_out, n);
        CHECK_LAUNCH();
        CHECK(cudaDeviceSynchronize());
        // The last 2^16 elements (or all of them) against the input's repeating sample.
        const long long count = std::min<long long>((long long)sample.size(), n);
        const long long first = n - count;
        std::vector<float> tail(count);
        CHECK(cudaMemcpy(tail.data(), d_out + first, count * sizeof(float), cudaMemcpyDeviceToHost));
        int bad = 0;
        for (long long i = 0; i < count; ++i) bad += tail[i] != sample[(first + i) % sample.size()];
        std::printf("cpasync_copy: n = 2^%s, %lld blocks, last %lld elements %s\n", argv[a], blocks,
                    count, bad ? "WRONG" : "copied");
        CHECK(cudaFree(d_in));
        CHECK(cudaFree(d_out));
        if (bad) return 1;
    }
    return 0;
}
