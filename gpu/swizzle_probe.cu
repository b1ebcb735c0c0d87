// Swizzle model against silicon: each input line is one launch of one warp that issues, for each
// of its K warp accesses, one shared load (and afterwards one store) of 4, 8 or 16 bytes per
// thread, or one ldmatrix.x4 (.trans); Nsight Compute counts the wavefronts of each launch.
// Input lines: "<id> <op: v4|v8|v16|ldsm|ldsmt> <K> <K x 32 byte offsets>" (swizzle_patterns.txt
// from `cargo run -p rtl-gen --example gpu_swizzle -- patterns gpu/gen`). Launch k is line k.
// Usage: swizzle_probe <swizzle_patterns.txt>
#include "common.cuh"
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#define PROBE_BYTES 32768

enum Op { V4, V8, V16, LDSM, LDSMT };

template <int OP>
__global__ void swz_probe(const unsigned int *offsets, int k, unsigned int *out)
{
    __shared__ __align__(1024) unsigned char s[PROBE_BYTES];
    const unsigned int base = (unsigned int)__cvta_generic_to_shared(s);
    unsigned int a0 = 0, a1 = 0, a2 = 0, a3 = 0;
#pragma unroll 1
    for (int i = 0; i < k; ++i) {
        const unsigned int a = base + offsets[i * 32 + threadIdx.x];
        unsigned int r0 = 0, r1 = 0, r2 = 0, r3 = 0;
        if (OP == V4)
            asm volatile("ld.shared.u32 %0, [%1];" : "=r"(r0) : "r"(a) : "memory");
        else if (OP == V8)
            asm volatile("ld.shared.v2.u32 {%0, %1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(a) : "memory");
        else if (OP == V16)
            asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
                         : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a) : "memory");
        else if (OP == LDSM)
            asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                         : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a) : "memory");
        else
            asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                         : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a) : "memory");
        a0 += r0;
        a1 += r1;
        a2 += r2;
        a3 += r3;
    }
    if (OP == V4 || OP == V8 || OP == V16) {
#pragma unroll 1
        for (int i = 0; i < k; ++i) {
            const unsigned int a = base + offsets[i * 32 + threadIdx.x];
            if (OP == V4)
                asm volatile("st.shared.u32 [%0], %1;" ::"r"(a), "r"(a0) : "memory");
            else if (OP == V8)
                asm volatile("st.shared.v2.u32 [%0], {%1, %2};" ::"r"(a), "r"(a0), "r"(a1) : "memory");
            else
                asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(a), "r"(a0), "r"(a1),
                             "r"(a2), "r"(a3)
                             : "memory");
        }
    }
    out[threadIdx.x] = a0 ^ a1 ^ a2 ^ a3;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: swizzle_probe <swizzle_patterns.txt>\n");
        return 2;
    }
    std::ifstream in(argv[1]);
    if (!in) {
        std::perror(argv[1]);
        return 1;
    }
    unsigned int *d_offsets, *d_out;
    const int max_k = 1024;
    CHECK(cudaMalloc(&d_offsets, max_k * 32 * sizeof(unsigned int)));
    CHECK(cudaMalloc(&d_out, 32 * sizeof(unsigned int)));
    std::string line;
    int launched = 0;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream fields(line);
        std::string id, op;
        int k = 0;
        fields >> id >> op >> k;
        if (!fields || k < 1 || k > max_k) {
            std::fprintf(stderr, "bad line: %s\n", id.c_str());
            return 1;
        }
        const int align = op == "v4" ? 4 : op == "v8" ? 8 : 16;
        std::vector<unsigned int> offsets(k * 32);
        for (auto &o : offsets) {
            fields >> o;
            if (!fields || o >= PROBE_BYTES || o % align) {
                std::fprintf(stderr, "bad offset in %s\n", id.c_str());
                return 1;
            }
        }
        CHECK(cudaMemcpy(d_offsets, offsets.data(), offsets.size() * sizeof(unsigned int),
                         cudaMemcpyHostToDevice));
        if (op == "v4")
            swz_probe<V4><<<1, 32>>>(d_offsets, k, d_out);
        else if (op == "v8")
            swz_probe<V8><<<1, 32>>>(d_offsets, k, d_out);
        else if (op == "v16")
            swz_probe<V16><<<1, 32>>>(d_offsets, k, d_out);
        else if (op == "ldsm")
            swz_probe<LDSM><<<1, 32>>>(d_offsets, k, d_out);
        else if (op == "ldsmt")
            swz_probe<LDSMT><<<1, 32>>>(d_offsets, k, d_out);
        else {
            std::fprintf(stderr, "unknown op %s in %s\n", op.c_str(), id.c_str());
            return 1;
        }
        CHECK_LAUNCH();
        CHECK(cudaDeviceSynchronize());
        ++launched;
    }
    std::printf("swizzle_probe: %d launches\n", launched);
    CHECK(cudaFree(d_offsets));
    CHECK(cudaFree(d_out));
    return 0;
}
