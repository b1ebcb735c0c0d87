"""cocotb testbench of a generated shared memory (`rtl-gen smem --map hash`): random warp
accesses (reads and writes, random lanes, byte enables and addresses from a small window, so
that they conflict and read what earlier ones wrote), random fill beats and random
back-pressure, every output of every cycle scored against rtl_gen.SharedMemory, the cycle model.
RTLGEN_MANIFEST names the block's manifest, RTLGEN_HASH its hash configuration."""

import json
import os
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge

import rtl_gen

CYCLES = int(os.environ.get("RTLGEN_CYCLES", "400"))


def value(signal):
    """A signal's value as an int, or its text when a bit is X or Z (which then mismatches)."""
    try:
        return int(signal.value)
    except ValueError:
        return str(signal.value)


def pack(values, width):
    return sum(v << (i * width) for i, v in enumerate(values))


def unpack(value, width, count):
    return [(value >> (i * width)) & ((1 << width) - 1) for i in range(count)]


@cocotb.test()
async def random_traffic(dut):
    manifest = json.loads(open(os.environ["RTLGEN_MANIFEST"]).read())
    ports = {p["name"]: p["width"] for p in manifest["ports"]}
    lanes = ports["req_mask_i"]
    addr_bits = ports["req_addr_i"] // lanes
    word_bits = ports["req_wdata_i"] // lanes
    fill_words = ports["fill_mask_i"]
    hasher = rtl_gen.Hasher.from_json(open(os.environ["RTLGEN_HASH"]).read())
    banks = hasher.banks
    model = rtl_gen.SharedMemory(lanes, banks, (1 << addr_bits) // banks, word_bytes=word_bits // 8,
                                 map=hasher, fill_words=fill_words)
    rng = random.Random(int(os.environ.get("RTLGEN_SEED", "1")))
    window = min(1 << addr_bits, 4 * banks)

    def access(count, write):
        return rtl_gen.Access(
            [rng.randrange(window) for _ in range(count)],
            write=write,
            data=[rng.getrandbits(word_bits) for _ in range(count)],
            byte_enables=[rng.getrandbits(word_bits // 8) for _ in range(count)],
            active=[rng.random() < 0.8 for _ in range(count)],
        )

    cocotb.start_soon(Clock(dut.clk_i, 10, unit="ns").start())
    for name in ["req_valid_i", "fill_valid_i", "resp_ready_i", "req_write_i", "req_mask_i",
                 "req_addr_i", "req_wdata_i", "req_be_i", "fill_mask_i", "fill_addr_i",
                 "fill_data_i", "fill_be_i"]:
        getattr(dut, name).value = 0
    dut.rst_ni.value = 0
    for _ in range(2):
        await RisingEdge(dut.clk_i)
    await FallingEdge(dut.clk_i)
    dut.rst_ni.value = 1
    # The banks power up undefined (X in simulation), the model's unwritten words read 0: the
    # first cycles write 0 to every word of the window, lanes at a time, then the random traffic.
    clear = [
        rtl_gen.Access([(base + i) % window for i in range(lanes)], write=True, data=[0] * lanes,
                       byte_enables=[(1 << (word_bits // 8)) - 1] * lanes)
        for base in range(0, window, lanes)
    ]
    checked, failed = 0, 0
    for cycle in range(len(clear) + 4 + CYCLES):
        if cycle < len(clear):
            request, fill, resp_ready = clear[cycle], None, True
        elif cycle < len(clear) + 4:
            request, fill, resp_ready = None, None, True
        else:
            request = access(lanes, rng.random() < 0.4) if rng.random() < 0.7 else None
            fill = access(fill_words, True) if rng.random() < 0.2 else None
            resp_ready = rng.random() < 0.8
        dut.req_valid_i.value = request is not None
        if request is not None:
            dut.req_write_i.value = request.write
            dut.req_mask_i.value = pack(request.active, 1)
            dut.req_addr_i.value = pack(request.addresses, addr_bits)
            dut.req_wdata_i.value = pack(request.data, word_bits)
            dut.req_be_i.value = pack(request.byte_enables, word_bits // 8)
        dut.fill_valid_i.value = fill is not None
        if fill is not None:
            dut.fill_mask_i.value = pack(fill.active, 1)
            dut.fill_addr_i.value = pack(fill.addresses, addr_bits)
            dut.fill_data_i.value = pack(fill.data, word_bits)
            dut.fill_be_i.value = pack(fill.byte_enables, word_bits // 8)
        dut.resp_ready_i.value = resp_ready
        await ReadOnly()
        expected = model.step(request, fill, resp_ready)
        got = {
            "req_ready": value(dut.req_ready_o) == 1,
            "fill_ready": value(dut.fill_ready_o) == 1,
            "resp_valid": value(dut.resp_valid_o) == 1,
            "resp_write": value(dut.resp_write_o) == 1 and value(dut.resp_valid_o) == 1,
            "resp_data": value(dut.resp_rdata_o),
            "counters": (value(dut.cnt_accesses_o), value(dut.cnt_fills_o),
                         value(dut.cnt_bank_cycles_o), value(dut.cnt_conflict_cycles_o)),
        }
        want = {k: getattr(expected, k) for k in got}
        want["resp_write"] = want["resp_write"] and want["resp_valid"]
        want["counters"] = tuple(want["counters"])
        if isinstance(got["resp_data"], int):
            got["resp_data"] = unpack(got["resp_data"], word_bits, lanes)
        checked += 1
        if got != want:
            failed += 1
            if failed <= 5:
                diff = {k: (got[k], want[k]) for k in got if got[k] != want[k]}
                dut._log.error(f"cycle {cycle}: (RTL, model) differ: {diff}")
        await FallingEdge(dut.clk_i)
    dut._log.info(f"{checked - failed} passed, {failed} failed")
    assert failed == 0, f"{failed} of {checked} cycles differ from rtl_gen.SharedMemory"
