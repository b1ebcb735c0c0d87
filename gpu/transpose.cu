// The RAP paper's Table III on this GPU: CRSW, SRCW and DRDW transposes of a 32 x 32 tile in
// shared memory, float and double, under RAW, RAS, RAP, RAP-wide, padding (+1 column) and the XOR
// swizzle col ^ row. One block of 1024 threads per SM transposes its tile back and forth; the
// time per transpose is the difference of two repetition counts over the transposes added, the
// median of several launches. Every run is checked against the host's transpose first.
// Usage: transpose <csv out>
#include "common.cuh"
#include "rap_w32.h"
#include "ras_w32.h"
#include "rap_wide_w32.h"
#include <algorithm>
#include <vector>

enum { RAW, RAS, RAP, RAPW, PAD, XOR, LAYOUTS };
enum { CRSW, SRCW, DRDW, ALGS };
static const char *layout_name[LAYOUTS] = {"raw", "ras", "rap", "rap-wide", "pad", "xor"};
static const char *alg_name[ALGS] = {"CRSW", "SRCW", "DRDW"};

template <int L>
__device__ __forceinline__ unsigned int phys(unsigned int r, unsigned int c)
{
    if (L == RAW) return r * 32u + c;
    if (L == RAS) return ras_w32_index(r, c);
    if (L == RAP) return rap_w32_index(r, c);
    if (L == RAPW) return rap_wide_w32_index(r, c);
    if (L == PAD) return r * 33u + c;
    return r * 32u + (c ^ r);
}

// steps transposes, alternating a -> b and b -> a; out gets the last result, element (i, j) at
// i * 32 + j.
template <typename T, int L, int A>
__global__ void __launch_bounds__(1024) transpose(const T *in, T *out, int pairs, int odd)
{
    __shared__ T a[32 * 33];
    __shared__ T b[32 * 33];
    const unsigned int i = threadIdx.x >> 5, j = threadIdx.x & 31u;
    const T *tin = in + (size_t)blockIdx.x * 1024;
    T *tout = out + (size_t)blockIdx.x * 1024;
    a[phys<L>(i, j)] = tin[i * 32u + j];
    __syncthreads();
    unsigned int rd, wr;
    if (A == CRSW) {
        rd = phys<L>(i, j);
        wr = phys<L>(j, i);
    } else if (A == SRCW) {
        rd = phys<L>(j, i);
        wr = phys<L>(i, j);
    } else {
        const unsigned int d = (i + j) & 31u;
        rd = phys<L>(j, d);
        wr = phys<L>(d, j);
    }
    for (int k = 0; k < pairs; ++k) {
        b[wr] = a[rd];
        __syncthreads();
        a[wr] = b[rd];
        __syncthreads();
    }
    if (odd) {
        b[wr] = a[rd];
        __syncthreads();
        tout[i * 32u + j] = b[phys<L>(i, j)];
    } else {
        tout[i * 32u + j] = a[phys<L>(i, j)];
    }
}

template <typename T>
static float run_one(void (*kernel)(const T *, T *, int, int), int blocks, const T *d_in, T *d_out,
                     int pairs, int odd, cudaEvent_t e0, cudaEvent_t e1)
{
    CHECK(cudaEventRecord(e0));
    kernel<<<blocks, 1024>>>(d_in, d_out, pairs, odd);
    CHECK_LAUNCH();
    CHECK(cudaEventRecord(e1));
    CHECK(cudaEventSynchronize(e1));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, e0, e1));
    return ms;
}

template <typename T>
static bool check(const std::vector<T> &in, const std::vector<T> &out, int blocks, bool transposed)
{
    for (int t = 0; t < blocks; ++t)
        for (int r = 0; r < 32; ++r)
            for (int c = 0; c < 32; ++c) {
                T want = transposed ? in[t * 1024 + c * 32 + r] : in[t * 1024 + r * 32 + c];
                if (out[t * 1024 + r * 32 + c] != want) return false;
            }
    return true;
}

template <typename T, int L, int A>
static void bench(FILE *csv, int blocks, const char *type)
{
    void (*kernel)(const T *, T *, int, int) = transpose<T, L, A>;
    const size_t n = (size_t)blocks * 1024;
    std::vector<T> h_in(n), h_out(n);
    unsigned int seed = 12345u + L * 7u + A * 131u;
    for (size_t k = 0; k < n; ++k) {
        seed = seed * 1664525u + 1013904223u;
        h_in[k] = (T)(seed >> 8) + (T)0.5;
    }
    T *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, n * sizeof(T)));
    CHECK(cudaMalloc(&d_out, n * sizeof(T)));
    CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(T), cudaMemcpyHostToDevice));
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    bool ok = true;
    for (int odd = 0; odd < 2; ++odd) {
        CHECK(cudaMemset(d_out, 0xff, n * sizeof(T)));
        run_one(kernel, blocks, d_in, d_out, 3, odd, e0, e1);
        CHECK(cudaMemcpy(h_out.data(), d_out, n * sizeof(T), cudaMemcpyDeviceToHost));
        ok = ok && check(h_in, h_out, blocks, odd == 1);
    }
    const int p1 = 64, p2 = 1088, runs = 7;
    std::vector<float> t1, t2;
    for (int r = 0; r < runs; ++r) {
        t1.push_back(run_one(kernel, blocks, d_in, d_out, p1, 1, e0, e1));
        t2.push_back(run_one(kernel, blocks, d_in, d_out, p2, 1, e0, e1));
    }
    CHECK(cudaMemcpy(h_out.data(), d_out, n * sizeof(T), cudaMemcpyDeviceToHost));
    ok = ok && check(h_in, h_out, blocks, true);
    std::sort(t1.begin(), t1.end());
    std::sort(t2.begin(), t2.end());
    const double transposes = 2.0 * (p2 - p1);
    const double ns = (t2[runs / 2] - t1[runs / 2]) * 1e6 / transposes;
    const double spread = ((t2[runs - 1] - t1[0]) - (t2[0] - t1[runs - 1])) * 1e6 / transposes;
    std::fprintf(csv, "%s,%s,%s,%d,%d,%.2f,%.2f,%s\n", alg_name[A], type, layout_name[L], blocks,
                 runs, ns, spread, ok ? "pass" : "FAIL");
    std::printf("%-5s %-6s %-8s %8.1f ns/transpose (spread %.1f) %s\n", alg_name[A], type,
                layout_name[L], ns, spread, ok ? "pass" : "FAIL");
    CHECK(cudaEventDestroy(e0));
    CHECK(cudaEventDestroy(e1));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
}

template <typename T, int A>
static void all_layouts(FILE *csv, int blocks, const char *type)
{
    bench<T, RAW, A>(csv, blocks, type);
    bench<T, RAS, A>(csv, blocks, type);
    bench<T, RAP, A>(csv, blocks, type);
    bench<T, RAPW, A>(csv, blocks, type);
    bench<T, PAD, A>(csv, blocks, type);
    bench<T, XOR, A>(csv, blocks, type);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: transpose <csv out>\n");
        return 2;
    }
    FILE *csv = std::fopen(argv[1], "w");
    if (!csv) {
        std::perror(argv[1]);
        return 1;
    }
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    const int blocks = prop.multiProcessorCount;
    std::printf("%s: %d SMs, one 32 x 32 tile per SM\n", prop.name, blocks);
    std::fprintf(csv, "algorithm,type,layout,blocks,runs,ns_per_transpose,spread_ns,check\n");
    all_layouts<float, CRSW>(csv, blocks, "float");
    all_layouts<float, SRCW>(csv, blocks, "float");
    all_layouts<float, DRDW>(csv, blocks, "float");
    all_layouts<double, CRSW>(csv, blocks, "double");
    all_layouts<double, SRCW>(csv, blocks, "double");
    all_layouts<double, DRDW>(csv, blocks, "double");
    std::fclose(csv);
    return 0;
}
