"""One libCacheSim LRU pass over an oracleGeneral trace, for benches/anchors.rs.

Usage: bench-libcachesim.py TRACE CACHE_BYTES. Prints the wall seconds of process_trace (the
simulation alone: not the interpreter's start nor the import) and the request miss ratio.
"""
import sys
import time

import libcachesim as lcs

trace, cache_bytes = sys.argv[1], int(sys.argv[2])
reader = lcs.TraceReader(trace=trace, trace_type=lcs.TraceType.ORACLE_GENERAL_TRACE)
cache = lcs.LRU(cache_size=cache_bytes)
t0 = time.perf_counter()
miss_ratio, _byte_miss_ratio = cache.process_trace(reader)
print(time.perf_counter() - t0, miss_ratio)
