"""cocotb testbench of a generated configurable hasher (`rtl-gen hash --configurable`): random
configurations written to cfg_i, random addresses on addr_i, every bank_o scored against
rtl_gen.Hasher, the golden model. The manifest's path is in RTLGEN_MANIFEST."""

import json
import os
import random

import cocotb
from cocotb.triggers import Timer

import rtl_gen

CONFIGS = int(os.environ.get("RTLGEN_CONFIGS", "16"))
ADDRESSES = int(os.environ.get("RTLGEN_ADDRESSES", "64"))


@cocotb.test()
async def random_configurations_and_addresses(dut):
    manifest = json.loads(open(os.environ["RTLGEN_MANIFEST"]).read())
    config = manifest["configuration"]
    kind, n, banks = config["kind"], config["addr_bits"], config["banks"]
    fields = manifest["fields"]["cfg_i"]
    rng = random.Random(int(os.environ.get("RTLGEN_SEED", "1")))
    checked, failed = 0, 0
    for _ in range(CONFIGS):
        golden = rtl_gen.Hasher.random(kind, n, banks, seed=rng.getrandbits(32))
        # cfg_i packs the hasher's parameters in order, each at its field's lsb.
        dut.cfg_i.value = sum(v << f["lsb"] for v, f in zip(golden.parameters, fields))
        addresses = [rng.getrandbits(n) for _ in range(ADDRESSES)]
        for address, expected in zip(addresses, golden.bank(addresses)):
            dut.addr_i.value = address
            await Timer(1, unit="ns")
            got = int(dut.bank_o.value)
            checked += 1
            if got != expected:
                failed += 1
                if failed <= 5:
                    dut._log.error(f"{golden!r}: address {address:#x}: bank {got}, expected {expected}")
    dut._log.info(f"{checked - failed} passed, {failed} failed")
    assert failed == 0, f"{failed} of {checked} banks differ from rtl_gen.Hasher"
