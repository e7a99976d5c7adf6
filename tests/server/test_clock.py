"""No test depends on today's date (issue 31): the server reads the time through its clock
module alone, and every server test runs on a pinned day (tests/server/conftest.py), on
which the daily challenge's dice are known in advance."""

from __future__ import annotations

import hashlib
import hmac
import re
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
import time_machine

from mummy.server import clock
from mummy.server.play.service import GameService
from tests.server.conftest import DAILY_SECRET, DAY, sweep_days

ROOT = Path(__file__).resolve().parents[2]
#: Reading the date or the time of day anywhere but the clock module.
READS_THE_DATE = re.compile(r"\b(?:(?:date\.today|datetime\.(?:now|utcnow|today))\("
                            r"|time\.(?:localtime|gmtime|ctime)\(\))")
#: The clock, and this test (which names what it looks for).
ALLOWED = {ROOT / "src/mummy/server/clock.py", Path(__file__).resolve()}


def test_nothing_reads_the_date_but_the_clock_module() -> None:
    found = []
    for folder in ("src", "tests", "benchmarks"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path in ALLOWED:
                continue
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if READS_THE_DATE.search(line) and not line.lstrip().startswith("#"):
                    found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert found == [], "read the time through mummy.server.clock:\n" + "\n".join(found)


def test_the_pattern_finds_what_it_must() -> None:
    today, now = "date.today", "datetime.now"  # (spelled apart, so that no scan takes this file for a reader)
    assert READS_THE_DATE.search(f"day = {today}()")
    assert READS_THE_DATE.search(f"when = {now}(UTC)")
    assert READS_THE_DATE.search("stamp = time.gmtime()")
    assert not READS_THE_DATE.search("clock.now()") and not READS_THE_DATE.search("time.monotonic()")
    assert not READS_THE_DATE.search("time.gmtime(seconds)")  # a conversion, not a reading


def test_a_server_test_runs_on_the_pinned_day_whatever_the_real_date(service: GameService, today: str) -> None:
    real = datetime.fromtimestamp(time_machine.escape_hatch.time.time(), UTC).date().isoformat()
    assert today == DAY == clock.today() and clock.now().date().isoformat() == DAY
    assert real != DAY  # (a test run on 2026-03-14 itself would prove nothing here)
    key = DAILY_SECRET.encode()
    for kind in ("tomb", "treasure"):
        expected = int.from_bytes(hmac.new(key, f"{kind}:{DAY}".encode(), hashlib.sha256).digest()[:8], "big") >> 1
        assert service.daily_seed(kind, clock.today()) == expected  # the day's dice, known in advance


def test_the_clock_runs_on_from_noon_of_the_day() -> None:
    start = clock.now()
    assert (start.hour, start.date().isoformat()) == (12, DAY)
    assert clock.now() >= start  # it ticks: timeouts and stamps still move forward


@pytest.mark.parametrize("count", [0, 1, 30, 60])
def test_the_sweeps_days_are_distinct_real_days(count: int) -> None:
    days = sweep_days(count)
    assert len(days) == len(set(days)) == count and DAY not in days
    assert all(date.fromisoformat(d) for d in days)
    if count >= 30:
        months = {d[5:7] for d in days}
        weekdays = {date.fromisoformat(d).weekday() for d in days}
        assert len(months) == 12 and len(weekdays) == 7 and "2024-02-29" in days
