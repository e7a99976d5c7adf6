"""A view keeps what the moves since the last one left as it was (``LiveGame._fresh``):
the pictures of the sheets and the legal actions of the seats no move affected. Whatever
the order of the players' moves, the view made that way is the view made afresh."""

from __future__ import annotations

import random

import pytest

from mummy.server.play.service import GameService


@pytest.mark.parametrize("seed", [3, 99, 2024])
def test_a_view_made_from_the_last_one_is_the_view_made_afresh(service: GameService, seed: int) -> None:
    created = service.create("tomb", [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}], {}, seed=seed)
    game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    rng = random.Random(seed)
    kept = 0
    for step in range(120):
        views = [service.view(game_id, token) for token in tokens]  # each seat's, as connections ask
        live = service.copies.games[game_id]
        assert live.state() == live.kind.view(live.game)
        for seat, view in enumerate(views):
            assert view["state"] == live.kind.view(live.game)
            if "actions" in view:
                assert view["actions"] == live.kind.legal_json(live.game, seat)
                assert view["legal"] == live.kind.legal(live.game, seat)
        movers = [seat for seat, view in enumerate(views) if view.get("legal")]
        if not movers:
            break
        seat = rng.choice(movers)
        legal = views[seat]["legal"]
        text = rng.choice([t for t in legal if t != "end"] or legal)
        if rng.random() < 0.1 and views[seat].get("can_undo"):
            text = "undo"
        result = service.act(game_id, tokens[seat], f"s{step}", views[seat]["version"], text)
        kept += result["version"] > 1
    assert kept > 20  # the game went on for a while: several rounds of moves by all three
