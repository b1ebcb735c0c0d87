// histogram: the host side. -n elements (default 4096), -b bins (default 16, a power of two
// up to the threads per core), -p elements per thread (default 16). Values come in runs of 64
// equal bins, one in four drawn at random (an image's regions and noise).
#include <unistd.h>
#include "host.h"
#include "common.h"

int main(int argc, char** argv) {
  uint32_t n = 4096, bins = 16, per_thread = 16;
  const char* kernel_file = "kernel.vxbin";
  for (int c; (c = getopt(argc, argv, "n:b:p:k:")) != -1;) {
    if (c == 'n') n = atoi(optarg);
    else if (c == 'b') bins = atoi(optarg);
    else if (c == 'p') per_thread = atoi(optarg);
    else if (c == 'k') kernel_file = optarg;
    else rtlgen::require(false, "usage: histogram [-n elements] [-b bins] [-p per-thread] [-k kernel]");
  }
  rtlgen::Device device;
  uint32_t bs = device.threads_per_core();
  rtlgen::require(bins > 0 && (bins & (bins - 1)) == 0 && bins <= bs,
                  "-b must be a power of two up to the threads per core");
  rtlgen::require(per_thread > 0 && n % (bs * per_thread) == 0,
                  "-n must be a multiple of the threads per core times -p");
  device.need_local(bs, bs * bins * sizeof(int32_t));
  printf("histogram: %u elements, %u bins, block %u\n", n, bins, bs);

  std::vector<uint32_t> src(n);
  std::vector<int32_t> want(bins, 0);
  rtlgen::Random random(11);
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t r = random.next();
    src[i] = (r & 3) == 0 ? (r >> 8) : ((i >> 6) * 7);
    want[src[i] & (bins - 1)] += 1;
  }

  uint32_t blocks = n / (bs * per_thread);
  kernel_arg_t arg = {};
  arg.grid_dim[0] = blocks;
  arg.block_dim[0] = bs;
  arg.per_thread = per_thread;
  arg.bins = bins;
  arg.src_addr = device.upload(src);
  arg.dst_addr = device.output<int32_t>(blocks * bs);
  device.run(kernel_file, arg);
  auto parts = device.download<int32_t>(arg.dst_addr, blocks * bs);
  device.close();
  std::vector<int32_t> got(bins, 0);
  for (uint32_t i = 0; i < blocks * bs; ++i) got[i % bins] += parts[i];
  return rtlgen::verify(got, want);
}
