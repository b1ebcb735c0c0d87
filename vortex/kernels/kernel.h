// The device side of rtl-gen's Vortex kernels (vortex/kernels/). Copied into each kernel's
// folder.
//
// GCC inserts no split/join for divergent branches (Vortex's LLVM would): every branch of these
// kernels is warp-uniform, every loop's trip count the same for all threads of a warp.
//
// Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file
// except in compliance with the License. You may obtain a copy of the License at
// http://www.apache.org/licenses/LICENSE-2.0

#ifndef RTLGEN_KERNEL_H
#define RTLGEN_KERNEL_H

#include <vx_spawn.h>

// A block-wide barrier that is also a compiler barrier: Vortex's vx_barrier tells GCC nothing
// about memory, so local-memory values could otherwise stay in registers across it.
#define RTLGEN_SYNC()                      \
  do {                                     \
    __asm__ volatile("" ::: "memory");     \
    __syncthreads();                       \
    __asm__ volatile("" ::: "memory");     \
  } while (0)

#endif
