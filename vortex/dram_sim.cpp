// Copyright © 2019-2023
// Copyright © 2025 the rtl-gen authors
//
// Licensed under the Apache License, Version 2.0 (the "License");
// you may not use this file except in compliance with the License.
// You may obtain a copy of the License at
// http://www.apache.org/licenses/LICENSE-2.0
//
// Unless required by applicable law or agreed to in writing, software
// distributed under the License is distributed on an "AS IS" BASIS,
// WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
// See the License for the specific language governing permissions and
// limitations under the License.
//
// rtl-gen: a fixed-latency memory model in place of Vortex's sim/common/dram_sim.cpp (the only
// user of ramulator2, whose build takes about 17 CPU-minutes and downloads three repositories).
// Same interface (dram_sim.h): every request is accepted when it is sent; a read is answered
// DRAM_LATENCY ticks later, a write on the next tick (Vortex's ramulator front end, too, answers
// a write as soon as it takes it). Bandwidth is bounded by the callers, which send at most one
// request per memory bank a tick.

#include "dram_sim.h"
#include <cstdint>
#include <queue>

#ifndef DRAM_LATENCY
#define DRAM_LATENCY 100
#endif

using namespace vortex;

class DramSim::Impl {
private:
	struct mem_req_t {
		uint64_t ready;
		ResponseCallback callback;
		void* arg;
	};

	uint64_t cycle_;
	// Requests in the order they answer: reads all wait the same latency, so the queue's head
	// answers first (a write, answered a tick after it is sent, is queued in its own FIFO).
	std::queue<mem_req_t> reads_;
	std::queue<mem_req_t> writes_;

	static void answer(std::queue<mem_req_t>& queue, uint64_t cycle) {
		while (!queue.empty() && queue.front().ready <= cycle) {
			auto req = queue.front();
			queue.pop();
			if (req.callback)
				req.callback(req.arg);
		}
	}

public:
	Impl(uint32_t /*num_channels*/, uint32_t /*channel_size*/, float /*clock_ratio*/) {
		this->reset();
	}

	void reset() {
		cycle_ = 0;
		reads_ = std::queue<mem_req_t>();
		writes_ = std::queue<mem_req_t>();
	}

	void tick() {
		++cycle_;
		answer(writes_, cycle_);
		answer(reads_, cycle_);
	}

	void send_request(uint64_t /*addr*/, bool is_write, ResponseCallback callback, void* arg) {
		if (is_write) {
			writes_.push({cycle_ + 1, callback, arg});
		} else {
			reads_.push({cycle_ + DRAM_LATENCY, callback, arg});
		}
	}
};

///////////////////////////////////////////////////////////////////////////////

DramSim::DramSim(uint32_t num_channels, uint32_t channel_size, float clock_ratio)
	: impl_(new Impl(num_channels, channel_size, clock_ratio))
{}

DramSim::~DramSim() {
  delete impl_;
}

void DramSim::reset() {
  impl_->reset();
}

void DramSim::tick() {
  impl_->tick();
}

void DramSim::send_request(uint64_t addr, bool is_write, ResponseCallback callback, void* arg) {
  impl_->send_request(addr, is_write, callback, arg);
}
