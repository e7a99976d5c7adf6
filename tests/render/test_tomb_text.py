"""Text rendering of a sheet."""

from mummy.render.tomb_text import legal_summary, render_map, render_sheet
from tests.helpers import act, game


def test_map_shows_walls_openings_entrances_stone_rooms_and_findings() -> None:
    g = game()
    act(g, "1:5a.r0@J1")
    lines = render_map(g.sheets[0])
    text = "\n".join(lines)
    assert len(lines) == 1 + 2 * 12 + 1
    row2 = lines[4]  # the cells of row 2
    assert row2.startswith("  2 ")
    assert "~:::" in row2 and ":::~" in row2  # I2w and K2e are open openings
    assert " E " in lines[-1]  # C12's entrance on the bottom border
    assert "###" in text and "[S]" in text and "{R}" in text and " $3" in text


def test_sheet_shows_dice_tracks_mummy_and_score() -> None:
    g = game()
    act(g, "1:5a.r0@J1")
    text = render_sheet(g)
    assert "Round 1/20  rolled 5 5" in text
    assert "dice: 1:5x  2:5" in text
    assert "Mummy: alerts 0/18" in text
    assert "Score now:" in text


def test_legal_summary_groups_actions_by_kind() -> None:
    g = game()
    text = legal_summary(g, 0, limit=3)
    assert text.splitlines()[0].startswith("place [")
    assert "..." in text
