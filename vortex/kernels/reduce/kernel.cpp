// A sum, written warp-uniformly: each thread adds its share, the block halves its partial sums
// in local memory while the half is a whole number of warps (`t < s` is the same for all lanes
// of a warp), and the first warp adds the last warp's worth: every lane reads the same words
// (a broadcast; Vortex's memory serves same-word reads one lane at a time).
#include "kernel.h"
#include "common.h"

void kernel_body(kernel_arg_t* __UNIFORM__ arg) {
  auto src = reinterpret_cast<const int32_t*>(arg->src_addr);
  auto dst = reinterpret_cast<int32_t*>(arg->dst_addr);
  uint32_t bs = blockDim.x, t = threadIdx.x, warp = vx_num_threads();
  auto part = reinterpret_cast<volatile int32_t*>(__local_mem(bs * sizeof(int32_t)));
  uint32_t base = blockIdx.x * bs * arg->per_thread;
  int32_t acc = 0;
  for (uint32_t k = 0; k < arg->per_thread; ++k) {
    acc += src[base + k * bs + t];
  }
  part[t] = acc;
  RTLGEN_SYNC();
  for (uint32_t s = bs / 2; s >= warp; s /= 2) {
    if (t < s) {
      part[t] += part[t + s];
    }
    RTLGEN_SYNC();
  }
  if (t < warp) {
    int32_t sum = 0;
    for (uint32_t i = 0; i < warp; ++i) {
      sum += part[i];
    }
    dst[blockIdx.x] = sum;
  }
}

int main() {
  auto arg = (kernel_arg_t*)csr_read(VX_CSR_MSCRATCH);
  return vx_spawn_threads(1, arg->grid_dim, arg->block_dim, (vx_kernel_func_cb)kernel_body, arg);
}
