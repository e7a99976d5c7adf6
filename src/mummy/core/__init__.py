"""Shared foundations: grid geometry, polyominoes, seeded dice streams and errors."""
