"""Rendering: pure functions from game state to text (and later SVG)."""
