#ifndef _COMMON_H_
#define _COMMON_H_

#include <stdint.h>

typedef struct {
  uint32_t grid_dim[1];
  uint32_t block_dim[1];
  uint32_t per_thread;  // elements per thread
  uint32_t bins;        // a power of two, at most the block's threads
  uint64_t src_addr;
  uint64_t dst_addr;
} kernel_arg_t;

#endif
