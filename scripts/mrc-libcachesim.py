"""libCacheSim's own LRU and Belady miss ratios on a trace, for the test of
`reclaim mrc` (wasm-core/cli/tests/mrc.rs), which compares them with the engine's columns.

Usage: mrc-libcachesim.py TRACE SIZE... (cache sizes in objects). TRACE is oracleGeneral, or
CSV `time,id,size` with a header when its name ends in .csv: libCacheSim reads that with its CSV
reader and writes it as oracleGeneral itself (convert_to_oracleGeneral, which computes each
request's next access, as Belady needs) to a temporary file first. Each object counts as one
(ignore_obj_size, as the replay maps one object onto one page), requests of size 0 skipped
(libCacheSim's default). Prints one JSON object: {"lru": [ratio...], "opt": [ratio...]}, one
ratio a size, as process_trace returns it, each as a string (Python's repr, the shortest text
that reads back to the same double: a JSON reader's number parsing may round the last bit).
"""
import json
import os
import sys
import tempfile

import libcachesim as lcs

trace, sizes = sys.argv[1], [int(s) for s in sys.argv[2:]]
converted = None
if trace.endswith(".csv"):
    csv = lcs.ReaderInitParam()
    csv.time_field, csv.obj_id_field, csv.obj_size_field = 1, 2, 3
    csv.has_header, csv.delimiter, csv.obj_id_is_num = True, ",", True
    src = lcs.TraceReader(trace=trace, trace_type=lcs.TraceType.CSV_TRACE, reader_init_params=csv)
    fd, converted = tempfile.mkstemp(suffix=".oracleGeneral")
    os.close(fd)
    # 0.3.5's Util.convert_to_oracleGeneral takes the C reader, not the TraceReader around it.
    lcs.Util.convert_to_oracleGeneral(src._reader, converted)
    trace = converted
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
        out[name].append(repr(miss_ratio))
if converted:
    os.unlink(converted)
print(json.dumps(out))
