"""Custom maps on the server: stored by the hash of their text (the ``custom_maps`` table,
migration 0010), with a daily quota of new maps per client address, and registered in the
process (``mummy.tomb.content``'s bounded registry) when a game or a page needs one.

Why in the database: a map lived in one process's memory only, so a game
created by the map's id on another process (``mummy serve --workers``) did not know it,
and a registry of at most 2,000 maps per process, filled with junk, failed every game on
a custom map not yet loaded. Now any process finds a map another stored, the registry is
a cache that lets maps go, and a game keeps its map's text with its set-up besides.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Final

from mummy.core.errors import ContentError
from mummy.server import clock
from mummy.server.errors import ServiceError
from mummy.server.store.repository import QuotaSpent, Repository
from mummy.tomb.content import CUSTOM_PREFIX, canonical_map_text, custom_map_text, fault_square, register_map_text

#: The window of the quota of new maps.
QUOTA_WINDOW: Final = timedelta(days=1)


@dataclass(frozen=True)
class MapOwner:
    """Who stores a custom map, for its quota: a client's address group
    (``limits.address_group``) and how many new maps it may store a day."""

    group: str
    quota: int = 50


class CustomMaps:
    """The custom maps of one database (``GameService.maps``)."""

    def __init__(self, repo: Repository) -> None:
        self.repo = repo

    def add(self, text: str, owner: MapOwner) -> str:
        """Check a map's text (T10), store it if it is new (within ``owner``'s quota) and
        register it in this process: its id."""
        try:
            map_id = register_map_text(text)
        except ContentError as exc:
            raise ServiceError(422, "bad_map", f"line {exc.line}: {exc.detail}", rule="T10",
                               where=fault_square(text, exc.line)) from None
        self.keep(map_id, canonical_map_text(text), owner)
        return map_id

    def text(self, map_id: str) -> str | None:
        """A custom map's canonical text: this process's, or the stored one (then registered
        here again); None for a map nobody stored."""
        if not map_id.startswith(CUSTOM_PREFIX):
            return None
        text = custom_map_text(map_id) or self.repo.map_text(map_id)
        if text is not None:
            register_map_text(text)
        return text

    def with_text(self, config: dict[str, Any]) -> dict[str, Any]:
        """A game's set-up with its custom map's stored text, when it names the map by id only."""
        map_id = config.get("map")
        if config.get("map_text") is None and isinstance(map_id, str) and map_id.startswith(CUSTOM_PREFIX):
            text = self.text(map_id[:64])
            if text is not None:
                return {**config, "map_text": text}
        return config

    def keep(self, map_id: str, text: str, owner: MapOwner | None) -> None:
        """Store a checked map unless it is stored already, counted against ``owner``'s
        quota when it is new (``429`` beyond). The owner is kept as a keyed hash of its
        address group: no address is stored."""
        owner = owner or MapOwner("unknown")
        key = hmac.new(self._owner_key(), f"maps:{owner.group}".encode(), hashlib.sha256).hexdigest()
        now = clock.now()
        try:
            self.repo.add_map(map_id, text, key, now, now - QUOTA_WINDOW, owner.quota)
        except QuotaSpent:
            raise ServiceError(429, "too_many_requests",
                               f"your address has stored {owner.quota} new maps in the last 24 hours, the most "
                               "it may; play one of them, or a packaged or generated map", retry_after=3600) from None

    @functools.cache  # noqa: B019 (one per service, for the process's life)
    def _owner_key(self) -> bytes:
        return self.repo.secret("owners").encode()


__all__ = ["QUOTA_WINDOW", "CustomMaps", "MapOwner"]
