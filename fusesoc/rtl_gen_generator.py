"""rtl-gen's FuseSoC generator: runs the rtl-gen command a core's `generate:` parameters name,
writing the block folder (with its FuseSoC core, which FuseSoC then uses) into the generator's
working folder. See rtl-gen.core for the parameters and docs/FLOWS.md for an example."""

import os
import shutil
import subprocess
import sys

import yaml

# Flags the generator sets itself.
OWN_FLAGS = ("out", "force", "json")


def rtl_gen():
    """The rtl-gen executable: $RTL_GEN, rtl-gen on PATH, or this checkout's release build."""
    if os.environ.get("RTL_GEN"):
        return os.environ["RTL_GEN"]
    found = shutil.which("rtl-gen")
    if found:
        return found
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.join(here, "..", "target", "release", "rtl-gen")


def flag_args(name, value):
    """The command-line words of parameter `name` = `value`."""
    if value is True:
        return ["--" + name]
    if value is False or value is None:
        return []
    if isinstance(value, list):
        value = ",".join(str(v) for v in value)
    return ["--" + name, str(value)]


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        request = yaml.safe_load(f)
    parameters = dict(request.get("parameters") or {})
    command = parameters.pop("command", None)
    if not command:
        sys.exit("rtl-gen generator: parameter `command` missing; allowed: hash, rap, d2ma <unit>")
    for name in OWN_FLAGS:
        if name in parameters:
            sys.exit(f"rtl-gen generator: parameter `{name}` is the generator's own; remove it")
    args = [rtl_gen()] + str(command).split()
    for name, value in parameters.items():
        args += flag_args(name, value)
    args += ["--out", os.getcwd()]
    sys.exit(subprocess.run(args, check=False).returncode)


if __name__ == "__main__":
    main()
