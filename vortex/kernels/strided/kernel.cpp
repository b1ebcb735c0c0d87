// Strided (column) access: a block copies `block` rows of `width` words into local memory
// (lanes on consecutive words), then each thread walks its own row (lanes `width` words apart:
// one bank under the low-bit map when width is a multiple of the banks) for a weighted sum.
#include "kernel.h"
#include "common.h"

void kernel_body(kernel_arg_t* __UNIFORM__ arg) {
  auto src = reinterpret_cast<const int32_t*>(arg->src_addr);
  auto dst = reinterpret_cast<int32_t*>(arg->dst_addr);
  uint32_t w = arg->width, bs = blockDim.x, t = threadIdx.x;
  auto rows = reinterpret_cast<volatile int32_t*>(__local_mem(bs * w * sizeof(int32_t)));
  uint32_t base = blockIdx.x * bs * w;
  for (uint32_t k = 0; k < w; ++k) {
    rows[k * bs + t] = src[base + k * bs + t];
  }
  RTLGEN_SYNC();
  int32_t acc = 0;
  for (uint32_t i = 0; i < w; ++i) {
    acc += rows[t * w + i] * (int32_t)(i + 1);
  }
  dst[blockIdx.x * bs + t] = acc;
}

int main() {
  auto arg = (kernel_arg_t*)csr_read(VX_CSR_MSCRATCH);
  return vx_spawn_threads(1, arg->grid_dim, arg->block_dim, (vx_kernel_func_cb)kernel_body, arg);
}
