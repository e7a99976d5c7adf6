"""``mummy``'s help lists what the registry lists (issue 33: the help of ``sim`` and
``play`` named random, greedy and strong, and forgot ``expert`` and ``exact``)."""

from __future__ import annotations

import re

import pytest

from mummy.cli import main
from mummy.games import games


def _help(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    with pytest.raises(SystemExit) as ended:
        main([*args, "--help"])
    assert ended.value.code == 0
    return " ".join(capsys.readouterr().out.split())  # argparse wraps its lines


def _bots_in(text: str) -> set[str]:
    return set(re.findall(r"[a-z]+", text))


AGENTS = {name: [b.name for b in game.bots] for name, game in games().items()}


@pytest.mark.parametrize("game", list(AGENTS))
def test_play_help_lists_every_bot_of_its_game(capsys: pytest.CaptureFixture[str], game: str) -> None:
    text = _help(capsys, "play", game)
    listed = _bots_in(text.split("bots:", 1)[1])
    assert set(AGENTS[game]) <= listed
    others = {b for g in AGENTS if g != game for b in AGENTS[g]} - set(AGENTS[game])
    assert not others & listed, "a bot of another game"
    for bot in games()[game].bots:
        if bot.extra:
            assert f"{bot.name} needs the {bot.extra} extra" in text


def test_sim_help_lists_every_bot_of_every_game(capsys: pytest.CaptureFixture[str]) -> None:
    text = _help(capsys, "sim")
    for game, bots in AGENTS.items():
        assert f"{game}: {', '.join(bots)}" in text
