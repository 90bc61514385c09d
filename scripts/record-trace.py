#!/usr/bin/env python3
"""Record a real page-cache access trace: SQLite (the host's `sqlite3` CLI, Debian package
`sqlite3`) runs a fixed query mix on a database file inside a QEMU guest of a pinned Debian kernel,
with ftrace's filemap tracepoints on; the trace is copied out and converted to the project's CSV
trace format (docs/scenarios.md#traces). Ships as scenarios/traces/sqlite-queries.csv.

Usage:
  scripts/record-trace.py [--kernel debian-7.3] [--out DIR]   boot, record, convert
  scripts/record-trace.py --convert RAW.tar [--out DIR]         convert a recording again

What is recorded (tracepoints added in v6.11, Takaya Saeki, "mm: add trace events for filemap
fault, map pages, get pages"): `filemap:mm_filemap_get_pages` fires once for each batch of a
read() through the page cache (filemap_get_pages, mm/filemap.c), whether the pages were cached
or not, with the file (dev, inode) and the page range the read wants; `mm_filemap_fault` on each
fault of a file page that fault-around did not map; `mm_filemap_map_pages` on each fault-around
range. All three are enabled, filtered in the kernel to the database file's inode. The database
sits on ramfs, a page-cache filesystem whose pages are never evicted: the read path is the
ordinary one (generic_file_read_iter -> filemap_read -> filemap_get_pages), and since the events
fire on hits and misses alike, the sequence of pages the program reads does not depend on which
pages are cached. Not recorded: writes (the write path has no such tracepoint: the query mix is
read-only), readahead (the kernel's own, not the program's accesses), accesses through PTEs
already mapped (no tracepoint sees them: a workload over mmap shows only its faults; SQLite here
reads with pread(), its default with mmap_size = 0).

Conversion: each get_pages event is one request per page of its range (a read larger than a
batch fires once per batch, each with the rest of the range: an event is cut where the next one
of the same read starts; a range is cut at the end of the file); a fault event is one request for its page; map_pages ranges are counted
and left out (pages mapped around a fault are not accesses; SQLite's pread mode makes none). Ids
are page indexes in the file (4 KiB pages), so the replay's one-page-an-object mapping keeps the
file's pages apart; times are microseconds since the first request (the guest's trace clock,
under QEMU's TCG emulation: a shape, not a speed). Every request is a read (no op column).
"""
import argparse
import hashlib
import io
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CACHE = os.environ.get("RECLAIM_KERNEL_CACHE", os.path.join(ROOT, ".kernel-cache"))

# The workload: fixed, generated from this seed (Python's random.Random, stable across 3.x).
SEED = 47
ROWS = 100_000          # orders(id, customer, amount, note): about 170 bytes a row
CUSTOMERS = 5_000
ROUNDS = 30
LOOKUPS = 1_500         # point lookups by id a round, Zipf(0.9): the newest orders the hottest
BY_CUSTOMER = 20        # lookups through the customer index a round (about 20 rows each)
RANGES = 5              # range scans of 1,000 consecutive ids a round
SCAN_EVERY = 4          # a full-table scan every 4th round
CACHE_PAGES = 64        # SQLite's own page cache (PRAGMA cache_size): 256 KiB
SHIPPED_SQLITE = "3.40.1-2+deb12u2"  # the Debian package the shipped trace was recorded with

BUILD_SQL = f"""PRAGMA page_size = 4096;
PRAGMA journal_mode = OFF;
CREATE TABLE orders(id INTEGER PRIMARY KEY, customer INTEGER, amount INTEGER, note TEXT);
WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < {ROWS})
INSERT INTO orders SELECT i, (i * 7919) % {CUSTOMERS}, (i * 104729) % 100000, printf('%0150d', i) FROM s;
CREATE INDEX orders_customer ON orders(customer);
"""


def queries_sql():
    rng = random.Random(SEED)
    ids = list(range(ROWS, 0, -1))  # Zipf rank r -> id ROWS - r: the newest orders are the hottest
    weights = [1.0 / (r ** 0.9) for r in range(1, ROWS + 1)]
    out = [f"PRAGMA cache_size = {CACHE_PAGES};", "PRAGMA temp_store = MEMORY;"]
    for rnd in range(ROUNDS):
        out.append("BEGIN;")
        ranks = rng.choices(range(ROWS), weights=weights, k=LOOKUPS)
        for i, r in enumerate(ranks):
            out.append(f"SELECT note FROM orders WHERE id = {ids[r]};")
            if i % (LOOKUPS // BY_CUSTOMER) == 0:
                out.append(f"SELECT sum(amount) FROM orders WHERE customer = {rng.randrange(CUSTOMERS)};")
            if i % (LOOKUPS // RANGES) == 0:
                a = rng.randrange(1, ROWS - 1000)
                out.append(f"SELECT sum(amount) FROM orders WHERE id BETWEEN {a} AND {a + 999};")
        out.append("COMMIT;")
        if rnd % SCAN_EVERY == SCAN_EVERY - 1:
            out.append("SELECT count(*) FROM orders WHERE note LIKE '%4242%';")
    return "\n".join(out) + "\n"


INIT = r"""#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin:/usr/bin
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev
mount -t tracefs tracefs /sys/kernel/tracing
mount -t ramfs ramfs /data
log() { echo "@@RECORD@@ $*" > /dev/console; }
insmod /modules/virtio_blk.ko 2>/dev/null
n=0; while [ ! -b /dev/vda ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n+1)); done
uname -r > /out/release; cat /proc/version > /out/version
sqlite3 -version > /out/sqlite-version
T=/sys/kernel/tracing
for e in mm_filemap_get_pages mm_filemap_fault mm_filemap_map_pages; do
  cat $T/events/filemap/$e/format > /out/format-$e 2>>/out/errors || log "no event $e"
done
log "building the database"
sqlite3 -batch /data/app.db < /build.sql > /out/build.out 2>>/out/errors
stat -c '%d %i %s' /data/app.db > /out/db-stat
ino=$(stat -c %i /data/app.db)
echo 0 > $T/tracing_on
echo 0 > $T/options/overwrite
echo 65536 > $T/buffer_size_kb
echo > $T/trace
for e in mm_filemap_get_pages mm_filemap_fault mm_filemap_map_pages; do
  echo "i_ino == $ino" > $T/events/filemap/$e/filter
  echo 1 > $T/events/filemap/$e/enable
done
cat $T/trace_clock > /out/trace_clock
log "running the query mix"
echo 1 > $T/tracing_on
sqlite3 -batch /data/app.db < /queries.sql 2>>/out/errors | sha256sum > /out/queries-output.sha256
echo 0 > $T/tracing_on
cat $T/per_cpu/cpu0/stats > /out/stats
cat $T/trace > /out/trace
log "copying out"
tar -cf /dev/vda -C /out .
sync
log "done"
poweroff -f
"""


def copy_program(stage, path):
    """A binary and the shared libraries it loads, at their paths (the guest has no others)."""
    want = [path]
    ldd = subprocess.run(["ldd", path], capture_output=True, text=True, check=True).stdout
    for line in ldd.splitlines():
        m = re.search(r"(/\S+) \(0x", line)
        if m:
            want.append(m.group(1))
    for p in want:
        dst = os.path.join(stage, p.lstrip("/"))
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy(os.path.realpath(p), dst)
        os.chmod(dst, 0o755)


def record(kernel, work):
    kdir = os.path.join(CACHE, kernel)
    if not os.path.exists(os.path.join(kdir, "ok")):
        sys.exit(f"record-trace: kernel {kernel!r} is not set up in {CACHE}: run scripts/setup-kernel")
    for tool in ("sqlite3", "qemu-system-x86_64", "cpio"):
        if not shutil.which(tool):
            sys.exit(f"record-trace: {tool} is missing (apt-get install sqlite3 / scripts/setup-kernel)")
    pkg = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", "sqlite3"], capture_output=True, text=True)
    if pkg.stdout != SHIPPED_SQLITE:
        print(f"record-trace: warning: sqlite3 {pkg.stdout or '(not a Debian package)'} is not the "
              f"{SHIPPED_SQLITE} of the shipped trace: its page reads may differ", file=sys.stderr)
    stage = os.path.join(work, "initramfs")
    for d in ("dev", "proc", "sys", "tmp", "data", "out", "bin", "modules"):
        os.makedirs(os.path.join(stage, d), exist_ok=True)
    shutil.copy("/bin/busybox", os.path.join(stage, "bin/busybox"))
    copy_program(stage, shutil.which("sqlite3"))
    mods = sorted(os.listdir(os.path.join(kdir, "modules")))
    blk = [m for m in mods if m.endswith("virtio_blk.ko")]
    if blk:
        shutil.copy(os.path.join(kdir, "modules", blk[0]), os.path.join(stage, "modules/virtio_blk.ko"))
    with open(os.path.join(stage, "init"), "w") as f:
        f.write(INIT)
    os.chmod(os.path.join(stage, "init"), 0o755)
    with open(os.path.join(stage, "build.sql"), "w") as f:
        f.write(BUILD_SQL)
    queries = queries_sql()
    with open(os.path.join(stage, "queries.sql"), "w") as f:
        f.write(queries)
    files = subprocess.run(["find", "."], cwd=stage, capture_output=True, check=True).stdout
    initrd = os.path.join(work, "initramfs.cpio")
    with open(initrd, "wb") as out:
        subprocess.run(["cpio", "-o", "-H", "newc", "--quiet"], cwd=stage, input=files, stdout=out, check=True)
    disk = os.path.join(work, "out.img")
    with open(disk, "wb") as f:
        f.truncate(256 << 20)
    serial = os.path.join(work, "serial.log")
    args = ["qemu-system-x86_64", "-accel", "tcg,thread=multi", "-nodefaults", "-no-user-config",
            "-display", "none", "-no-reboot", "-nic", "none", "-cpu", "max", "-smp", "1", "-m", "512M",
            "-kernel", os.path.join(kdir, "vmlinuz"), "-initrd", initrd,
            "-append", "console=ttyS0 loglevel=3 panic=-1 no_timer_check rdinit=/init",
            "-serial", f"file:{serial}",
            "-drive", f"file={disk},format=raw,if=none,id=d0,aio=threads",
            "-device", "virtio-blk-pci,drive=d0"]
    t0 = time.time()
    print(f"record-trace: booting {kernel} (QEMU TCG: a minute or two)", file=sys.stderr)
    try:
        subprocess.run(args, check=True, timeout=1800, stdin=subprocess.DEVNULL)
    finally:
        console = open(serial, errors="replace").read() if os.path.exists(serial) else ""
        print("\n".join(l for l in console.splitlines() if "@@RECORD@@" in l), file=sys.stderr)
    print(f"record-trace: guest done in {time.time() - t0:.0f} s", file=sys.stderr)
    with tarfile.open(disk) as t:
        names = t.getnames()
        if "./trace" not in names:
            sys.exit(f"record-trace: the guest wrote no trace ({names}); console:\n{console[-3000:]}")
    raw = os.path.join(work, "raw.tar")
    with open(disk, "rb") as src, open(raw, "wb") as dst:
        with tarfile.open(fileobj=src) as t, tarfile.open(fileobj=dst, mode="w:") as o:
            for m in t.getmembers():
                o.addfile(m, t.extractfile(m) if m.isfile() else None)
            info = tarfile.TarInfo("./queries.sql.sha256")
            digest = hashlib.sha256(queries.encode()).hexdigest().encode() + b"\n"
            info.size = len(digest)
            o.addfile(info, io.BytesIO(digest))
    return raw


LINE = re.compile(
    r"^\s*(?P<task>.+?)-(?P<pid>\d+)\s+\[\d+\]\s+\S+\s+(?P<ts>\d+\.\d+): (?P<ev>mm_filemap_\w+): "
    r"dev[= ](?P<maj>\d+):(?P<min>\d+) ino[= ](?P<ino>[0-9a-f]+) (?:pgoff|ofs)=(?P<a>\d+)(?:-(?P<b>\d+))?")


def convert(raw):
    try:
        t = tarfile.open(raw)
    except (OSError, tarfile.TarError) as e:
        sys.exit(f"record-trace: {raw} is not a recording (a tar written by the guest): {e}")

    def get(n):
        try:
            return t.extractfile("./" + n).read().decode()
        except (KeyError, AttributeError, UnicodeDecodeError) as e:
            sys.exit(f"record-trace: {raw} has no readable member ./{n} ({e!r}): not a recording of this script")

    with t:
        if not get("format-mm_filemap_get_pages").strip():
            sys.exit("record-trace: the kernel has no filemap:mm_filemap_get_pages tracepoint "
                     "(added in v6.11): record on debian-6.12 or later")
        trace = get("trace")
        st_dev, ino, db_bytes = (int(x) for x in get("db-stat").split())
        meta = {n: get(n).strip() for n in ("release", "version", "sqlite-version", "trace_clock", "stats",
                                             "queries.sql.sha256", "queries-output.sha256")}
        errors = get("errors").strip() if "./errors" in t.getnames() else ""
    # st_dev as userspace encodes it (glibc's makedev) -> the kernel's major:minor in the trace.
    major, minor = (st_dev >> 8) & 0xFFF, (st_dev & 0xFF) | ((st_dev >> 12) & 0xFFF00)
    events, other, counts = [], 0, {}
    for line in trace.splitlines():
        if line.startswith("#") or not line.strip():
            continue
        m = LINE.match(line)
        if not m:
            sys.exit(f"record-trace: a trace line it cannot read: {line!r}")
        if (int(m["maj"]), int(m["min"]), int(m["ino"], 16)) != (major, minor, ino):
            other += 1
            continue
        counts[m["ev"]] = counts.get(m["ev"], 0) + 1
        first = int(m["a"]) // 4096
        last = int(m["b"]) // 4096 if m["b"] else first
        events.append((float(m["ts"]), int(m["pid"]), m["ev"], first, last))
    lost = re.search(r"overrun: (\d+)", meta["stats"]), re.search(r"dropped events: (\d+)", meta["stats"])
    if any(x and int(x.group(1)) for x in lost):
        sys.exit(f"record-trace: the ring buffer lost events:\n{meta['stats']}")
    requests, cut = [], 0
    for i, (ts, pid, ev, first, last) in enumerate(events):
        if ev == "mm_filemap_map_pages":
            continue
        if ev == "mm_filemap_get_pages":
            # The next batch of the same read: same task, same end, a start inside this range.
            for nxt in events[i + 1:i + 2]:
                if nxt[1] == pid and nxt[2] == ev and nxt[4] == last and first < nxt[3] <= last:
                    last = nxt[3] - 1
                    cut += 1
        # The event names the range the read asked for; pages past the end of the file are
        # not read (a read that starts there fires no event at all).
        last = min(last, (db_bytes + 4095) // 4096 - 1)
        requests.extend((ts, p) for p in range(first, last + 1))
    if not requests:
        sys.exit("record-trace: no request of the database file in the trace")
    t0 = requests[0][0]
    lines = ["time,id,size"] + [f"{round((ts - t0) * 1e6)},{p},4096" for ts, p in requests]
    summary = {
        "kernel": meta["release"], "kernel_version": meta["version"], "sqlite": meta["sqlite-version"],
        "trace_clock": meta["trace_clock"], "database_bytes": db_bytes, "events": counts,
        "events_of_other_files": other, "cut_batches": cut, "requests": len(requests),
        "distinct_pages": len({p for _, p in requests}), "guest_errors": errors,
        "queries_sql_sha256": meta["queries.sql.sha256"],
        "query_output_sha256": meta["queries-output.sha256"].split()[0],
    }
    return "\n".join(lines) + "\n", summary


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kernel", default="debian-7.3")
    ap.add_argument("--out", default=os.path.join(ROOT, "scenarios/traces"))
    ap.add_argument("--convert", metavar="RAW_TAR", help="convert a recording (raw.tar) again")
    ap.add_argument("--keep", metavar="DIR", help="keep the guest's raw recording (raw.tar) here")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="record-trace-")
    try:
        raw = a.convert or record(a.kernel, work)
        if a.keep and not a.convert:
            os.makedirs(a.keep, exist_ok=True)
            shutil.copy(raw, os.path.join(a.keep, "raw.tar"))
        csv, summary = convert(raw)
        path = os.path.join(a.out, "sqlite-queries.csv")
        with open(path, "w") as f:
            f.write(csv)
        summary["csv_bytes"] = len(csv)
        print(json.dumps(summary, indent=1))
        print(f"record-trace: wrote {path}", file=sys.stderr)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
