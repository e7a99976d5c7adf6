"""A pytest plugin that hides every optional extra, as for a player who installed the
package alone (``pip install mummy``) and pytest: ``python -m pytest -p
tests.without_extras``. An import of an extra's module then fails as it would there, so
a test that needs one must skip with its reason (``pytest.importorskip``), never fail to
be collected (tests/test_extras.py, docs/testing.md)."""

from __future__ import annotations

import sys
from typing import Final

#: The top-level modules of the extras in pyproject.toml (and of the tools the suite's
#: hygiene adds), none of which ``pip install mummy`` brings (tests/test_packaging.py
#: checks a player's install for them).
EXTRAS: Final = frozenset({
    # dev
    "hypothesis", "mypy", "ruff", "httpx", "schemathesis", "playwright", "axe_playwright_python", "pypdf",
    "nbformat", "time_machine", "xdist", "pytest_randomly", "pytest_repeat",
    # analysis
    "pyarrow", "matplotlib", "tqdm", "pandas", "polars",
    # cluster, postgres, print
    "ray", "psycopg", "svglib", "reportlab",
    # research, examples
    "gymnasium", "pettingzoo", "pyspiel", "open_spiel", "numpy", "sb3_contrib", "stable_baselines3", "torch",
})


def hide() -> None:
    """Hide the extras from now on: a module that is None in ``sys.modules`` cannot be
    imported (ModuleNotFoundError), and ``importlib.util.find_spec`` finds no spec for it,
    whatever is installed."""
    for name in list(sys.modules):
        if name.partition(".")[0] in EXTRAS:
            del sys.modules[name]
    for name in EXTRAS:
        sys.modules[name] = None  # type: ignore[assignment]


def pytest_configure() -> None:
    """Loaded as a plugin (``-p tests.without_extras``): hide them before collection."""
    hide()
