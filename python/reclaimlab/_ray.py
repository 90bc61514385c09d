"""The Ray backend of `sweep`: one Ray task per run.

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


def run_points(text: str, points: Sequence[str], jobs: Optional[int] = None,
               max_cpu: Optional[str] = None) -> list:
    ray = _ray()
    if not ray.is_initialized():
        # address=None: RAY_ADDRESS if set, else a new local Ray.
        ray.init(ignore_reinit_error=True, include_dashboard=False, log_to_driver=False)
    task = ray.remote(num_cpus=1)(_run_point)
    text_ref = ray.put(text)  # shipped once, not once per task
    limit = max(1, int(jobs)) if jobs else len(points) or 1
    rows: list = [None] * len(points)
    pending = {}
    nxt = 0
    while nxt < len(points) or pending:
        while nxt < len(points) and len(pending) < limit:
            pending[task.remote(text_ref, points[nxt], max_cpu)] = nxt
            nxt += 1
        done, _ = ray.wait(list(pending), num_returns=1)
        for ref in done:
            rows[pending.pop(ref)] = ray.get(ref)
    return rows
