// 2-D five-point stencil on a local tile: a block copies a (TILE + 2) x PITCH window into local
// memory (lanes on consecutive words), then each thread sweeps along a row of the tile (lanes
// on consecutive rows, PITCH words apart: one bank under the low-bit map).
#include "kernel.h"
#include "common.h"

void kernel_body(kernel_arg_t* __UNIFORM__ arg) {
  auto src = reinterpret_cast<const int32_t*>(arg->src_addr);
  auto dst = reinterpret_cast<int32_t*>(arg->dst_addr);
  uint32_t bs = blockDim.x, t = threadIdx.x, n = arg->n, p = arg->in_pitch;
  auto tile = reinterpret_cast<volatile int32_t*>(__local_mem((TILE + 2) * PITCH * sizeof(int32_t)));
  uint32_t x0 = blockIdx.x * TILE, y0 = blockIdx.y * TILE;
  for (uint32_t k = t; k < (TILE + 2) * PITCH; k += bs) {
    tile[k] = src[(y0 + k / PITCH) * p + x0 + k % PITCH];
  }
  RTLGEN_SYNC();
  // Thread t: row t % TILE, its segment t / TILE of the row's TILE outputs.
  uint32_t r = t % TILE, width = TILE / (bs / TILE), c0 = (t / TILE) * width;
  for (uint32_t c = c0; c < c0 + width; ++c) {
    int32_t centre = tile[(r + 1) * PITCH + c + 1];
    int32_t around = tile[r * PITCH + c + 1] + tile[(r + 2) * PITCH + c + 1] +
                     tile[(r + 1) * PITCH + c] + tile[(r + 1) * PITCH + c + 2];
    dst[(y0 + r) * n + x0 + c] = 4 * centre - around;
  }
}

int main() {
  auto arg = (kernel_arg_t*)csr_read(VX_CSR_MSCRATCH);
  return vx_spawn_threads(2, arg->grid_dim, arg->block_dim, (vx_kernel_func_cb)kernel_body, arg);
}
