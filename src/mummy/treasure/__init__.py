"""Mummy's Treasure: content, rules engine, exact dice odds and packing (pure, no I/O)."""
