// What TMA writes for random tensor maps (docs/TMA.md): each "load" line of the case file
// (written by `cargo run -p models --example gpu_tma -- cases ...`, format in
// models/src/tma/silicon.rs) encodes a tensor map with cuTensorMapEncodeTiled over a tensor whose
// bytes are the reference SplitMix64 stream of the case's seed, fills a 1024-byte aligned shared
// buffer with 0xa5, issues one cp.async.bulk.tensor load into it at the case's offset and
// coordinates, and dumps the buffer's first bytes; each "encode" line only calls
// cuTensorMapEncodeTiled. Every result line is the case line, " : ", then
//   load:   <CUresult> <1 if the mbarrier completed> <changed bytes past the dump> <buffer address> <hex dump>
//   encode: <CUresult>
// Usage: tma_tensor <cases.txt> <results.txt> <first case index>   (link with -lcuda)
// Appends to results.txt and writes the index of the case under way to results.txt.progress, so
// that gpu/tma_run.sh can restart past a case that kills the CUDA context.
#include "common.cuh"
#include <cuda.h>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#define BUFFER_BYTES 32768
#define PREFILL 0xa5u
#define TIMEOUT_NS 2000000ull

struct Coords {
    int c[5];
};

__device__ unsigned long long global_timer()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__device__ bool try_wait(unsigned mbar, unsigned parity)
{
    unsigned ok;
    asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                 " selp.u32 %0, 1, 0, p;\n}"
                 : "=r"(ok)
                 : "r"(mbar), "r"(parity)
                 : "memory");
    return ok != 0;
}

__global__ void tma_case(const __grid_constant__ CUtensorMap map, int rank, Coords at, unsigned offset,
                         unsigned tx, unsigned char *out, unsigned *status)
{
    __shared__ __align__(1024) unsigned char buffer[BUFFER_BYTES];
    __shared__ __align__(8) unsigned long long bar;
    const unsigned base = (unsigned)__cvta_generic_to_shared(buffer);
    const unsigned mbar = (unsigned)__cvta_generic_to_shared(&bar);
    unsigned *words = reinterpret_cast<unsigned *>(buffer);
    for (int i = threadIdx.x; i < BUFFER_BYTES / 4; i += blockDim.x) words[i] = PREFILL * 0x01010101u;
    // Order the generic-proxy fill before the async-proxy (TMA) writes.
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(mbar) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        const unsigned dst = base + offset;
        const unsigned long long m = reinterpret_cast<unsigned long long>(&map);
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(mbar), "r"(tx) : "memory");
        switch (rank) {
        case 1:
            asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::complete_tx::bytes"
                         " [%0], [%1, {%2}], [%3];" ::"r"(dst),
                         "l"(m), "r"(at.c[0]), "r"(mbar)
                         : "memory");
            break;
        case 2:
            asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
                         " [%0], [%1, {%2, %3}], [%4];" ::"r"(dst),
                         "l"(m), "r"(at.c[0]), "r"(at.c[1]), "r"(mbar)
                         : "memory");
            break;
        case 3:
            asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes"
                         " [%0], [%1, {%2, %3, %4}], [%5];" ::"r"(dst),
                         "l"(m), "r"(at.c[0]), "r"(at.c[1]), "r"(at.c[2]), "r"(mbar)
                         : "memory");
            break;
        case 4:
            asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::complete_tx::bytes"
                         " [%0], [%1, {%2, %3, %4, %5}], [%6];" ::"r"(dst),
                         "l"(m), "r"(at.c[0]), "r"(at.c[1]), "r"(at.c[2]), "r"(at.c[3]), "r"(mbar)
                         : "memory");
            break;
        default:
            asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.mbarrier::complete_tx::bytes"
                         " [%0], [%1, {%2, %3, %4, %5, %6}], [%7];" ::"r"(dst),
                         "l"(m), "r"(at.c[0]), "r"(at.c[1]), "r"(at.c[2]), "r"(at.c[3]), "r"(at.c[4]),
                         "r"(mbar)
                         : "memory");
            break;
        }
    }
    // Wait for the transaction bytes, at most TIMEOUT_NS: a count the model got wrong shows as a
    // load that never completes (too many bytes expected), not as a hang.
    const unsigned long long start = global_timer();
    bool done = false;
    while (!done && global_timer() - start < TIMEOUT_NS) done = try_wait(mbar, 0);
    if (!done) {
        // Let whatever the copy still writes land before the dump.
        const unsigned long long t = global_timer();
        while (global_timer() - t < TIMEOUT_NS) __nanosleep(1000);
    }
    __syncthreads();
    for (int i = threadIdx.x; i < BUFFER_BYTES / 4; i += blockDim.x)
        reinterpret_cast<unsigned *>(out)[i] = words[i];
    if (threadIdx.x == 0) {
        status[0] = done ? 1u : 0u;
        status[1] = base;
    }
}

static uint64_t splitmix64(uint64_t seed, uint64_t n)
{
    uint64_t z = seed + (n + 1) * 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

template <typename E> static bool lookup(const std::string &name, const std::vector<std::pair<const char *, E>> &table, E &out)
{
    for (const auto &p : table)
        if (name == p.first) {
            out = p.second;
            return true;
        }
    return false;
}

static const std::vector<std::pair<const char *, CUtensorMapDataType>> kTypes = {
    {"u8", CU_TENSOR_MAP_DATA_TYPE_UINT8},         {"u16", CU_TENSOR_MAP_DATA_TYPE_UINT16},
    {"u32", CU_TENSOR_MAP_DATA_TYPE_UINT32},       {"i32", CU_TENSOR_MAP_DATA_TYPE_INT32},
    {"u64", CU_TENSOR_MAP_DATA_TYPE_UINT64},       {"i64", CU_TENSOR_MAP_DATA_TYPE_INT64},
    {"f16", CU_TENSOR_MAP_DATA_TYPE_FLOAT16},      {"f32", CU_TENSOR_MAP_DATA_TYPE_FLOAT32},
    {"f64", CU_TENSOR_MAP_DATA_TYPE_FLOAT64},      {"bf16", CU_TENSOR_MAP_DATA_TYPE_BFLOAT16},
    {"f32-ftz", CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ}, {"tf32", CU_TENSOR_MAP_DATA_TYPE_TFLOAT32},
    {"tf32-ftz", CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ},
};
static const std::vector<std::pair<const char *, CUtensorMapSwizzle>> kSwizzles = {
    {"none", CU_TENSOR_MAP_SWIZZLE_NONE},
    {"32B", CU_TENSOR_MAP_SWIZZLE_32B},
    {"64B", CU_TENSOR_MAP_SWIZZLE_64B},
    {"128B", CU_TENSOR_MAP_SWIZZLE_128B},
};
static const std::vector<std::pair<const char *, CUtensorMapL2promotion>> kPromotions = {
    {"none", CU_TENSOR_MAP_L2_PROMOTION_NONE},
    {"64B", CU_TENSOR_MAP_L2_PROMOTION_L2_64B},
    {"128B", CU_TENSOR_MAP_L2_PROMOTION_L2_128B},
    {"256B", CU_TENSOR_MAP_L2_PROMOTION_L2_256B},
};
static const std::vector<std::pair<const char *, CUtensorMapFloatOOBfill>> kFills = {
    {"none", CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE},
    {"nan", CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA},
};

static unsigned elem_bytes(const std::string &type)
{
    if (type == "u8") return 1;
    if (type == "u16" || type == "f16" || type == "bf16") return 2;
    if (type == "u64" || type == "i64" || type == "f64") return 8;
    return 4;
}

// One parsed case line.
struct Case {
    std::string kind, type, swizzle, l2, fill;
    unsigned long long id = 0, seed = 0, address = 0, offset = 0, tx = 0, dump = 0;
    unsigned rank = 0;
    cuuint64_t dims[8] = {}, strides[8] = {};
    cuuint32_t box[8] = {}, estrides[8] = {};
    int coords[8] = {};
};

static bool parse(const std::string &line, Case &c)
{
    std::istringstream in(line);
    if (!(in >> c.kind >> c.id >> c.type >> c.swizzle >> c.l2 >> c.fill)) return false;
    if (c.kind == "load" && !(in >> c.seed >> c.address >> c.offset)) return false;
    if (c.kind == "encode" && !(in >> c.address)) return false;
    if (!(in >> c.rank) || c.rank > 8) return false;
    for (unsigned i = 0; i < c.rank; ++i) in >> c.dims[i];
    for (unsigned i = 0; i + 1 < c.rank; ++i) in >> c.strides[i];
    for (unsigned i = 0; i < c.rank; ++i) in >> c.box[i];
    for (unsigned i = 0; i < c.rank; ++i) in >> c.estrides[i];
    if (c.kind == "load") {
        for (unsigned i = 0; i < c.rank; ++i) in >> c.coords[i];
        in >> c.tx >> c.dump;
    }
    return !in.fail();
}

// cuTensorMapEncodeTiled for a case over the tensor at `tensor` (256-byte aligned).
static CUresult encode(const Case &c, unsigned char *tensor, CUtensorMap *map)
{
    CUtensorMapDataType type;
    CUtensorMapSwizzle swizzle;
    CUtensorMapL2promotion l2;
    CUtensorMapFloatOOBfill fill;
    if (!lookup(c.type, kTypes, type) || !lookup(c.swizzle, kSwizzles, swizzle) || !lookup(c.l2, kPromotions, l2) ||
        !lookup(c.fill, kFills, fill)) {
        std::fprintf(stderr, "case %llu: unknown parameter name\n", c.id);
        std::exit(1);
    }
    return cuTensorMapEncodeTiled(map, type, c.rank, tensor + c.address, c.dims, c.strides, c.box, c.estrides,
                                  CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle, l2, fill);
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        std::fprintf(stderr, "usage: tma_tensor <cases.txt> <results.txt> <first case index>\n");
        return 2;
    }
    const long first = std::atol(argv[3]);
    std::ifstream in(argv[1]);
    if (!in) {
        std::perror(argv[1]);
        return 1;
    }
    std::vector<std::string> lines;
    for (std::string l; std::getline(in, l);)
        if (!l.empty() && l[0] != '#') lines.push_back(l);
    FILE *out = std::fopen(argv[2], "a");
    if (!out) {
        std::perror(argv[2]);
        return 1;
    }
    const std::string progress = std::string(argv[2]) + ".progress";
    CHECK(cudaFree(0)); // create the context the driver API calls use
    const size_t tensor_bytes = (size_t)8 << 20;
    unsigned char *d_tensor, *d_out;
    unsigned *d_status;
    CHECK(cudaMalloc(&d_tensor, tensor_bytes));
    CHECK(cudaMalloc(&d_out, BUFFER_BYTES));
    CHECK(cudaMalloc(&d_status, 2 * sizeof(unsigned)));
    std::vector<unsigned char> host(tensor_bytes), back(BUFFER_BYTES);
    alignas(64) CUtensorMap map;
    for (size_t k = (size_t)first; k < lines.size(); ++k) {
        if (FILE *p = std::fopen(progress.c_str(), "w")) {
            std::fprintf(p, "%zu\n", k);
            std::fclose(p);
        }
        Case c;
        if (!parse(lines[k], c)) {
            std::fprintf(stderr, "line %zu: cannot parse: %s\n", k, lines[k].c_str());
            return 1;
        }
        if (c.kind == "encode") {
            const CUresult r = encode(c, d_tensor, &map);
            std::fprintf(out, "%s : %d\n", lines[k].c_str(), (int)r);
            std::fflush(out);
            continue;
        }
        // The tensor: the bytes from its first to past its last element, plus slack.
        const unsigned bytes = elem_bytes(c.type);
        size_t span = (size_t)c.dims[0] * bytes;
        for (unsigned i = 1; i < c.rank; ++i) span += (size_t)(c.dims[i] - 1) * c.strides[i - 1];
        if (c.address + span > tensor_bytes) {
            std::fprintf(stderr, "case %llu: tensor of %zu bytes too large\n", c.id, span);
            return 1;
        }
        for (size_t j = 0; j < span; j += 8) { // little-endian, as the models read it
            const uint64_t w = splitmix64(c.seed, j / 8);
            std::memcpy(&host[c.address + j], &w, span - j < 8 ? span - j : 8);
        }
        CHECK(cudaMemcpy(d_tensor + c.address, host.data() + c.address, span, cudaMemcpyHostToDevice));
        const CUresult r = encode(c, d_tensor, &map);
        if (r != CUDA_SUCCESS) {
            std::fprintf(out, "%s : %d\n", lines[k].c_str(), (int)r);
            std::fflush(out);
            continue;
        }
        Coords at;
        for (int i = 0; i < 5; ++i) at.c[i] = c.coords[i];
        CHECK(cudaMemset(d_status, 0, 2 * sizeof(unsigned)));
        tma_case<<<1, 128>>>(map, (int)c.rank, at, (unsigned)c.offset, (unsigned)c.tx, d_out, d_status);
        CHECK_LAUNCH();
        CHECK(cudaDeviceSynchronize());
        unsigned status[2];
        CHECK(cudaMemcpy(back.data(), d_out, BUFFER_BYTES, cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(status, d_status, sizeof status, cudaMemcpyDeviceToHost));
        unsigned long long strays = 0;
        for (size_t j = c.dump; j < BUFFER_BYTES; ++j) strays += back[j] != PREFILL;
        std::string hex(2 * c.dump, '0');
        static const char digits[] = "0123456789abcdef";
        for (size_t j = 0; j < c.dump; ++j) {
            hex[2 * j] = digits[back[j] >> 4];
            hex[2 * j + 1] = digits[back[j] & 15];
        }
        std::fprintf(out, "%s : 0 %u %llu %u %s\n", lines[k].c_str(), status[0], strays, status[1], hex.c_str());
        std::fflush(out);
    }
    std::fclose(out);
    std::remove(progress.c_str());
    return 0;
}
