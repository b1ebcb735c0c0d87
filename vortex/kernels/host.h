// The host side of rtl-gen's Vortex kernels (vortex/kernels/): the device, its buffers, the
// launch and the check against the host's reference. Copied into each kernel's folder.
//
// Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file
// except in compliance with the License. You may obtain a copy of the License at
// http://www.apache.org/licenses/LICENSE-2.0

#ifndef RTLGEN_HOST_H
#define RTLGEN_HOST_H

#include <vortex.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace rtlgen {

// A Vortex device: opened at construction; its buffers freed and the device closed (which
// prints the performance counters) by `close` or at destruction.
class Device {
public:
  Device() { check(vx_dev_open(&device_), "vx_dev_open"); }
  ~Device() { close(); }

  uint64_t caps(uint32_t id) {
    uint64_t value = 0;
    check(vx_dev_caps(device_, id, &value), "vx_dev_caps");
    return value;
  }

  // Threads per warp.
  uint32_t threads() { return (uint32_t)caps(VX_CAPS_NUM_THREADS); }

  // Threads per core: the largest block.
  uint32_t threads_per_core() { return threads() * (uint32_t)caps(VX_CAPS_NUM_WARPS); }

  // The largest power-of-two side B of a square block (B x B threads on one core).
  uint32_t block_side() {
    uint32_t b = 1;
    while ((2 * b) * (2 * b) <= threads_per_core()) b *= 2;
    return b;
  }

  // Fails unless a block of `threads` threads may use `bytes` of local memory.
  void need_local(uint32_t threads, uint32_t bytes) {
    uint32_t max_local = 0;
    check(vx_check_occupancy(device_, threads, &max_local), "vx_check_occupancy");
    if (max_local < bytes) {
      printf("Error: a block needs %u bytes of local memory, %u are available\n", bytes,
             max_local);
      fail();
    }
  }

  // A device buffer holding `data`; its device address.
  template <typename T> uint64_t upload(const std::vector<T>& data) {
    uint64_t address = alloc(data.size() * sizeof(T), VX_MEM_READ);
    check(vx_copy_to_dev(buffers_.back(), data.data(), 0, data.size() * sizeof(T)),
          "vx_copy_to_dev");
    return address;
  }

  // A device buffer of `count` elements to write; its device address.
  template <typename T> uint64_t output(size_t count) {
    return alloc(count * sizeof(T), VX_MEM_WRITE);
  }

  // The contents of the buffer at `address` (from `upload` or `output`).
  template <typename T> std::vector<T> download(uint64_t address, size_t count) {
    std::vector<T> data(count);
    for (size_t i = 0; i < buffers_.size(); ++i) {
      if (addresses_[i] == address) {
        check(vx_copy_from_dev(data.data(), buffers_[i], 0, count * sizeof(T)),
              "vx_copy_from_dev");
        return data;
      }
    }
    printf("Error: no buffer at 0x%llx\n", (unsigned long long)address);
    fail();
    return data;
  }

  // Uploads the kernel and its argument, runs it and waits for it.
  template <typename Arg> void run(const char* kernel_file, const Arg& arg) {
    vx_buffer_h kernel = nullptr, args = nullptr;
    check(vx_upload_kernel_file(device_, kernel_file, &kernel), "vx_upload_kernel_file");
    buffers_.push_back(kernel);
    addresses_.push_back(0);
    check(vx_upload_bytes(device_, &arg, sizeof(Arg), &args), "vx_upload_bytes");
    buffers_.push_back(args);
    addresses_.push_back(0);
    check(vx_start(device_, kernel, args), "vx_start");
    check(vx_ready_wait(device_, VX_MAX_TIMEOUT), "vx_ready_wait");
  }

  void close() {
    for (auto buffer : buffers_) vx_mem_free(buffer);
    buffers_.clear();
    addresses_.clear();
    if (device_) vx_dev_close(device_);
    device_ = nullptr;
  }

  void check(int err, const char* what) {
    if (err != 0) {
      printf("Error: %s returned %d\n", what, err);
      fail();
    }
  }

  [[noreturn]] void fail() {
    close();
    printf("FAILED!\n");
    exit(1);
  }

private:
  uint64_t alloc(size_t bytes, int flags) {
    vx_buffer_h buffer = nullptr;
    uint64_t address = 0;
    check(vx_mem_alloc(device_, bytes, flags, &buffer), "vx_mem_alloc");
    check(vx_mem_address(buffer, &address), "vx_mem_address");
    buffers_.push_back(buffer);
    addresses_.push_back(address);
    return address;
  }

  vx_device_h device_ = nullptr;
  std::vector<vx_buffer_h> buffers_;
  std::vector<uint64_t> addresses_;
};

// Compares the device's result with the host's reference; prints the first mismatches, then
// PASSED! or FAILED!, and returns the exit status.
template <typename T> int verify(const std::vector<T>& got, const std::vector<T>& want) {
  size_t errors = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    if (i >= got.size() || got[i] != want[i]) {
      if (errors < 10) {
        printf("*** error: [%zu] expected=%lld, actual=%lld\n", i, (long long)want[i],
               i < got.size() ? (long long)got[i] : -1LL);
      }
      ++errors;
    }
  }
  if (errors != 0) {
    printf("Found %zu errors!\nFAILED!\n", errors);
    return 1;
  }
  printf("PASSED!\n");
  return 0;
}

// Fails with `message` unless `ok`.
inline void require(bool ok, const char* message) {
  if (!ok) {
    printf("Error: %s\nFAILED!\n", message);
    exit(1);
  }
}

// A deterministic pseudo-random 32-bit sequence (xorshift32).
class Random {
public:
  explicit Random(uint32_t seed) : state_(seed ? seed : 1) {}
  uint32_t next() {
    state_ ^= state_ << 13;
    state_ ^= state_ >> 17;
    state_ ^= state_ << 5;
    return state_;
  }

private:
  uint32_t state_;
};

} // namespace rtlgen

#endif
