// Model against silicon: one warp issues one shared-memory load and one store at the word
// indices of each pattern; Nsight Compute counts the wavefronts of each launch.
// Input: lines "<id> <word bytes: 4 or 8> <32 word indices>" (patterns.txt from
// `cargo run -p rtl-gen --example gpu_silicon -- patterns`). Launch k profiles pattern k.
// Usage: probe <patterns.txt>
#include "common.cuh"
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#define PROBE_WORDS 4096

template <typename T>
__global__ void probe(const unsigned int *idx, T *out)
{
    __shared__ T s[PROBE_WORDS];
    volatile T *vs = s;
    const unsigned int x = idx[threadIdx.x];
    const T v = vs[x];
    vs[x] = v + (T)1;
    out[threadIdx.x] = v;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: probe <patterns.txt>\n");
        return 2;
    }
    std::ifstream in(argv[1]);
    if (!in) {
        std::perror(argv[1]);
        return 1;
    }
    unsigned int *d_idx;
    double *d_out;
    CHECK(cudaMalloc(&d_idx, 32 * sizeof(unsigned int)));
    CHECK(cudaMalloc(&d_out, 32 * sizeof(double)));
    std::string line;
    int launched = 0;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream fields(line);
        std::string id;
        int bytes = 0;
        unsigned int idx[32];
        fields >> id >> bytes;
        for (int t = 0; t < 32; ++t) fields >> idx[t];
        if (!fields || (bytes != 4 && bytes != 8)) {
            std::fprintf(stderr, "bad pattern line: %s\n", line.c_str());
            return 1;
        }
        for (int t = 0; t < 32; ++t)
            if (idx[t] >= PROBE_WORDS) {
                std::fprintf(stderr, "index %u out of range in %s\n", idx[t], id.c_str());
                return 1;
            }
        CHECK(cudaMemcpy(d_idx, idx, sizeof idx, cudaMemcpyHostToDevice));
        if (bytes == 4)
            probe<float><<<1, 32>>>(d_idx, (float *)d_out);
        else
            probe<double><<<1, 32>>>(d_idx, d_out);
        CHECK_LAUNCH();
        CHECK(cudaDeviceSynchronize());
        ++launched;
    }
    std::printf("probe: %d patterns launched\n", launched);
    CHECK(cudaFree(d_idx));
    CHECK(cudaFree(d_out));
    return 0;
}
