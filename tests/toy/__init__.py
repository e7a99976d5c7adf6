"""Toy Tally: a third game, registered from outside the package, to show (and test) that a
game is one package and one registration (docs/architecture.md, "Adding a game")."""

from __future__ import annotations

from mummy.games import Bot, Game

TOY = Game(
    name="toy", title="Toy Tally", kind="tests.toy.parts:ToyKind",
    summary="Write each round's shared die in a box; box k scores the die times k.",
    bots=(Bot("random", "tests.toy.parts:RandomToy", "any empty box"),
          Bot("greedy", "tests.toy.parts:GreedyToy", "a high die high, a low die low")),
    sim="tests.toy.parts:ToySim", terminal="tests.toy.parts:ToyTerminal", narrator="tests.toy.parts:ToyNarrator",
)
