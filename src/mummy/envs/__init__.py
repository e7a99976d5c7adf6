"""Research interfaces: both games as Gymnasium, PettingZoo and OpenSpiel games.

Importing this package registers everything the installed libraries can take:

* Gymnasium ids ``mummy/TombSolo-v0`` and ``mummy/TreasureSolo-v0``;
* OpenSpiel short names ``mummy_tomb`` and ``mummy_treasure`` (``pyspiel.load_game``).

PettingZoo has no registry: ``mummy.envs.pz_envs.treasure_aec_env`` and
``tomb_parallel_env`` build the environments. Everything here sits above the engines
(the rules never import it) and needs the ``research`` extra
(``pip install 'mummy[research]'``: gymnasium, pettingzoo, open-spiel). The encodings are
in :mod:`mummy.envs.tomb_codec` and :mod:`mummy.envs.treasure_codec`, documented in
docs/research.md.
"""

from __future__ import annotations

import importlib.util

try:
    import numpy  # noqa: F401 - the codecs need it; say what to install when it is missing
except ImportError as exc:  # pragma: no cover - depends on the installation
    raise ModuleNotFoundError("mummy.envs needs the research extra: pip install 'mummy[research]'") from exc

GYM_IDS = ("mummy/TombSolo-v0", "mummy/TreasureSolo-v0")
SPIEL_NAMES = ("mummy_tomb", "mummy_treasure")


def register_gymnasium() -> bool:
    """Register the Gymnasium ids (once); False when Gymnasium is not installed."""
    if importlib.util.find_spec("gymnasium") is None:
        return False
    import gymnasium

    if GYM_IDS[0] not in gymnasium.registry:
        gymnasium.register(id=GYM_IDS[0], entry_point="mummy.envs.gym_envs:TombSoloEnv")
        gymnasium.register(id=GYM_IDS[1], entry_point="mummy.envs.gym_envs:TreasureSoloEnv")
    return True


def register_open_spiel() -> bool:
    """Register the OpenSpiel games (importing :mod:`mummy.envs.spiel` does it once);
    False when OpenSpiel is not installed."""
    if importlib.util.find_spec("pyspiel") is None:
        return False
    import mummy.envs.spiel  # noqa: F401 - registers on import

    return True


register_gymnasium()
register_open_spiel()

__all__ = ["GYM_IDS", "SPIEL_NAMES", "register_gymnasium", "register_open_spiel"]
