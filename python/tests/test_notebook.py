"""docs/sweep-s000.ipynb runs: its code cells, in order, with a non-interactive backend."""
import json
import os
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

ROOT = Path(__file__).resolve().parents[2]


def test_the_s000_notebook_runs_and_plots_every_device():
    nb = json.loads((ROOT / "docs" / "sweep-s000.ipynb").read_text())
    scope: dict = {}
    cwd = os.getcwd()
    os.chdir(ROOT / "docs")
    try:
        for cell in nb["cells"]:
            if cell["cell_type"] == "code":
                exec(compile("".join(cell["source"]), "sweep-s000.ipynb", "exec"), scope)
    finally:
        os.chdir(cwd)
    df = scope["df"]
    assert len(df) == 3 * 4
    assert df["error"].isna().all()
    assert list(df["swap_device"].unique()) == ["disk", "nvme", "zram"]
    ax1, ax2 = scope["fig"].axes
    assert len(ax1.lines) == 3 and len(ax2.lines) == 3
    assert [t.get_text() for t in ax2.get_legend().get_texts()] == ["disk", "nvme", "zram"]
