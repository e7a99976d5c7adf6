"""How well a game was played on its own dice: par and a review of every decision.

A game is its seed plus its actions (T4.6, R2.2), so the strongest bot can play the same
dice: its score there is the game's *par*, and the player's *result* against it is luck
taken out. The review values each decision of a record against the bot's choice from
the same position. Layer: players and tools; this package imports the rules, the
registry and the bots, never what sits above them. Entry points:
:func:`mummy.analysis.review.par` and :func:`mummy.analysis.review.review`; the command is
``mummy review`` (``cli_review.py``); docs/analysis.md says what the numbers mean.
"""
