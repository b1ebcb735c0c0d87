// transpose: the host side. -n matrix side (default 64), -t tile side (default 16; a
// multiple of the block side, which is the largest power of two whose square fits a core).
#include <unistd.h>
#include "host.h"
#include "common.h"

int main(int argc, char** argv) {
  uint32_t n = 64, tile = 16;
  const char* kernel_file = "kernel.vxbin";
  for (int c; (c = getopt(argc, argv, "n:t:k:")) != -1;) {
    if (c == 'n') n = atoi(optarg);
    else if (c == 't') tile = atoi(optarg);
    else if (c == 'k') kernel_file = optarg;
    else rtlgen::require(false, "usage: transpose [-n side] [-t tile] [-k kernel]");
  }
  rtlgen::Device device;
  uint32_t b = device.block_side();
  rtlgen::require(tile % b == 0 && n % tile == 0, "-t must be a multiple of the block side, -n of -t");
  device.need_local(b * b, tile * tile * sizeof(int32_t));
  printf("transpose: %ux%u, tile %ux%u, block %ux%u\n", n, n, tile, tile, b, b);

  std::vector<int32_t> src(n * n), want(n * n);
  rtlgen::Random random(31);
  for (auto& v : src) v = (int32_t)random.next();
  for (uint32_t y = 0; y < n; ++y)
    for (uint32_t x = 0; x < n; ++x) want[x * n + y] = src[y * n + x];

  kernel_arg_t arg = {};
  arg.grid_dim[0] = arg.grid_dim[1] = n / tile;
  arg.block_dim[0] = arg.block_dim[1] = b;
  arg.n = n;
  arg.tile = tile;
  arg.src_addr = device.upload(src);
  arg.dst_addr = device.output<int32_t>(n * n);
  device.run(kernel_file, arg);
  auto got = device.download<int32_t>(arg.dst_addr, n * n);
  device.close();
  return rtlgen::verify(got, want);
}
