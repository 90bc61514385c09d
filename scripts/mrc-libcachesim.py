"""libCacheSim's own LRU and Belady miss ratios on an oracleGeneral trace, for the test of
`reclaim mrc` (wasm-core/cli/tests/mrc.rs), which compares them with the engine's columns.

Usage: mrc-libcachesim.py TRACE SIZE... (cache sizes in objects). Each object counts as one
(ignore_obj_size, as the replay maps one object onto one page), requests of size 0 skipped
(libCacheSim's default). Prints one JSON object: {"lru": [ratio...], "opt": [ratio...]}, one
ratio a size, as process_trace returns it.
"""
import json
import sys

import libcachesim as lcs

trace, sizes = sys.argv[1], [int(s) for s in sys.argv[2:]]
params = lcs.ReaderInitParam()
params.ignore_obj_size = True
params.ignore_size_zero_req = True
reader = lcs.TraceReader(trace=trace, trace_type=lcs.TraceType.ORACLE_GENERAL_TRACE,
                         reader_init_params=params)
out = {"lru": [], "opt": []}
for size in sizes:
    for name, policy in (("lru", lcs.LRU), ("opt", lcs.Belady)):
        reader.reset()
        miss_ratio, _byte_miss_ratio = policy(cache_size=size).process_trace(reader)
        out[name].append(miss_ratio)
print(json.dumps(out))
