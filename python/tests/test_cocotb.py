"""cocotb (Icarus Verilog) runs a generated configurable hasher and a generated shared memory
with random traffic, every response scored against rtl_gen's golden models
(python/tests/cocotb_tbs/); the same benches fail on a block broken on purpose (one XOR of
the hash made an OR)."""

import json
import pathlib
import sys

import pytest
from cocotb_tools.check_results import get_results
from cocotb_tools.runner import get_runner

TBS = pathlib.Path(__file__).resolve().parent / "cocotb_tbs"


def generate(cli, out, *args):
    p = cli(*args, "--out", out, "--json")
    assert p.returncode == 0, p.stderr
    manifest = json.loads(p.stdout)
    return out / manifest["top"], manifest


def break_hash(path):
    """Makes the first XOR of a hash's output an OR (a wrong bank for some addresses)."""
    text = path.read_text()
    lines = text.splitlines(keepends=True)
    for i, line in enumerate(lines):
        if "assign" in line and " ^ " in line:
            lines[i] = line.replace(" ^ ", " | ", 1)
            path.write_text("".join(lines))
            return
    raise AssertionError(f"{path}: no XOR to break")


def run(folder, manifest, module, build, env):
    """Builds the block with Icarus and runs the cocotb module; (tests, failed)."""
    if str(TBS) not in sys.path:
        sys.path.insert(0, str(TBS))
    runner = get_runner("icarus")
    runner.build(
        sources=[folder / f for f in manifest["rtl_files"]],
        hdl_toplevel=manifest["top"],
        build_dir=build,
        timescale=("1ns", "1ps"),
        always=True,
    )
    try:
        runner.test(
            hdl_toplevel=manifest["top"],
            test_module=module,
            build_dir=build,
            test_dir=build,
            extra_env={k: str(v) for k, v in env.items()},
        )
    except SystemExit:
        # Under pytest, cocotb's runner exits when a test failed; its results file remains.
        pass
    (results,) = build.glob("*.result.xml")
    return get_results(results)


HASHERS = [
    ["--kind", "bitwise-xor", "--addr-bits", "14", "--banks", "32"],
    ["--kind", "bitvector-xor", "--addr-bits", "12", "--banks", "16"],
]


@pytest.mark.parametrize("args", HASHERS, ids=[a[1] for a in HASHERS])
def test_a_configurable_hasher_scores_against_the_model(cli, tmp_path, args):
    folder, manifest = generate(cli, tmp_path, "hash", *args, "--configurable")
    env = {"RTLGEN_MANIFEST": folder / f"{manifest['top']}.json"}
    assert run(folder, manifest, "hasher_tb", tmp_path / "sim", env) == (1, 0)
    break_hash(folder / manifest["rtl_files"][0])
    assert run(folder, manifest, "hasher_tb", tmp_path / "broken", env) == (1, 1)


def test_a_shared_memory_scores_against_the_cycle_model(cli, tmp_path):
    config = tmp_path / "hash.json"
    config.write_text(json.dumps(
        {"kind": "bitvector-xor", "addr_bits": 8, "banks": 8, "k1": 0, "k2": 3, "mask": 7}
    ))
    folder, manifest = generate(
        cli, tmp_path, "smem", "--lanes", "8", "--banks", "8", "--depth", "32", "--map", "hash",
        "--hash-config", config, "--fill-words", "2",
    )
    env = {"RTLGEN_MANIFEST": folder / f"{manifest['top']}.json", "RTLGEN_HASH": config}
    assert run(folder, manifest, "smem_tb", tmp_path / "sim", env) == (1, 0)
    hashers = [f for f in manifest["rtl_files"] if f.startswith("hash_")]
    break_hash(folder / hashers[0])
    assert run(folder, manifest, "smem_tb", tmp_path / "broken", env) == (1, 1)
