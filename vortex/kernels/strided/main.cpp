// strided: the host side. -n rows (default 1024), -w words per row (default 32); a block is
// every thread of a core.
#include <unistd.h>
#include "host.h"
#include "common.h"

int main(int argc, char** argv) {
  uint32_t n = 1024, width = 32;
  const char* kernel_file = "kernel.vxbin";
  for (int c; (c = getopt(argc, argv, "n:w:k:")) != -1;) {
    if (c == 'n') n = atoi(optarg);
    else if (c == 'w') width = atoi(optarg);
    else if (c == 'k') kernel_file = optarg;
    else rtlgen::require(false, "usage: strided [-n rows] [-w width] [-k kernel]");
  }
  rtlgen::Device device;
  uint32_t bs = device.threads_per_core();
  rtlgen::require(n % bs == 0 && width > 0, "-n must be a multiple of the threads per core");
  device.need_local(bs, bs * width * sizeof(int32_t));
  printf("strided: %u rows x %u words, block %u\n", n, width, bs);

  std::vector<int32_t> src(n * width), want(n);
  rtlgen::Random random(7);
  for (auto& v : src) v = (int32_t)(random.next() & 0xffff);
  for (uint32_t r = 0; r < n; ++r) {
    int32_t acc = 0;
    for (uint32_t i = 0; i < width; ++i) acc += src[r * width + i] * (int32_t)(i + 1);
    want[r] = acc;
  }

  kernel_arg_t arg = {};
  arg.grid_dim[0] = n / bs;
  arg.block_dim[0] = bs;
  arg.width = width;
  arg.src_addr = device.upload(src);
  arg.dst_addr = device.output<int32_t>(n);
  device.run(kernel_file, arg);
  auto got = device.download<int32_t>(arg.dst_addr, n);
  device.close();
  return rtlgen::verify(got, want);
}
