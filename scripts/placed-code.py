#!/usr/bin/env python3
"""Checks, on a built binary, that the sorting model's placed copies differ from each other and
from the linked sort in their address alone, so that `layout = "fixed"` and `layout = "random"`
time one machine code (models/sorting/sorts.hpp says why the sorts are defined [[gnu::flatten]]).

    scripts/placed-code.py BINARY          e.g. build/mcpilot; exit 1 when a check fails

For each sort with copies (placement_detail::placed<PAD, SORT>): there are 16; their
disassemblies (objdump -d) agree instruction for instruction once addresses, jump targets,
RIP-relative displacements and alignment no-ops are taken out; and the linked function differs
from them in at most MAX_APART instructions, besides the copy's opening jump over its padding.
Before the sorts were flattened, the linked quick-queue differed from its copies in 69 of 104
instructions (another register allocation; it took 8-15% longer), and the check fails on such a
binary. Instruction order around the opening jump may differ (insertion sort: 4 of 30).
Needs Python 3 and objdump (binutils).
"""
import difflib, re, subprocess, sys

COPIES = 16
MAX_APART = 6
PLACED = re.compile(r"void mcpilot::sorting::placement_detail::placed<(\d+), "
                    r"&\(void mcpilot::sorting::([a-z_]+<false>)\(")


def functions(binary):
    """{symbol: [instruction text]} for every function of the binary, demangled."""
    text = subprocess.run(["objdump", "-d", "--no-show-raw-insn", "-C", binary], check=True,
                          capture_output=True, text=True).stdout
    funcs, current = {}, None
    for line in text.split("\n"):
        head = re.match(r"^[0-9a-f]+ <(.*)>:$", line)
        if head:
            current = head.group(1)
            funcs[current] = []
        elif current is not None and ":" in line:
            funcs[current].append(line.split(":", 1)[1].strip())
    return funcs


def normalized(instructions):
    """The instructions without what placement changes: alignment no-ops, jump targets and
    RIP-relative displacements."""
    out = []
    for x in instructions:
        if not x or "nop" in x or x.startswith("xchg   %ax,%ax") or x == "(bad)":
            continue
        x = re.sub(r"\s+[0-9a-f]+ <.*$", "", x)
        out.append(re.sub(r"-?0x[0-9a-f]+\(%rip\)", "RIP", x))
    return out


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    funcs = functions(sys.argv[1])
    copies = {}
    for symbol, body in funcs.items():
        m = PLACED.match(symbol)
        if m:
            copies.setdefault(m.group(2), []).append(normalized(body))
    if not copies:
        print(f"placed-code: no placed copies in {sys.argv[1]}")
        return 1
    failed = False
    for sort, bodies in sorted(copies.items()):
        linked = [s for s in funcs if s.startswith(f"void mcpilot::sorting::{sort}(")]
        distinct = {tuple(b) for b in bodies}
        problem = None
        if len(bodies) != COPIES:
            problem = f"{len(bodies)} copies, not {COPIES}"
        elif len(distinct) != 1:
            problem = f"the copies are {len(distinct)} different codes"
        elif not linked:
            problem = "no linked function"
        else:
            copy = list(bodies[0])
            if "jmp" in copy:
                copy.remove("jmp")  # the opening jump over the padding
            code = normalized(funcs[linked[0]])
            matcher = difflib.SequenceMatcher(a=code, b=copy, autojunk=False)
            apart = sum(max(i2 - i1, j2 - j1) for tag, i1, i2, j1, j2 in matcher.get_opcodes()
                        if tag != "equal")
            verdict = "ok" if apart <= MAX_APART else "FAILS"
            print(f"{sort}: {len(bodies)} copies, one code; linked {len(code)} instructions, "
                  f"copy {len(copy)}, {apart} apart: {verdict}")
            if apart > MAX_APART:
                problem = f"the linked function differs from its copies in {apart} instructions"
        if problem:
            print(f"{sort}: {problem}")
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
