"""The Mummy's Tomb: content, rules engine, notation and scoring (pure, no I/O)."""
