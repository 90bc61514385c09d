"""Tests of the reclaimlab package: the JSON contract, knobs, sweeps, and the Ray backend."""
from pathlib import Path

import pandas as pd
import pytest

import reclaimlab as rl

ROOT = Path(__file__).resolve().parents[2]
S000 = ROOT / "scenarios" / "s000-thrash.toml"

# A small machine under pressure: a 40 MiB anon fill, then rounds over a 32 MiB file on
# 64 MiB of RAM, so reclaim, swap and refaults all happen within a fraction of a second.
SMALL = """
title = "small"
seed = 1
[machine]
ram = "64MiB"
swap = { device = "disk", size = "256MiB" }
[[devices]]
name = "disk"
kind = "ssd"
[[devices]]
name = "fast"
kind = "nvme"
[[files]]
name = "data"
size = "32MiB"
device = "disk"
[[variants]]
name = "before"
preset = "linux-5.2"
[[variants]]
name = "after"
preset = "linux-5.3"
[[tasks]]
name = "t"
program = [
  { op = "anon", name = "heap", size = "40MiB" },
  { op = "touch", regions = ["heap"], write = true, cpu = "250ns" },
  { op = "mmap", name = "m", file = "data" },
  { op = "loop", count = 3, record = "rounds", body = [
    { op = "touch", regions = ["m"], pattern = "random", count = 4000, cpu = "15ns" },
  ] },
]
[run]
duration = "60s"
"""


def test_run_returns_the_json_contract_and_applies_knobs():
    r = rl.run(SMALL, "after", swappiness=100)
    assert r["variant"] == "after" and r["preset"] == "linux-5.3"
    assert r["swappiness"] == 100
    assert r["counters"]["pgfault"] > 0
    assert len(r["tasks"][0]["rounds_s"]) == 3
    default = rl.run(SMALL)
    assert default["variant"] == "before" and default["swappiness"] == 60
    # A different RAM size changes what reclaim has to do.
    big = rl.run(SMALL, "before", ram="256MiB")
    assert big["counters"]["workingset_refault_file"] < default["counters"]["workingset_refault_file"]


def test_a_path_and_its_text_give_the_same_report(tmp_path):
    f = tmp_path / "small.toml"
    f.write_text(SMALL)
    assert rl.run(str(f), seed=3) == rl.run(SMALL, seed=3)
    assert rl.run(f, flags={"refault_scan_anon": True}) == rl.run(SMALL, flags={"refault_scan_anon": True})


def test_compare_runs_every_variant_with_the_same_knobs():
    c = rl.compare(SMALL, swap_device="fast")
    assert [v["variant"] for v in c["variants"]] == ["before", "after"]
    assert c["variants"][0] == rl.run(SMALL, "before", swap_device="fast")


def test_bad_input_names_what_is_wrong():
    with pytest.raises(ValueError, match="unknown knob \"swapiness\""):
        rl.run(SMALL, swapiness=1)
    with pytest.raises(ValueError, match="nvme9"):
        rl.run(SMALL, swap_device="nvme9")
    with pytest.raises(ValueError, match="no variant \"nope\""):
        rl.run(SMALL, "nope")
    with pytest.raises(FileNotFoundError, match="no-such.toml"):
        rl.run("no-such.toml")
    with pytest.raises(ValueError, match="line 1"):
        rl.run("title = \n[machine]\n")
    with pytest.raises(ValueError, match="backend"):
        rl.sweep(SMALL, backend="spark")


def test_sweep_is_one_row_per_run_in_grid_order():
    df = rl.sweep(SMALL, axes={"swappiness": [0, 100], "swap_device": ["disk", "fast"]}, seeds="1..2", jobs=2)
    assert len(df) == 2 * 2 * 2 * 2
    assert list(df.columns[:5]) == ["variant", "seed", "swappiness", "swap_device", "preset"]
    assert list(df["swappiness"][:8]) == [0] * 8
    assert list(df["swap_device"][:4]) == ["disk"] * 4
    assert list(df["variant"][:4]) == ["before", "before", "after", "after"]
    assert list(df["seed"][:2]) == [1, 2]
    assert df["error"].isna().all()
    assert (df["run_swappiness"] == df["swappiness"]).all()
    assert {"virtual_s", "rounds_total_s", "pswpout", "workingset_refault_file"} <= set(df.columns)
    # A row is the run: its counters are the report's measured counters.
    row = df[(df.variant == "after") & (df.seed == 2) & (df.swappiness == 100) & (df.swap_device == "fast")].iloc[0]
    r = rl.run(SMALL, "after", seed=2, swappiness=100, swap_device="fast")
    assert row["pswpout"] == r["measured"]["pswpout"]
    assert row["pgscan_kswapd"] == r["measured"]["pgscan_kswapd"]
    assert row["virtual_s"] == pytest.approx(r["virtual_s"], rel=0, abs=0)


def test_sweep_does_not_depend_on_the_number_of_jobs():
    axes = {"ram": ["48MiB", "64MiB", "96MiB"]}
    one = rl.sweep(SMALL, axes=axes, jobs=1)
    two = rl.sweep(SMALL, axes=axes, jobs=2)
    pd.testing.assert_frame_equal(one, two)


def test_sweep_rejects_a_bad_grid_before_running():
    with pytest.raises(ValueError, match="swap_device=nvme9"):
        rl.sweep(SMALL, axes={"swap_device": ["disk", "nvme9"]})
    with pytest.raises(ValueError, match="no variant"):
        rl.sweep(SMALL, variants=["x"])


def test_s000_sweep_has_the_issue_columns():
    # One small corner of the issue's grid on the real scenario, scaled down 16x in frames.
    df = rl.sweep(S000, axes={"swappiness": [60, 100], "frame_scale": [16]}, variants=["after"], jobs=2)
    assert list(df["swappiness"]) == [60, 100]
    assert df["error"].isna().all()
    assert (df["rounds"] == 10).all()


@pytest.fixture(scope="module")
def ray_local():
    import ray  # installed by scripts/bootstrap (python/requirements-dev.txt)

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def test_ray_backend_gives_the_local_frame(ray_local):
    axes = {"swappiness": [0, 60, 200], "ram": ["48MiB", "64MiB"]}
    local = rl.sweep(SMALL, axes=axes, seeds=[1, 2], jobs=2)
    remote = rl.sweep(SMALL, axes=axes, seeds=[1, 2], backend="ray")
    assert ray_local.is_initialized()
    assert len(remote) == 3 * 2 * 2 * 2
    pd.testing.assert_frame_equal(local, remote)
    # jobs caps the tasks in flight; the frame is the same.
    pd.testing.assert_frame_equal(local, rl.sweep(SMALL, axes=axes, seeds=[1, 2], backend="ray", jobs=1))


def test_ray_mrc_gives_the_local_frame(ray_local):
    # The shipped SQLite recording (82,009 requests) at 3 sizes: each point a Ray task given the
    # scenario's text and the trace's bytes, not the path.
    sqlite = ROOT / "scenarios" / "traces" / "sqlite.toml"
    local = rl.mrc(sqlite, points=3, jobs=2)
    remote = rl.mrc(sqlite, points=3, backend="ray")
    assert len(remote) == 4 * 3 and remote["error"].isna().all()
    pd.testing.assert_frame_equal(local, remote)
    with pytest.raises(ValueError, match="backend must be 'local' or 'ray'"):
        rl.mrc(sqlite, points=3, backend="dask")


STALL = ROOT / "wasm-core" / "tests" / "hostile" / "stall-tasks.toml"
STALL_MESSAGE = r'MAX_STALLED_EVENTS.*task "t\d", op tasks\[\d\]\.program\[2\] \(loop\)'


def test_a_run_the_progress_guard_stops_raises_runtime_error_naming_task_and_op():
    with pytest.raises(RuntimeError, match=STALL_MESSAGE):
        rl.run(STALL)


def test_max_cpu_stops_a_run_with_runtime_error_naming_the_limit():
    with pytest.raises(RuntimeError, match=r"CPU time limit of 0\.001 s.*max_cpu="):
        rl.run(S000, max_cpu=0.001)
    with pytest.raises(RuntimeError, match=r"CPU time limit of 0\.001 s"):
        rl.compare(S000, max_cpu="1ms")
    with pytest.raises(ValueError, match="max_cpu= soon"):
        rl.run(S000, max_cpu="soon")
    with pytest.raises(TypeError, match="max_cpu"):
        rl.run(S000, max_cpu=[60])
    # Seconds whose repr is in exponent form, and numbers that are no limit at all.
    with pytest.raises(RuntimeError, match=r"CPU time limit of 0\.00001 s"):
        rl.run(S000, max_cpu=1e-5)
    for bad in (float("inf"), float("nan"), -1, 0, 10**400):
        with pytest.raises(ValueError, match="max_cpu: .* must be a finite number of seconds > 0"):
            rl.run(S000, max_cpu=bad)
    assert rl.DEFAULT_SWEEP_MAX_CPU == 600


def test_sweep_rows_hold_the_guard_and_cpu_limit_errors():
    stalled = rl.sweep(STALL)
    assert stalled["error"].str.contains(STALL_MESSAGE).all(), stalled["error"].tolist()
    limited = rl.sweep(S000, max_cpu="1ms")
    assert len(limited) == 2
    assert limited["error"].str.contains("CPU time limit of 0.001 s").all(), limited["error"].tolist()


def test_mrc_is_a_frame_of_lru_opt_and_each_kernel_by_cache_size():
    # The shipped trace (113,872 requests to 48,974 blocks) at 4 sizes, 1% to 100%.
    df = rl.mrc(ROOT / "scenarios" / "traces" / "cloudphysics.toml", points=4)
    assert list(df.columns) == ["policy", "variant", "preset", "cache_pages", "cache_share",
                                "requests", "footprint", "misses", "miss_ratio", "error"]
    assert df["error"].isna().all()
    assert (df.groupby(["policy", df["variant"].fillna("")]).size() == 4).all()
    assert sorted(df["policy"].unique()) == ["kernel", "lru", "opt"]
    assert sorted(df["variant"].dropna().unique()) == ["classic", "mglru"]
    assert (df["requests"] == 113_872).all() and (df["footprint"] == 48_974).all()
    assert df["cache_pages"].max() == 48_974
    # Holding the whole footprint, every policy misses once per block; below it OPT is the least.
    full = df[df["cache_pages"] == 48_974]
    assert (full["misses"] == 48_974).all()
    opt = df[df["policy"] == "opt"].set_index("cache_pages")["miss_ratio"]
    assert all(row.miss_ratio >= opt[row.cache_pages] for row in df.itertuples())
