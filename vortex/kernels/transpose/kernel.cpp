// Transpose through local memory without padding: a block copies a tile x tile tile into
// local memory row by row (lanes on consecutive words) and writes it out column by column
// (lanes `tile` words apart: one bank under the low-bit map when tile is a multiple of the
// banks).
#include "kernel.h"
#include "common.h"

void kernel_body(kernel_arg_t* __UNIFORM__ arg) {
  auto src = reinterpret_cast<const int32_t*>(arg->src_addr);
  auto dst = reinterpret_cast<int32_t*>(arg->dst_addr);
  uint32_t n = arg->n, t = arg->tile;
  auto tile = reinterpret_cast<volatile int32_t*>(__local_mem(t * t * sizeof(int32_t)));
  uint32_t x0 = blockIdx.x * t, y0 = blockIdx.y * t;
  for (uint32_t r = threadIdx.y; r < t; r += blockDim.y) {
    for (uint32_t c = threadIdx.x; c < t; c += blockDim.x) {
      tile[r * t + c] = src[(y0 + r) * n + x0 + c];
    }
  }
  RTLGEN_SYNC();
  for (uint32_t r = threadIdx.y; r < t; r += blockDim.y) {
    for (uint32_t c = threadIdx.x; c < t; c += blockDim.x) {
      dst[(x0 + r) * n + y0 + c] = tile[c * t + r];
    }
  }
}

int main() {
  auto arg = (kernel_arg_t*)csr_read(VX_CSR_MSCRATCH);
  return vx_spawn_threads(2, arg->grid_dim, arg->block_dim, (vx_kernel_func_cb)kernel_body, arg);
}
