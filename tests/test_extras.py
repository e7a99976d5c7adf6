"""A player who installed the package alone can run the tests they have (issue 31): with
every optional extra hidden (tests/without_extras.py), the suite is collected without an
error, and what needs an extra is skipped with its reason."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_suite_collects_without_the_extras_and_says_why_it_skips() -> None:
    env = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}  # a plain pytest, none of the dev plugins
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "tests.without_extras", "-p", "no:cacheprovider",
                          "--collect-only", "-q", "-rs", "-m", "not slow"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300, env=env)
    out = run.stdout + run.stderr
    assert run.returncode == 0, out[-4000:]
    skips = [line for line in out.splitlines() if line.startswith("SKIPPED")]
    assert skips, out[-4000:]  # the extras' tests are skipped, not run
    assert all("extra" in line for line in skips), "\n".join(skips)  # each names what to install
    counts = re.findall(r"^tests/\S+\.py: (\d+)$", run.stdout, re.MULTILINE)
    assert sum(map(int, counts)) > 300  # the rules, bots and rendering still run
