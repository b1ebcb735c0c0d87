// The latency/throughput regression of the measurement report, T = C1 * i * w * c + C2, on this
// GPU: one block of w warps; each warp issues i independent shared loads of 4-byte (float) or
// 8-byte (double) words between two clock64 reads. Threads below c read distinct words of the
// first bank (4-byte: word 32 * lane; 8-byte: word 16 * lane, banks 0 and 1), the others word
// 33 * lane (4-byte: bank lane) or 17 * lane (8-byte: banks 2 * lane and 2 * lane + 1 mod 32).
// For 4-byte words the congestion is c; for 8-byte words the model (models::congestion,
// LoadGroups) says what it is, half-warps served apart. T is the last warp's end minus the first
// warp's start, in SM cycles, the median of 11 launches after a warm-up.
// Usage: latency <csv out>
#include "common.cuh"
#include <algorithm>
#include <vector>

template <typename T, int I>
__global__ void lat(int cong, long long *times, float *sink)
{
    // 1024 words (4 KB of floats, 8 KB of doubles): word 33 * 31 = 1023 is the largest read.
    constexpr unsigned int words = 1024u;
    __shared__ T s[words];
    for (unsigned int k = threadIdx.x; k < words; k += blockDim.x) s[k] = (T)k;
    __syncthreads();
    const unsigned int lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    const bool wide = sizeof(T) == 8;
    const unsigned int addr = lane < (unsigned int)cong ? lane * (wide ? 16u : 32u)
                                                        : lane * (wide ? 17u : 33u);
    volatile T *vs = s;
    T v[I];
    __syncthreads();
    const long long t0 = clock64();
#pragma unroll
    for (int k = 0; k < I; ++k) v[k] = vs[addr];
    T sum = 0;
#pragma unroll
    for (int k = 0; k < I; ++k) sum += v[k];
    const float acc = (float)sum;
    long long t1;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t1) : "f"(acc) : "memory");
    if (lane == 0) {
        times[2 * warp] = t0;
        times[2 * warp + 1] = t1;
    }
    sink[threadIdx.x] = acc;
}

template <typename T>
static void launch_t(int i, int warps, int cong, long long *times, float *sink)
{
    switch (i) {
    case 1: lat<T, 1><<<1, 32 * warps>>>(cong, times, sink); break;
    case 2: lat<T, 2><<<1, 32 * warps>>>(cong, times, sink); break;
    case 4: lat<T, 4><<<1, 32 * warps>>>(cong, times, sink); break;
    case 8: lat<T, 8><<<1, 32 * warps>>>(cong, times, sink); break;
    case 16: lat<T, 16><<<1, 32 * warps>>>(cong, times, sink); break;
    default: lat<T, 32><<<1, 32 * warps>>>(cong, times, sink); break;
    }
    CHECK_LAUNCH();
}

static void launch(int bytes, int i, int warps, int cong, long long *times, float *sink)
{
    if (bytes == 8)
        launch_t<double>(i, warps, cong, times, sink);
    else
        launch_t<float>(i, warps, cong, times, sink);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: latency <csv out>\n");
        return 2;
    }
    FILE *csv = std::fopen(argv[1], "w");
    if (!csv) {
        std::perror(argv[1]);
        return 1;
    }
    long long *d_times;
    float *d_sink;
    CHECK(cudaMalloc(&d_times, 64 * sizeof(long long)));
    CHECK(cudaMalloc(&d_sink, 1024 * sizeof(float)));
    std::fprintf(csv, "bytes,i,w,c,cycles\n");
    const int values[6] = {1, 2, 4, 8, 16, 32};
    for (int bytes = 4; bytes <= 8; bytes += 4)
    for (int a = 0; a < 6; ++a)
        for (int b = 0; b < 6; ++b)
            for (int d = 0; d < 6; ++d) {
                const int i = values[a], warps = values[b], cong = values[d];
                std::vector<long long> t;
                for (int r = 0; r < 12; ++r) {
                    launch(bytes, i, warps, cong, d_times, d_sink);
                    long long h[64];
                    CHECK(cudaMemcpy(h, d_times, 2 * warps * sizeof(long long),
                                     cudaMemcpyDeviceToHost));
                    long long start = h[0], end = h[1];
                    for (int k = 1; k < warps; ++k) {
                        start = std::min(start, h[2 * k]);
                        end = std::max(end, h[2 * k + 1]);
                    }
                    if (r > 0) t.push_back(end - start);
                }
                std::sort(t.begin(), t.end());
                std::fprintf(csv, "%d,%d,%d,%d,%lld\n", bytes, i, warps, cong, t[t.size() / 2]);
            }
    std::fclose(csv);
    std::printf("latency: 432 points written (216 per word size)\n");
    CHECK(cudaFree(d_times));
    CHECK(cudaFree(d_sink));
    return 0;
}
