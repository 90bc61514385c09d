"""scripts/record-trace.py's conversion of ftrace's filemap events into trace requests, on a
made-up recording (the tar the guest writes): which events count, how a read's batches and the
end of the file cut ranges, and what is refused. The shipped trace itself is checked by
wasm-core/cli/tests/mrc.rs."""
import importlib.util
import io
import pathlib
import tarfile

import pytest

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "record-trace.py"
spec = importlib.util.spec_from_file_location("record_trace", SCRIPT)
record_trace = importlib.util.module_from_spec(spec)
spec.loader.exec_module(record_trace)

# The database: inode 0x1d3 on dev 0:27 (st_dev 27 as userspace encodes it), 10 pages and 100
# bytes long, so its last page is page 10.
DB_STAT = "27 467 41060"


def line(ts, event, fields):
    return f"         sqlite3-109     [000] .....    {ts}: {event}: {fields}"


TRACE = "\n".join([
    "# tracer: nop",
    "#",
    line("1.000000", "mm_filemap_get_pages", "dev=0:27 ino=1d3 ofs=0-4095"),
    # One read of pages 2-15 in two batches: the first stops where the second starts (page 5).
    line("1.000010", "mm_filemap_get_pages", "dev=0:27 ino=1d3 ofs=8192-65535"),
    line("1.000020", "mm_filemap_get_pages", "dev=0:27 ino=1d3 ofs=20480-65535"),
    line("1.000030", "mm_filemap_get_pages", "dev=0:27 ino=1d4 ofs=0-4095"),  # another inode
    line("1.000040", "mm_filemap_map_pages", "dev=0:27 ino=1d3 ofs=0-32767"),  # fault-around
    line("1.000050", "mm_filemap_fault", "dev=0:27 ino=1d3 ofs=12288"),
    line("1.000060", "mm_filemap_get_pages", "dev=0:28 ino=1d3 ofs=4096-8191"),  # another fs
]) + "\n"

STATS = "entries: 7\noverrun: 0\ncommit overrun: 0\ndropped events: 0\n"


def recording(tmp_path, trace=TRACE, stats=STATS, get_pages_format="name: mm_filemap_get_pages\n"):
    files = {
        "trace": trace, "stats": stats, "db-stat": DB_STAT, "release": "7.3.4+deb13-amd64",
        "version": "Linux version 7.3.4", "sqlite-version": "3.40.1", "trace_clock": "[local]",
        "queries.sql.sha256": "q", "queries-output.sha256": "o  -", "errors": "",
        "format-mm_filemap_get_pages": get_pages_format,
    }
    path = tmp_path / "raw.tar"
    with tarfile.open(path, "w") as t:
        for name, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo("./" + name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
    return str(path)


def test_events_become_one_request_a_page(tmp_path):
    csv, summary = record_trace.convert(recording(tmp_path))
    rows = [r.split(",") for r in csv.splitlines()]
    assert rows[0] == ["time", "id", "size"]
    assert [int(r[1]) for r in rows[1:]] == [0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 3]
    assert [int(r[0]) for r in rows[1:]] == [0, 10, 10, 10, 20, 20, 20, 20, 20, 20, 50]
    assert all(r[2] == "4096" for r in rows[1:])
    assert summary["requests"] == 11
    assert summary["distinct_pages"] == 10
    assert summary["cut_batches"] == 1
    assert summary["events_of_other_files"] == 2
    assert summary["events"] == {"mm_filemap_get_pages": 3, "mm_filemap_map_pages": 1,
                                 "mm_filemap_fault": 1}


def test_a_recording_that_lost_events_is_refused(tmp_path):
    with pytest.raises(SystemExit, match="lost events"):
        record_trace.convert(recording(tmp_path, stats=STATS.replace("overrun: 0\n", "overrun: 3\n", 1)))


def test_a_kernel_without_the_tracepoint_is_named(tmp_path):
    with pytest.raises(SystemExit, match="v6.11"):
        record_trace.convert(recording(tmp_path, get_pages_format=""))


def test_an_unreadable_trace_line_is_named(tmp_path):
    with pytest.raises(SystemExit, match="cannot read"):
        record_trace.convert(recording(tmp_path, trace=TRACE + "garbage\n"))
