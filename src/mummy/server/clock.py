"""The server's clock: the time stamped on rows, and the day that names a daily challenge.

Every module of the server reads the time through this one (``clock.now()``,
``clock.today()``, looked up at each call), so that a test that sets the day or the time
here sets it for the service, the games in memory and the boards at once.
"""

from __future__ import annotations

from datetime import UTC, datetime


def now() -> datetime:
    """The time now, in UTC without a zone, as the tables store it."""
    return datetime.now(UTC).replace(tzinfo=None)


def today() -> str:
    """The current day (UTC) that names a daily challenge."""
    return now().date().isoformat()
