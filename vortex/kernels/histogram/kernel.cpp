// Histogram with a private histogram per thread in local memory (`bins` words from
// thread * bins: lanes that count the same bin are `bins` words apart, one bank under the
// low-bit map), then each thread adds one bin over a share of the threads (lanes on
// consecutive words).
#include "kernel.h"
#include "common.h"

void kernel_body(kernel_arg_t* __UNIFORM__ arg) {
  auto src = reinterpret_cast<const uint32_t*>(arg->src_addr);
  auto dst = reinterpret_cast<int32_t*>(arg->dst_addr);
  uint32_t bins = arg->bins, bs = blockDim.x, t = threadIdx.x;
  auto hist = reinterpret_cast<volatile int32_t*>(__local_mem(bs * bins * sizeof(int32_t)));
  for (uint32_t j = 0; j < bins; ++j) {
    hist[t * bins + j] = 0;
  }
  uint32_t base = blockIdx.x * bs * arg->per_thread;
  for (uint32_t k = 0; k < arg->per_thread; ++k) {
    uint32_t bin = src[base + k * bs + t] & (bins - 1);
    hist[t * bins + bin] += 1;
  }
  RTLGEN_SYNC();
  // Thread t adds bin t % bins over the threads t / bins, t / bins + groups, ...
  uint32_t bin = t % bins, groups = bs / bins;
  int32_t acc = 0;
  for (uint32_t m = 0; m < bins; ++m) {
    acc += hist[(t / bins + m * groups) * bins + bin];
  }
  dst[blockIdx.x * bs + t] = acc;
}

int main() {
  auto arg = (kernel_arg_t*)csr_read(VX_CSR_MSCRATCH);
  return vx_spawn_threads(1, arg->grid_dim, arg->block_dim, (vx_kernel_func_cb)kernel_body, arg);
}
