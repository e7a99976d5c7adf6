"""Simulation for designers: many seeded games, summaries and HTML reports."""
