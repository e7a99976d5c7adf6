"""Coaching: par, reviews and hints of games (``coaching``), worked out by the analysis in
child processes at a lower priority (``lanes`` running ``coach_jobs``), stored
(``coach_store``); the printable sheets drawn in those children (``sheets``); and the
tutorial's steps (``tutorial``)."""
