#ifndef _COMMON_H_
#define _COMMON_H_

#include <stdint.h>

typedef struct {
  uint32_t grid_dim[2];
  uint32_t block_dim[2];
  uint32_t n;     // matrix side
  uint32_t tile;  // tile side, a multiple of the block side
  uint64_t src_addr;
  uint64_t dst_addr;
} kernel_arg_t;

#endif
