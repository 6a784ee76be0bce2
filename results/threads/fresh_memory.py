#!/usr/bin/env python3
"""Times writing one byte a page of fresh anonymous memory, three times in
a row, each time a new mapping of the same size freed after: the first
pays for memory the machine has not used lately, the others reuse what
the first touched.

    python3 results/threads/fresh_memory.py [MiB] [huge]

MiB defaults to 2048; `huge` asks for transparent huge pages
(MADV_HUGEPAGE), as patience's tables do.
"""

import mmap
import sys
import time

size = int(sys.argv[1] if len(sys.argv) > 1 else 2048) << 20
huge = len(sys.argv) > 2 and sys.argv[2] == "huge"
for round in range(3):
    m = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    if huge:
        m.madvise(mmap.MADV_HUGEPAGE)
    start = time.perf_counter()
    for at in range(0, size, 4096):
        m[at] = 1
    took = time.perf_counter() - start
    print(f"round {round}: {took:.2f} s, {size / took / 1e9:.2f} GB/s")
    m.close()
