"""New games' rows and seat tokens, and the seats a person holds, for the service.

What ``service`` decides (when a game is made, who may ask for its rematch) is there;
what the rows of a new game are, how a rematch's seat tokens are derived, and how a
held seat reads in "my games" is here, out of the service's flow of play.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
from typing import Any

from mummy.core.rng import new_seed
from mummy.games import commitment
from mummy.server import clock
from mummy.server.play.live import hash_token
from mummy.server.store.models import GameRow, SeatRow
from mummy.server.store.repository import Held

__all__ = ["held", "new_rows", "rematch_token"]


def new_rows(game_id: str, kind: str, cfg: dict[str, Any], names: list[str], bots: list[str | None],
             tokens: dict[int, str], seed: int | None = None, daily: str | None = None,
             entrant: str | None = None) -> tuple[GameRow, list[SeatRow]]:
    """A new game's row (a new secret seed unless one is given, its nonce and public
    commitment) and its seats' rows (the hashes of the people's ``tokens``)."""
    seed = new_seed() if seed is None else seed
    nonce = secrets.token_hex(16)
    row = GameRow(id=game_id, kind=kind, config=json.dumps(cfg), seed=seed, nonce=nonce,
                  commitment=commitment(kind, seed, nonce), version=0, over=False, daily=daily,
                  entrant=entrant, created=clock.now())
    seats = [SeatRow(game_id=game_id, seat=i, name=names[i], bot=bots[i],
                     token_hash=hash_token(tokens[i]) if i in tokens else None) for i in range(len(names))]
    return row, seats


def rematch_token(key: bytes, game_id: str, seat: int) -> str:
    """A rematch's seat token, derived rather than drawn: HMAC-SHA256 of the game's id
    and the seat under a server secret, as long as a drawn token (32 URL-safe
    characters). The server can give each player of the old game theirs whenever they
    ask, storing only its hash as for any seat; without the secret, no player can work
    out another's."""
    digest = hmac.new(key, f"rematch:{game_id}:{seat}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode()


def held(row: Held) -> dict[str, Any]:
    """A seat held, as "my games" lists it; a finished game with the seat's own part of its
    result, so that a page comparing results (the results screen's personal best) asks
    once, not once a game: ``players``, the seat's ``place``, ``where`` (a solo game's map
    or site, as its board has it) and ``result``, the game's result with each per-seat
    entry at this seat (the Tomb's ``scores`` a number and ``lines`` the seat's lines,
    Treasure's ``squares`` and ``turns``; shared entries such as ``reason`` as they are)."""
    out: dict[str, Any] = {"id": row.id, "game": row.kind, "seat": row.seat, "name": row.name,
                           "version": row.version, "over": row.over, "daily": row.daily}
    if row.over and row.result is not None:
        result = json.loads(row.result)
        players = len(result["places"])
        out.update(players=players, place=result["places"][row.seat], where=row.place,
                   result={k: v[row.seat] if isinstance(v, list) and len(v) == players else v
                           for k, v in result.items()})
    return out
