#!/usr/bin/env python3
"""Compare the SASS of every kernel in two binaries (cuobjdump -sass dumps),
kernel by kernel: matched by mangled name with the per-path hash of anonymous
namespaces (_GLOBAL__N__<hash>_..._<hash>) blanked in both, addresses and
encodings dropped. Prints identical / differing / only-old / only-new counts
and the names of any that are not identical."""
import re
import sys


def kernels(path):
    text = open(path).read()
    parts = re.split(r'\n\s*Function : (\S+)\n', text)
    out = {}
    for i in range(1, len(parts), 2):
        body = parts[i + 1].split('\n\t\t..........')[0]
        lines = [re.sub(r'/\*[0-9a-f]{4,}\*/', '', l).strip() for l in body.split('\n')]
        name = re.sub(r'_GLOBAL__N__[0-9a-f]{8}_(\d+\w*?)_[0-9a-f]{8}', r'_GLOBAL__N__X_\1_X',
                      parts[i])
        out[name] = [l for l in lines if l]
    return out


old = kernels(sys.argv[1])
new = kernels(sys.argv[2])
same = [n for n in old if n in new and old[n] == new[n]]
diff = [n for n in old if n in new and old[n] != new[n]]
gone = [n for n in old if n not in new]
added = [n for n in new if n not in old]
lines = sum(len(old[n]) for n in same)
print(f"kernels: {len(same)} identical ({lines} lines), {len(diff)} differing, "
      f"{len(gone)} only in old, {len(added)} only in new")
for label, names in (("DIFFERING", diff), ("ONLY OLD", gone), ("ONLY NEW", added)):
    for n in names:
        print(label, n)
