#!/usr/bin/env python3
"""How many rounds of dependent loads the gathered (unaligned) main loop waits on.

Reads a `cuobjdump --dump-sass` text of the mma.sync kernels' kVectorLoads =
false builds (kernels/gemm/gemm_mainloop.cuh: each thread gathers its 16-byte
chunks of a k-block with eight guarded 2-byte loads each, LDG.E.U16, and
stores each chunk to shared memory, STS.128). In every build the main loop's
gather of the next k-block comes before the k-block's MMAs, so the last
`--stage-loads` LDG.E.U16 and `--stage-chunks` STS.128 before the first HMMA
are the loop's stage. Each build's stage is replayed in order, one
instruction a cycle, with every global load taking `latency` cycles: an
instruction that reads (or overwrites) a register a load has not returned
waits for it. Rounds = replayed cycles / latency; bytes in flight per thread
= the stage's bytes per thread / rounds (what the model's
unaligned_bytes_in_flight_per_thread means).

  python3 bench/sass_gather_rounds.py sass.txt --function 'TileConfigILi256ELi128ELi64ELi4ELi2ELi3ELi1ELb1EEE13__nv_bfloat16S5_'
"""

import argparse
import re

REGISTER = re.compile(r"\bR(\d+)(\.64)?\b")
INSTRUCTION = re.compile(r"/\*[0-9a-f]{4,}\*/\s+([^;]*);")
SCHEDULER = re.compile(r"NS1_\d+(\w+?Scheduler)")
LOCAL_LOAD_CYCLES = 30  # spill reloads hit L1


def registers(text):
    found = []
    for number, wide in REGISTER.findall(text):
        found.append(int(number))
        if wide:
            found.append(int(number) + 1)
    return found


def operands(instruction):
    """(opcode, registers read, registers written) of one SASS instruction."""
    match = re.match(r"(@!?U?P\w+\s+)?(\S+)\s*(.*)", instruction)
    opcode, args = match.group(2), match.group(3)
    if opcode.startswith(("ST", "RED", "ATOM")):
        return opcode, registers(args), []
    written, _, read = args.partition(",")
    return opcode, registers(read), registers(written)


def loop_stage(instructions, stage_loads, stage_chunks):
    first_mma = next(i for i, op in enumerate(instructions) if op.startswith("HMMA"))
    loads = [i for i, op in enumerate(instructions[:first_mma]) if "LDG.E.U16" in op]
    stores = [i for i, op in enumerate(instructions[:first_mma]) if op.startswith("STS.128")]
    return loads[-stage_loads], stores[-stage_chunks:][-1]


def replay_cycles(instructions, first, last, latency):
    returns_at = {}  # register -> cycle its load's data arrives
    cycle = 0
    for instruction in instructions[first:last + 1]:
        opcode, read, written = operands(instruction)
        cycle = max([cycle] + [returns_at.get(r, 0) for r in read + written]) + 1
        for r in written:
            returns_at.pop(r, None)
        if opcode.startswith("LDG"):
            returns_at.update({r: cycle + latency for r in written})
        elif opcode.startswith("LDL"):
            returns_at.update({r: cycle + LOCAL_LOAD_CYCLES for r in written})
    return max([cycle] + list(returns_at.values()))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("sass")
    parser.add_argument("--function", required=True, help="a substring of the mangled names")
    parser.add_argument("--stage-loads", type=int, default=96, help="LDG.E.U16 a k-block")
    parser.add_argument("--stage-chunks", type=int, default=12, help="STS.128 a k-block")
    parser.add_argument("--latency", type=int, nargs="+", default=[300, 500, 700, 1000])
    args = parser.parse_args()
    with open(args.sass, encoding="utf-8") as f:
        functions = re.split(r"\n\s*Function : ", f.read())[1:]
    stage_bytes = args.stage_chunks * 16
    for function in functions:
        name = function.split("\n", 1)[0]
        if args.function not in name or "Lb0EEEv" not in name:
            continue
        instructions = INSTRUCTION.findall(function)
        first, last = loop_stage(instructions, args.stage_loads, args.stage_chunks)
        stage = instructions[first:last + 1]
        spills = sum(1 for op in stage if re.match(r"(@!?P\w+\s+)?[LS]TL", op))
        moves = sum(1 for op in stage if "R2UR" in op)
        cells = []
        for latency in args.latency:
            rounds = replay_cycles(instructions, first, last, latency) / latency
            cells.append(f"{latency} cyc: {rounds:.2f} rounds, {stage_bytes / rounds:.1f} B")
        print(f"{SCHEDULER.search(name).group(1)}: stage {last - first + 1} instructions, "
              f"{spills} local loads/stores, {moves} R2UR; " + "; ".join(cells))


if __name__ == "__main__":
    main()
