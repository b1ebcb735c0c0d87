// The latency/throughput regression of the measurement report, T = C1 * i * w * c + C2, on this
// GPU: one block of w warps; each warp issues i independent 4-byte shared loads with congestion c
// (c threads read distinct words of bank 0, the others one word each of banks 1..31) between two
// clock64 reads; T is the last warp's end minus the first warp's start, in SM cycles, the median
// of 11 launches after a warm-up.
// Usage: latency <csv out>
#include "common.cuh"
#include <algorithm>
#include <vector>

template <int I>
__global__ void lat(int cong, long long *times, float *sink)
{
    __shared__ float s[1024];
    for (unsigned int k = threadIdx.x; k < 1024u; k += blockDim.x) s[k] = (float)k;
    __syncthreads();
    const unsigned int lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    const unsigned int addr = lane < (unsigned int)cong ? lane * 32u : lane * 33u;
    volatile float *vs = s;
    float v[I];
    __syncthreads();
    const long long t0 = clock64();
#pragma unroll
    for (int k = 0; k < I; ++k) v[k] = vs[addr];
    float acc = 0.0f;
#pragma unroll
    for (int k = 0; k < I; ++k) acc += v[k];
    long long t1;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t1) : "f"(acc) : "memory");
    if (lane == 0) {
        times[2 * warp] = t0;
        times[2 * warp + 1] = t1;
    }
    sink[threadIdx.x] = acc;
}

static void launch(int i, int warps, int cong, long long *times, float *sink)
{
    switch (i) {
    case 1: lat<1><<<1, 32 * warps>>>(cong, times, sink); break;
    case 2: lat<2><<<1, 32 * warps>>>(cong, times, sink); break;
    case 4: lat<4><<<1, 32 * warps>>>(cong, times, sink); break;
    case 8: lat<8><<<1, 32 * warps>>>(cong, times, sink); break;
    case 16: lat<16><<<1, 32 * warps>>>(cong, times, sink); break;
    default: lat<32><<<1, 32 * warps>>>(cong, times, sink); break;
    }
    CHECK_LAUNCH();
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
    std::fprintf(csv, "i,w,c,cycles\n");
    const int values[6] = {1, 2, 4, 8, 16, 32};
    for (int a = 0; a < 6; ++a)
        for (int b = 0; b < 6; ++b)
            for (int d = 0; d < 6; ++d) {
                const int i = values[a], warps = values[b], cong = values[d];
                std::vector<long long> t;
                for (int r = 0; r < 12; ++r) {
                    launch(i, warps, cong, d_times, d_sink);
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
                std::fprintf(csv, "%d,%d,%d,%lld\n", i, warps, cong, t[t.size() / 2]);
            }
    std::fclose(csv);
    std::printf("latency: 216 points written\n");
    CHECK(cudaFree(d_times));
    CHECK(cudaFree(d_sink));
    return 0;
}
