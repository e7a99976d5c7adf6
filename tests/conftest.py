"""Settings for the whole suite, and the markers that slice it (docs/testing.md).

Three markers follow from what a test uses, so that nobody has to remember them: a test
that takes the ``browser`` fixture is ``browser`` (the few that drive Chromium without it
say so themselves), one that runs on PostgreSQL (the ``db_url`` fixture's ``postgresql``
case) is ``postgres``, and the modules listed in ``PACKAGING`` are ``packaging``. ``slow``
and ``cluster`` are written on the tests themselves, and ``daily`` on the tests of the
daily challenge that the date sweep runs (``--days``, tests/server/conftest.py).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# The server computes par when a person's solo game ends (docs/analysis.md §6): a bot's
# whole game in a child process. The suite finishes hundreds of solo games, each of which
# would start one on a 2-core machine; the coaching tests turn it on for their own servers
# (MUMMY_ANALYSIS=quick). "off" still answers a page that asks for par or a review.
os.environ.setdefault("MUMMY_ANALYSIS", "off")

TESTS = Path(__file__).resolve().parent
#: Test modules that build the wheel and install it in a new environment.
PACKAGING = {TESTS / "test_packaging.py"}


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--days", type=int, default=0, metavar="N",
                     help="run the tests marked daily on N more fixed days as well (the date sweep, "
                          "tests/server/conftest.py)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        names = getattr(item, "fixturenames", ())
        if "browser" in names:
            item.add_marker(pytest.mark.browser)
        callspec = getattr(item, "callspec", None)
        if callspec is not None and callspec.params.get("db_url") == "postgresql":
            item.add_marker(pytest.mark.postgres)
        if Path(item.path) in PACKAGING:
            item.add_marker(pytest.mark.packaging)
