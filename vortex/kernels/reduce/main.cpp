// reduce: the host side. -n elements (default 4096), -p elements per thread (default 16); a
// block is every thread of a core.
#include <unistd.h>
#include "host.h"
#include "common.h"

int main(int argc, char** argv) {
  uint32_t n = 4096, per_thread = 16;
  const char* kernel_file = "kernel.vxbin";
  for (int c; (c = getopt(argc, argv, "n:p:k:")) != -1;) {
    if (c == 'n') n = atoi(optarg);
    else if (c == 'p') per_thread = atoi(optarg);
    else if (c == 'k') kernel_file = optarg;
    else rtlgen::require(false, "usage: reduce [-n elements] [-p per-thread] [-k kernel]");
  }
  rtlgen::Device device;
  uint32_t bs = device.threads_per_core();
  rtlgen::require(per_thread > 0 && n % (bs * per_thread) == 0,
                  "-n must be a multiple of the threads per core times -p");
  device.need_local(bs, bs * sizeof(int32_t));
  printf("reduce: %u elements, block %u\n", n, bs);

  uint32_t blocks = n / (bs * per_thread);
  std::vector<int32_t> src(n), want(blocks, 0);
  rtlgen::Random random(3);
  for (uint32_t i = 0; i < n; ++i) {
    src[i] = (int32_t)(random.next() & 0xffff);
    want[i / (bs * per_thread)] += src[i];
  }

  kernel_arg_t arg = {};
  arg.grid_dim[0] = blocks;
  arg.block_dim[0] = bs;
  arg.per_thread = per_thread;
  arg.src_addr = device.upload(src);
  arg.dst_addr = device.output<int32_t>(blocks);
  device.run(kernel_file, arg);
  auto got = device.download<int32_t>(arg.dst_addr, blocks);
  device.close();
  return rtlgen::verify(got, want);
}
