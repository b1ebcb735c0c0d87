#ifndef _COMMON_H_
#define _COMMON_H_

#include <stdint.h>

// A tile of TILE x TILE outputs reads a (TILE + 2) x PITCH window of the input into local
// memory (a power-of-two row pitch, as a `tile[TILE + 2][PITCH]` array has).
#define TILE 16
#define PITCH 32

typedef struct {
  uint32_t grid_dim[2];
  uint32_t block_dim[2];  // every thread of a core, x 1
  uint32_t n;         // output side
  uint32_t in_pitch;  // input row pitch in words: n + PITCH
  uint64_t src_addr;
  uint64_t dst_addr;
} kernel_arg_t;

#endif
