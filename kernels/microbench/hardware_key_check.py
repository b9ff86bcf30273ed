"""The `--check` of the fit scripts: do the hardware files carry the fitted value?"""
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def exit_unless_carried(paths, key, value):
    """Exits 1 naming each file whose `key` match (group 1) is not `value`."""
    stale = []
    for path in paths:
        with open(os.path.join(REPO, path), encoding="utf-8") as f:
            found = key.search(f.read())
        if not found or float(found.group(1)) != value:
            stale.append(f"{path}: {found.group(1) if found else 'no key'}")
    if stale:
        print("not the fit: " + "; ".join(stale), file=sys.stderr)
        sys.exit(1)
