"""``python -m bot.sim.posing_table``: rebuild the optimal Posing Pandas table from scratch.

Writes bot/rules/posing/optimal_values.py (about four seconds of pure Python); the rules
engine itself never writes or reads files.
"""

from __future__ import annotations

import time
from pathlib import Path

from bot.rules.posing.optimal import ALL_OPEN, compute_values, render_values_module

TARGET = Path(__file__).resolve().parent.parent / "rules" / "posing" / "optimal_values.py"


def main() -> None:
    """Rebuild the optimal Posing table and write it as a Python module."""
    started = time.perf_counter()
    values = compute_values()
    TARGET.write_text(render_values_module(values), encoding="utf-8")
    print(f"wrote {TARGET}: {len(values)} values, optimal expected score "
          f"{values[ALL_OPEN]:.6f}, built in {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
