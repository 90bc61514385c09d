"""Reclaim Lab for Python: Linux page reclaim simulated page by page.

The engine is the same Rust core as the `reclaim` CLI and the web page (built with maturin).

    import reclaimlab as rl
    report = rl.run("scenarios/s000-thrash.toml", "after", swappiness=100)
    df = rl.sweep("scenarios/s000-thrash.toml",
                  axes={"swappiness": [0, 60, 100, 200], "ram": ["1GiB", "2GiB"]},
                  seeds=range(1, 4))

A scenario is a path (str or os.PathLike) or TOML text. Knobs (keyword arguments of `run`
and `compare`, axes of `sweep`): swappiness, ram, swap_device, file_device, frame_scale, seed,
the sysctls (dirty_ratio, page_cluster, ...) and flags (`flags={"refault_scan_anon": True}`
for `run`/`compare`, "flag.NAME" as a sweep axis).
"""
from __future__ import annotations

import io
import json
import math
import os
from pathlib import Path
from typing import Any, Iterable, Mapping, Optional, Sequence, Union

from . import _core

__all__ = ["run", "compare", "sweep", "mrc", "knob_names", "VERSION"]

VERSION: str = _core.VERSION

Scenario = Union[str, "os.PathLike[str]"]


def knob_names() -> list[str]:
    """The knobs `run`, `compare` and `sweep` accept."""
    return list(_core.knob_names())


def _text(scenario: Scenario) -> str:
    """TOML text of a scenario given as a path or as text (text has a line break)."""
    if isinstance(scenario, os.PathLike):
        return Path(scenario).read_text()
    if not isinstance(scenario, str):
        raise TypeError(f"scenario must be a path or TOML text, not {type(scenario).__name__}")
    if "\n" in scenario:
        return scenario
    path = Path(scenario)
    if not path.is_file():
        raise FileNotFoundError(f"no scenario file {scenario!r} (TOML text must have more than one line)")
    return path.read_text()


def _value(name: str, v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, str)):
        return str(v)
    raise TypeError(f"{name}: {v!r} is not a whole number, a string or a bool")


def _knobs(overrides: Mapping[str, Any]) -> list[tuple[str, str]]:
    out = []
    for name, v in overrides.items():
        if name == "flags":
            out += [(f"flag.{f}", _value(f"flags.{f}", on)) for f, on in dict(v).items()]
        else:
            out.append((name, _value(name, v)))
    return out


MaxCpu = Union[None, int, float, str]

#: A sweep's CPU-time limit per run unless `max_cpu=` says otherwise (seconds).
DEFAULT_SWEEP_MAX_CPU: float = _core.DEFAULT_SWEEP_MAX_CPU_S


def _max_cpu(v: MaxCpu) -> Optional[str]:
    """`max_cpu=` as the engine takes it: seconds (a number) or a duration such as "60s",
    "5min"; None or "none": no limit."""
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, (int, float, str)):
        raise TypeError(f"max_cpu: {v!r} is not seconds, a duration such as '60s', or None")
    if isinstance(v, str):
        return v
    # Whole nanoseconds, as the engine counts them (a float's repr may read "1e-05" or "inf").
    try:
        ns = round(v * 1e9) if math.isfinite(v) and v > 0 else None
    except OverflowError:  # an int too large for a float
        ns = None
    if ns is None:
        raise ValueError(f"max_cpu: {v!r} must be a finite number of seconds > 0 (None: no limit)")
    return f"{max(1, ns)}ns"


def run(scenario: Scenario, variant: Optional[str] = None, *, max_cpu: MaxCpu = None,
        **overrides: Any) -> dict:
    """Run one variant (default: the scenario's first) with knobs; the `reclaim run --json`
    document as a dict. max_cpu: CPU time the run may use (seconds, or a duration such as
    "60s"; default no limit). A run that ends early (past max_cpu, or stopped by the
    engine's progress guard) raises RuntimeError with the engine's message."""
    return json.loads(_core.run_json(_text(scenario), variant, _knobs(overrides), _max_cpu(max_cpu)))


def compare(scenario: Scenario, *, max_cpu: MaxCpu = None, **overrides: Any) -> dict:
    """Run every variant with the same knobs; `reclaim compare --json` as a dict
    (`{"variants": [report, ...], "headline": [...], "verdicts": [...]}`). max_cpu: as for
    `run`, per variant."""
    return json.loads(_core.compare_json(_text(scenario), _knobs(overrides), _max_cpu(max_cpu)))


def _seeds(seeds: Union[None, int, str, Iterable[int]]) -> list[int]:
    if seeds is None:
        return []
    if isinstance(seeds, int):
        return [seeds]
    if isinstance(seeds, str):
        return _parse_seed_text(seeds)
    return [int(s) for s in seeds]


def _parse_seed_text(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        if ".." in part:
            a, b = part.split("..", 1)
            out += range(int(a), int(b.lstrip("=")) + 1)
        else:
            out.append(int(part))
    return out


def _plan(scenario, axes, seeds, variants):
    text = _text(scenario)
    axes = axes or {}
    axis_list = [(name, [_value(name, v) for v in (vals if isinstance(vals, (list, tuple, range)) else [vals])])
                 for name, vals in axes.items()]
    if isinstance(variants, str):
        variants = [] if variants == "all" else [v.strip() for v in variants.split(",")]
    columns, points = _core.plan(text, axis_list, list(variants or []), _seeds(seeds))
    return text, columns, points


def _frame(columns: Sequence[str], rows: Sequence[Sequence[str]]):
    import pandas as pd

    # The CSV text `reclaim sweep` writes, read by pandas: the same types either way.
    return pd.read_csv(io.StringIO(_core.csv_text(list(columns), [list(r) for r in rows])))


def sweep(
    scenario: Scenario,
    axes: Optional[Mapping[str, Any]] = None,
    seeds: Union[None, int, str, Iterable[int]] = None,
    jobs: Optional[int] = None,
    variants: Union[str, Sequence[str]] = "all",
    backend: str = "local",
    max_cpu: MaxCpu = DEFAULT_SWEEP_MAX_CPU,
):
    """Run a grid and return the tidy table as a pandas DataFrame (one row per run).

    axes: knob -> list of values, e.g. {"swappiness": [0, 60], "swap_device": ["ssd", "zram"]}
          (the first axis varies slowest). seeds: a list, a range, or text such as "1..5"
          (default: the scenario's seed). variants: "all" or a list of names.
    backend: "local" (threads, `jobs` of them, default every core) or "ray" (one Ray task
             per run on the cluster at RAY_ADDRESS, or a local Ray started in-process;
             `jobs` then caps the runs in flight). Both give the same frame.
    max_cpu: CPU time each run may use (seconds or a duration such as "60s"; default
             DEFAULT_SWEEP_MAX_CPU, 600 s; None: no limit): a run past it, or stopped by the
             engine's progress guard, has the engine's message in its row's error column.
    """
    text, columns, points = _plan(scenario, axes, seeds, variants)
    if backend == "local":
        rows = _core.run_points(text, points, int(jobs or _core.default_jobs()), _max_cpu(max_cpu))
    elif backend == "ray":
        from ._ray import run_points as ray_run_points

        rows = ray_run_points(text, points, jobs, _max_cpu(max_cpu))
    else:
        raise ValueError(f"backend must be 'local' or 'ray', not {backend!r}")
    return _frame(columns, rows)


def mrc(path: Union[str, os.PathLike], *, points: int = 16, jobs: Optional[int] = None,
        max_cpu: MaxCpu = DEFAULT_SWEEP_MAX_CPU, backend: str = "local") -> "pandas.DataFrame":
    """The miss-ratio curve of a scenario file with one replay op (its trace is read next to
    the file), as `reclaim mrc` writes it: one row per policy (lru, opt, kernel with its
    variant) and cache size, with requests, misses and miss_ratio; a kernel point that failed
    holds its error.

    backend: "local" (threads, `jobs` of them, default every core) or "ray" (one Ray task per
             point, given the scenario text and the trace's bytes, on the cluster at
             RAY_ADDRESS or a local Ray started in-process; `jobs` then caps the points in
             flight). Both give the same frame.
    """
    if backend == "local":
        cols, rows = _core.mrc_rows(str(Path(path)), int(points),
                                    jobs or _core.default_jobs(), _max_cpu(max_cpu))
    elif backend == "ray":
        from ._ray import run_mrc_jobs

        text, traces = _core.mrc_load(str(Path(path)))
        todo = _core.mrc_jobs(text, traces, int(points))
        results = run_mrc_jobs(text, traces, int(points), todo, jobs, _max_cpu(max_cpu))
        cols, rows = _core.mrc_table(text, traces, int(points), todo, results)
    else:
        raise ValueError(f"backend must be 'local' or 'ray', not {backend!r}")
    return _frame(cols, rows)
