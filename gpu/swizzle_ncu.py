#!/usr/bin/env python3
"""Compacts the raw CSV of `ncu --csv --page raw` into one row per profiled launch, in launch
order: launch, kernel and the shared-memory counters swizzle_run.sh asks for, under short names.
Usage: swizzle_ncu.py <raw.csv>  (prints the compact CSV)"""
import csv
import sys

SHORT = {
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum": "ld_wavefronts",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum": "st_wavefronts",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum": "ldsm_wavefronts",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum": "ldgsts_wavefronts",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum": "ld_bank_conflicts",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum": "st_bank_conflicts",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum": "ldsm_bank_conflicts",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum": "ldgsts_bank_conflicts",
    "smsp__sass_inst_executed_op_shared_ld.sum": "ld_instructions",
    "smsp__sass_inst_executed_op_shared_st.sum": "st_instructions",
    "smsp__sass_inst_executed_op_ldsm.sum": "ldsm_instructions",
    "smsp__sass_inst_executed_op_ldgsts.sum": "ldgsts_instructions",
}

rows = list(csv.reader(line for line in open(sys.argv[1]) if not line.startswith("==")))
start = next(i for i, r in enumerate(rows) if r and r[0] == "ID")
header = rows[start]
columns = [(SHORT[h], i) for i, h in enumerate(header) if h in SHORT]
kernel = header.index("Kernel Name")
print(",".join(["launch", "kernel"] + [name for name, _ in columns]))
for r in rows[start + 1:]:
    if not r or not r[0].isdigit():
        continue  # the units row
    values = [r[i].replace(",", "") for _, i in columns]
    print(",".join([r[0], r[kernel].split("(")[0].replace(",", ";")] + values))
