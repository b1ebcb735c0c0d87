// stencil: the host side. -n output side (default 32, a multiple of 16); a block is every
// thread of a core (16, 32 or 64 threads: a multiple of 16 that divides the window's 576
// words). The input has a zero border of one row and column, and is padded on the right so
// that every tile's window lies inside it.
#include <unistd.h>
#include "host.h"
#include "common.h"

int main(int argc, char** argv) {
  uint32_t n = 32;
  const char* kernel_file = "kernel.vxbin";
  for (int c; (c = getopt(argc, argv, "n:k:")) != -1;) {
    if (c == 'n') n = atoi(optarg);
    else if (c == 'k') kernel_file = optarg;
    else rtlgen::require(false, "usage: stencil [-n side] [-k kernel]");
  }
  rtlgen::Device device;
  uint32_t bs = device.threads_per_core();
  rtlgen::require(n % TILE == 0, "-n must be a multiple of 16");
  rtlgen::require(bs % TILE == 0 && bs <= TILE * TILE && (TILE + 2) * PITCH % bs == 0,
                  "the threads per core must be a multiple of 16 that divides 576");
  device.need_local(bs, (TILE + 2) * PITCH * sizeof(int32_t));
  printf("stencil: %ux%u, tile %ux%u, block %u\n", n, n, TILE, TILE, bs);

  uint32_t p = n + PITCH;
  std::vector<int32_t> src(p * (n + 2), 0), want(n * n);
  rtlgen::Random random(5);
  for (uint32_t y = 0; y < n; ++y)
    for (uint32_t x = 0; x < n; ++x) src[(y + 1) * p + x + 1] = (int32_t)(random.next() & 0xffff);
  auto in = [&](uint32_t y, uint32_t x) { return src[y * p + x]; };
  for (uint32_t y = 0; y < n; ++y)
    for (uint32_t x = 0; x < n; ++x)
      want[y * n + x] = 4 * in(y + 1, x + 1) - in(y, x + 1) - in(y + 2, x + 1) - in(y + 1, x) -
                        in(y + 1, x + 2);

  kernel_arg_t arg = {};
  arg.grid_dim[0] = arg.grid_dim[1] = n / TILE;
  arg.block_dim[0] = bs;
  arg.block_dim[1] = 1;
  arg.n = n;
  arg.in_pitch = p;
  arg.src_addr = device.upload(src);
  arg.dst_addr = device.output<int32_t>(n * n);
  device.run(kernel_file, arg);
  auto got = device.download<int32_t>(arg.dst_addr, n * n);
  device.close();
  return rtlgen::verify(got, want);
}
