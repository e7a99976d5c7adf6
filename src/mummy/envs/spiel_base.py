"""What the two OpenSpiel games share: their game type and their observers' strings.

Why a module of its own: :mod:`mummy.envs.spiel_tomb` and :mod:`mummy.envs.spiel_treasure`
each build a ``pyspiel.GameType`` of the same kind and an observer that answers strings
the same way; written once here, the two games cannot drift apart in what OpenSpiel's
algorithms are told about them. The overview of both games is :mod:`mummy.envs.spiel`.
"""

from __future__ import annotations

from typing import Any

import pyspiel


def game_type(short_name: str, long_name: str, max_players: int, parameters: dict[str, Any]) -> Any:
    """Both games are sequential, with explicit chance, perfect information (nothing is
    hidden from a seat that the others know) and terminal general-sum returns."""
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max_players,
        min_num_players=1,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )


class HistoryStrings:
    """The string half of an OpenSpiel PyObserver, the same for both games: with perfect
    recall (the information state) a state is its history of integers, chance included;
    otherwise (the observation) it is the state's own description of the table."""

    def __init__(self, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)

    def string_from(self, state: pyspiel.State, player: int) -> str:
        if self.perfect_recall:
            return str(state.history_str())
        return str(state)


__all__ = ["HistoryStrings", "game_type"]
