"""The suite passes in any order: a browser test leaves no event loop running behind it
(Playwright's sync API marks one as running while it is started; tests/conftest's
Chromium is closed as soon as the next test does not need it)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import CHROMIUM, Watched

ROOT = Path(__file__).resolve().parents[2]


def test_a_page_opens_in_the_browser(web: Watched) -> None:
    page: Any = web.page()
    page.goto(web.base + "/")
    page.wait_for_selector("#new-game")


def test_asyncio_runs_after_a_browser_test() -> None:
    # Run right after the test above (file order): with the browser of the whole session,
    # this failed with "asyncio.run() cannot be called from a running event loop".
    async def answer() -> int:
        await asyncio.sleep(0)
        return 42

    assert asyncio.run(answer()) == 42


@pytest.mark.browser
@pytest.mark.slow
def test_the_web_tests_then_the_server_tests() -> None:
    if not CHROMIUM and os.environ.get("MUMMY_REQUIRE_BROWSER") != "1":
        pytest.skip("Chromium is not installed: the browser test would be skipped, and this would prove nothing")
    # The order of the report: a browser test, then a server test that uses
    # asyncio.run (tests/server/test_service_writes.py), in a pytest of their own.
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-p", "no:randomly", "-k",
         "browser or committed_before",
         "tests/web/test_order.py::test_a_page_opens_in_the_browser", "tests/server/test_service_writes.py"],
        cwd=ROOT, capture_output=True, text=True, timeout=600, env={**os.environ, "MUMMY_TEST_POSTGRES": ""})
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert "running event loop" not in run.stdout + run.stderr
