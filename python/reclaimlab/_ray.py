"""The Ray backend of `sweep` and `mrc`: one Ray task per run, or per point of a curve.

Ray connects to the cluster named by RAY_ADDRESS, or starts a local Ray in this process when
none is given (Ray's own default). Every node must have reclaimlab installed (the same
version): a task imports it to run the engine. Results stream back as tasks finish and are
put in grid order, so the frame is the local backend's.
"""
from __future__ import annotations

from typing import Optional, Sequence


def _ray():
    try:
        import ray
    except ImportError as e:  # the optional extra is not installed
        raise ImportError(
            "backend='ray' needs Ray: pip install 'reclaimlab[ray]'"
        ) from e
    return ray


def _run_point(text: str, point: str, max_cpu: Optional[str]) -> list:
    from reclaimlab import _core

    return _core.run_point(text, point, max_cpu)


def _init(ray) -> None:
    if not ray.is_initialized():
        # address=None: RAY_ADDRESS if set, else a new local Ray.
        ray.init(ignore_reinit_error=True, include_dashboard=False, log_to_driver=False)


def _in_order(ray, calls: Sequence[tuple], task, jobs: Optional[int]) -> list:
    """Run `task` on each argument tuple, at most `jobs` in flight; results in call order."""
    limit = max(1, int(jobs)) if jobs else len(calls) or 1
    out: list = [None] * len(calls)
    pending = {}
    nxt = 0
    while nxt < len(calls) or pending:
        while nxt < len(calls) and len(pending) < limit:
            pending[task.remote(*calls[nxt])] = nxt
            nxt += 1
        done, _ = ray.wait(list(pending), num_returns=1)
        for ref in done:
            out[pending.pop(ref)] = ray.get(ref)
    return out


def run_points(text: str, points: Sequence[str], jobs: Optional[int] = None,
               max_cpu: Optional[str] = None) -> list:
    ray = _ray()
    _init(ray)
    task = ray.remote(num_cpus=1)(_run_point)
    text_ref = ray.put(text)  # shipped once, not once per task
    return _in_order(ray, [(text_ref, p, max_cpu) for p in points], task, jobs)


def _mrc_job(text: str, traces: list, points: int, job: str, max_cpu: Optional[str]) -> tuple:
    from reclaimlab import _core

    return tuple(_core.mrc_job(text, traces, points, job, max_cpu))


def run_mrc_jobs(text: str, traces: list, points: int, jobs_json: Sequence[str],
                 jobs: Optional[int] = None, max_cpu: Optional[str] = None) -> list:
    """Each point of a curve a Ray task: (misses or None, error) each, in the jobs' order."""
    ray = _ray()
    _init(ray)
    task = ray.remote(num_cpus=1)(_mrc_job)
    # The scenario and the trace's bytes are shipped once, not once per point.
    text_ref, traces_ref = ray.put(text), ray.put(list(traces))
    calls = [(text_ref, traces_ref, points, j, max_cpu) for j in jobs_json]
    return _in_order(ray, calls, task, jobs)
