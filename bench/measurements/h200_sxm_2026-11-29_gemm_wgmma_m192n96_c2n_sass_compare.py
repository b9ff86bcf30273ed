#!/usr/bin/env python3
"""Compare per-kernel SASS of two binaries (cuobjdump -sass dumps): kernels
matched by mangled name, hopper26's seventh WgmmaTileConfig argument
(kClusterN, 1 by default) removed from the new names and the per-path hash of
anonymous namespaces (_GLOBAL__N__<hash>_..._<hash>) blanked in both; reports
identical / differing / new."""
import re, sys

def kernels(path):
    text = open(path).read()
    parts = re.split(r'\n\s*Function : (\S+)\n', text)
    out = {}
    for i in range(1, len(parts), 2):
        body = parts[i + 1]
        body = body.split('\n\t\t..........')[0]
        lines = [re.sub(r'/\*[0-9a-f]{4,}\*/', '', l).strip() for l in body.split('\n')]
        name = re.sub(r'_GLOBAL__N__[0-9a-f]{8}_(\d+\w*?)_[0-9a-f]{8}', r'_GLOBAL__N__X_\1_X', parts[i])
        out[name] = [l for l in lines if l]
    return out

old = kernels(sys.argv[1])
new_raw = kernels(sys.argv[2])
new = {}
for name, body in new_raw.items():
    norm = re.sub(r'(WgmmaTileConfigILi\d+ELi\d+ELi\d+ELb[01]ELi\d+ELi\d+E)Li1EE', r'\1E', name)
    new[norm] = body
same = [n for n in old if n in new and old[n] == new[n]]
diff = [n for n in old if n in new and old[n] != new[n]]
gone = [n for n in old if n not in new]
added = [n for n in new if n not in old]
print(f"old kernels {len(old)}, new kernels {len(new)}: identical {len(same)}, differing {len(diff)}, "
      f"missing in new {len(gone)}, only in new {len(added)}")
print(f"lines compared: {sum(len(old[n]) for n in same + diff)}")
for n in diff[:20]: print("DIFFERS", n)
for n in gone[:20]: print("MISSING", n)
for n in added:
    ldl = sum(1 for l in new[n] if 'LDL' in l or 'STL' in l)
    hg = sum(1 for l in new[n] if 'HGMMA' in l)
    ub = sum(1 for l in new[n] if 'UBLKCP' in l or 'UTMALDG' in l)
    print("NEW", n[:150], "instructions", len(new[n]), "LDL/STL", ldl, "HGMMA", hg, "TMA loads", ub)
