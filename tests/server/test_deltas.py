"""Lean updates: what a client is sent after an action is the patch from the view it has
(a JSON Patch, RFC 6902), and the patches applied by a client model (``wire.followed``,
what js/api.js does) give the whole view after every action of a long game of each kind,
also when a message is lost on the way (the client asks for the whole view again) and
when the server knows the client is behind (it sends the whole view)."""

from __future__ import annotations

import json
import random
from typing import Any

import jsonpatch
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from mummy.server.play.service import GameService
from mummy.server.play.wire import delta_message, diff, followed, patch, view_message

SETUPS = {"tomb": {"map": "map1", "mode": "standard"}, "treasure": {}}


def message(svc: GameService, game_id: str, token: str | None, have: int) -> dict[str, Any]:
    """What the server sends this client, which it believes has the view of ``have``."""
    [(version, base, text)] = svc.updates(game_id, [(token, have)])
    sent = view_message("update", version, text) if base is None else delta_message(base, version, text)
    return dict(json.loads(sent))


def whole(svc: GameService, game_id: str, token: str | None) -> dict[str, Any]:
    [(_, text)] = svc.view_texts(game_id, [token])
    return dict(json.loads(text))


class Client:
    """One page's view, kept by the messages it reads, as the browser keeps it; and the
    version the server believes it has (the newest it queued for it, ``hub.Connection``)."""

    def __init__(self, svc: GameService, game_id: str, token: str | None) -> None:
        self.svc, self.game_id, self.token = svc, game_id, token
        self.view: dict[str, Any] = whole(svc, game_id, token)
        self.queued = self.view["version"]
        self.resyncs = self.wholes = 0

    def read(self, fate: str | None) -> None:
        """The update after an action: read; ``lost`` on the way (the next patch does not
        follow the client's view: it asks for the whole view, a resync); or ``skipped``
        (not sent: the server knows the client is behind, and sends it the whole view)."""
        if fate == "skipped":
            return
        sent = message(self.svc, self.game_id, self.token, self.queued)
        self.queued = sent["version"]
        if fate == "lost":
            return
        if sent["type"] == "update":
            self.wholes += 1
        view = followed(self.view, sent)
        if view is None:  # the patch starts from a view this client does not have
            self.resyncs += 1
            view = whole(self.svc, self.game_id, self.token)
            self.queued = view["version"]
        elif sent["type"] == "delta":
            assert jsonpatch.apply_patch(self.view, sent["patch"]) == view  # the standard's reading, too
        self.view = view


def choose(legal: list[str], rng: random.Random) -> str:
    """A legal action at random, ending a Tomb round often enough for a game to end."""
    return "end" if "end" in legal and rng.random() < 0.4 else rng.choice(legal)


def play(service: GameService, kind: str, seed: int, fates: dict[tuple[int, int], str]) -> list[Client]:
    """A game of two people to its end, with a spectator: after each action every client
    reads its update (or meets its fate), and then has the whole view of the version."""
    created = service.create(kind, [{"name": "Ann"}, {"name": "Bob"}], dict(SETUPS[kind]), seed=seed)
    game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    clients = [Client(service, game_id, t) for t in (*tokens, None)]
    rng = random.Random(seed)
    current = whole(service, game_id, None)
    for n in range(1000):
        if current["over"]:
            break
        seat = rng.choice(current["to_act"])
        legal = whole(service, game_id, tokens[seat])["legal"]
        service.act(game_id, tokens[seat], f"c{n}", current["version"], choose(legal, rng))
        for i, client in enumerate(clients):
            fate = fates.get((n, i))
            client.read(fate)
            if fate is None:
                assert client.view == whole(service, game_id, client.token), (n, i)
        current = whole(service, game_id, None)
    assert current["over"], "the game did not end"
    return clients


FATES = st.dictionaries(st.tuples(st.integers(0, 120), st.integers(0, 2)), st.sampled_from(["lost", "skipped"]),
                        max_size=10)


# Each example is a whole game: no shrinking (a failure names its seed and fates as they came).
@settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck),
          phases=(Phase.explicit, Phase.generate))
@given(seed=st.integers(0, 10_000), fates=FATES)
@pytest.mark.slow  # three whole games an example: 4-6 s
@pytest.mark.parametrize("kind", ["tomb", "treasure"])
def test_patches_give_the_whole_view_after_every_action(service: GameService, kind: str, seed: int,
                                                        fates: dict[tuple[int, int], str]) -> None:
    clients = play(service, kind, seed, fates)
    # A whole view only after a message lost or not sent (and then at most one each).
    assert sum(c.resyncs + c.wholes for c in clients) <= len(fates)


def test_a_lost_update_is_resynchronised_and_a_skipped_one_sent_whole(service: GameService) -> None:
    clients = play(service, "treasure", 4, {(3, 0): "lost", (10, 2): "skipped"})
    assert (clients[0].resyncs, clients[0].wholes) == (1, 0)
    assert (clients[2].resyncs, clients[2].wholes) == (0, 1)
    assert (clients[1].resyncs, clients[1].wholes) == (0, 0)


def test_a_patch_of_another_players_move_is_small(service: GameService) -> None:
    """What Bob is sent when Ann moves: her sheet's changes and the new log line, not the
    game (the whole view is 7-25 KB)."""
    created = service.create("tomb", [{"name": "Ann"}, {"name": "Bob"}], dict(SETUPS["tomb"]), seed=3)
    game_id, (ann, bob) = created["id"], [s["token"] for s in created["seats"]]
    sizes = []
    for n in range(12):
        before = whole(service, game_id, bob)
        legal = whole(service, game_id, ann)["legal"]
        if not legal:
            break
        service.act(game_id, ann, f"a{n}", before["version"], legal[0])
        sent = message(service, game_id, bob, before["version"])
        assert sent["type"] == "delta" and patch(before, sent["patch"]) == whole(service, game_id, bob)
        sizes.append(len(json.dumps(sent)))
    assert sizes and max(sizes) < 2048 < len(json.dumps(whole(service, game_id, bob)))


def test_diff_shifts_a_tail_and_appends() -> None:
    old = {"log": [1, 2, 3], "n": 1}
    ops = diff(old, {"log": [2, 3, 4], "n": 1})
    assert ops == [{"op": "remove", "path": "/log/0"}, {"op": "add", "path": "/log/-", "value": 4}]
    assert diff({"a/b": 1}, {"a/b": 2}) == [{"op": "replace", "path": "/a~1b", "value": 2}]
    assert patch(old, ops) == {"log": [2, 3, 4], "n": 1} and old == {"log": [1, 2, 3], "n": 1}
