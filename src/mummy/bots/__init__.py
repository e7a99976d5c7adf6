"""Bots for both games: one Agent interface, random, greedy and strong players."""
