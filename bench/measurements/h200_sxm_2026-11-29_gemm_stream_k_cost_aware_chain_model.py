#!/usr/bin/env python3
"""Why the cost-aware split lost (hopper23): a chain model of head-first
Stream-K from hopper22's per-phase trace (SM cycles, 128x192 tiles at 1536^3;
bench/measurements/h200_sxm_2026-11-28_gemm_stream_k_phases_NOTES.md).

Each CTA: fill, then its segments from its top tile down (a head piece is a
peer: flag wait + partial store + release; a tail piece finishes: it waits for
the tile's peers, reads their partial and stores C; a whole tile stores C).
A tile is done at max(finisher's arrival, its peers' stores) + read + C.
Prints the kernel's end (cycles) for the even split, the cost-aware split
(c = 7 for 128x192, 6 for 128x256) and the best split a greedy search finds
under the same model: no split gains more than ~3% at these shapes.
"""

FILL, SWITCH = 3200, 1400


def phase_costs(partial_bytes):
    """Peer end (barrier 0.7 K, store at 33 B/clk, release 1.1 K), the
    finisher's read (57 B/clk) and C's store (bf16, ~25 B/clk): 4.7, 1.7 and
    1.9 K cycles for a 96 KiB partial, as traced."""
    global PEER_END, READ, EPILOGUE
    PEER_END = 700 + partial_bytes / 33 + 1100
    READ = partial_bytes / 57
    EPILOGUE = partial_bytes / 2 / 25


def virtual_split(tiles, k, units, cost):
    """The kernel's and the model's split: c virtual iterations per boundary."""
    stride = k + cost
    total = tiles * stride - cost

    def first(u):
        v = u * total // units
        t = v // stride
        return t * k + min(v - t * stride, k)

    return [(first(u), first(u + 1)) for u in range(units)]


def segments(b, e, k):
    top = e
    while top > b:
        t = (top - 1) // k
        kb = max(b, t * k) - t * k
        yield t, kb, top - t * k
        top = t * k + kb


def kernel_end(parts, k, iteration):
    peers, finishers, ends = {}, {}, []
    for b, e in parts:
        now = FILL
        for i, (t, kb, ke) in enumerate(segments(b, e, k)):
            now += (SWITCH if i else 0) + (ke - kb) * iteration
            if kb == 0 and ke == k:
                now += EPILOGUE
                ends.append(now)
            elif ke == k:
                finishers[t] = now
            else:
                now += PEER_END
                peers.setdefault(t, []).append(now)
    for t, arrival in finishers.items():
        ends.append(max([arrival] + peers.get(t, [])) + READ + EPILOGUE)
    return max(ends)


def chain_cost(b, e, k, iteration):
    """A CTA's own time plus, for a lone peer piece, its finisher's read + C."""
    now, pieces = FILL, list(segments(b, e, k))
    for i, (t, kb, ke) in enumerate(pieces):
        now += (SWITCH if i else 0) + (ke - kb) * iteration
        if kb == 0 and ke == k:
            now += EPILOGUE
        elif ke == k:
            now += READ + EPILOGUE
        else:
            now += PEER_END + (READ + EPILOGUE if len(pieces) == 1 else 0)
    return now


def greedy_split(tiles, k, units, iteration):
    total = tiles * k
    for bound in range(10000, 400000, 100):
        pos, parts = 0, []
        while pos < total and len(parts) < units:
            e = pos + 1
            while e < total and chain_cost(pos, e + 1, k, iteration) <= bound:
                e += 1
            parts.append((pos, e))
            pos = e
        if pos >= total:
            return parts
    return None


N192 = (780, 7, 128 * 192 * 4)  # cycles per k-block, cost c, partial bytes per CTA
N256 = (1040, 6, 128 * 256 * 4)
SHAPES = [  # name, Stream-K tiles, k-blocks, clusters, tile
    ("1536^3 128x192", 48, 24, 66, N192),
    ("3072x3072x4096 128x256", 78, 64, 66, N256),
    ("4096^3 128x256", 124, 64, 66, N256),
    ("2304x2304x2048 128x192", 108, 32, 66, N192),
    ("2560x2560x3072 128x256", 100, 48, 66, N256),
    ("1792x1792x2560 128x192", 70, 40, 66, N192),
]

if __name__ == "__main__":
    for name, tiles, k, units, (iteration, cost, partial_bytes) in SHAPES:
        phase_costs(partial_bytes)
        even = kernel_end(virtual_split(tiles, k, units, 0), k, iteration)
        aware = kernel_end(virtual_split(tiles, k, units, cost), k, iteration)
        best = kernel_end(greedy_split(tiles, k, units, iteration), k, iteration)
        print(f"{name:24s} even {even:6.0f}  cost-aware {aware:6.0f} ({aware / even - 1:+.1%})"
              f"  best found {best:6.0f} ({best / even - 1:+.1%})")
