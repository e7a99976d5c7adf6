"""Settings for the whole suite."""

from __future__ import annotations

import os

# The server computes par when a person's solo game ends (docs/analysis.md §6): a bot's
# whole game in a child process. The suite finishes hundreds of solo games, each of which
# would start one on a 2-core machine; the coaching tests turn it on for their own servers
# (MUMMY_ANALYSIS=quick). "off" still answers a page that asks for par or a review.
os.environ.setdefault("MUMMY_ANALYSIS", "off")
