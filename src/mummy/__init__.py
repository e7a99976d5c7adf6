"""mummy: the digital home of The Mummy's Tomb and Mummy's Treasure.

Layers depend one way: ``core`` (geometry, seeded streams, errors) under the pure rules
of each game (``tomb``), under rendering and the interfaces (``render``, ``terminal``,
``cli``). The rules never import what sits above them.
"""

__version__ = "0.1.0"
