"""Animosity (``battles.rules.animosity``) entry by entry against the Orc Mob list's text: a D6
per model, a 1 takes offence, and a second D6 on the result table (1: I 'Erd Dat!, 2-5: Wud
Yoo Say?, 6: I'll Show Yer!), in our own words."""

from pathlib import Path

import pytest

from battles.rules import animosity
from core.dice import ScriptedDice
from tests.warbands.test_rule_summaries import runs

LIST_TEXT = "warbands-core-and-grade-1a.md"


def orc_mob_text() -> str:
    """The Orc Mob's special rules in the reference file, wherever the checkout lives."""
    for parent in Path(__file__).resolve().parents:
        found = parent / "shared" / "rules" / "reference" / LIST_TEXT
        if found.exists():
            text = found.read_text(encoding="utf-8")
            return text[text.index("**Animosity:** Orcs and Goblins") :][:5000]
    pytest.skip("the rule texts are not beside this checkout")


@pytest.mark.parametrize("first", [2, 3, 4, 5, 6])
def test_anything_but_a_one_is_no_offence_and_rolls_nothing_more(first):
    dice = ScriptedDice([first])

    rolled = animosity.roll(dice, "Boyz #1")

    assert (rolled.first, rolled.second, rolled.result, rolled.offended) == (first, None, None,
                                                                            False)  # fmt: skip
    assert dice.remaining == ()


@pytest.mark.parametrize(
    ("second", "key", "name"),
    [
        (1, "i_erd_dat", "I 'Erd Dat!"),
        (2, "wud_yoo_say", "Wud Yoo Say?"),
        (3, "wud_yoo_say", "Wud Yoo Say?"),
        (4, "wud_yoo_say", "Wud Yoo Say?"),
        (5, "wud_yoo_say", "Wud Yoo Say?"),
        (6, "ill_show_yer", "I'll Show Yer!"),
    ],
)
def test_a_one_rolls_again_on_the_result_table(second, key, name):
    rolled = animosity.roll(ScriptedDice([1, second]), "Boyz #1")

    assert (rolled.second, rolled.result.key, rolled.result.name) == (second, key, name)
    assert rolled.offended
    assert f'"{name}"' in orc_mob_text()  # the table's own names


def test_the_rolls_are_named_for_the_dice_log():
    purposes = []
    dice = ScriptedDice([1, 4], recorder=lambda roll: purposes.append(roll.purpose))
    animosity.roll(dice, "Snikkit #1")
    assert purposes == ["Animosity: Snikkit #1", "Animosity: Snikkit #1, the result"]


def test_the_rule_is_found_by_its_effect_not_its_name():
    assert animosity.subject([{"name": "Animosity"}]) is None
    rule = {"name": "Squabbling", "effect": "animosity"}
    assert animosity.subject([{"name": "Fear"}, rule]) is rule


def test_only_a_goblins_charge_spares_the_orcs():
    goblin = {"effect": "animosity", "never_charges_orcs": True}
    charge = animosity.Roll(1, 1, animosity.I_ERD_DAT)
    insults = animosity.Roll(1, 3, animosity.WUD_YOO_SAY)

    assert animosity.SPARES_ORCS in animosity.describe("Snikkit #1", charge, goblin)
    assert animosity.SPARES_ORCS not in animosity.describe("Snikkit #1", insults, goblin)
    assert animosity.SPARES_ORCS not in animosity.describe("Boyz #1", charge, {})


def test_the_results_are_said_in_our_own_words_and_fit_a_line_of_the_log():
    text_runs = runs(orc_mob_text())
    for result in animosity.RESULTS.values():
        assert not runs(result.does) & text_runs, result.key
        line = animosity.describe("X" * 30, animosity.Roll(1, 1, result), {"never_charges_orcs": 1})
        assert len(line) <= 300, result.key


@pytest.mark.parametrize("first", [1, 2, 3, 4, 5, 6])
def test_one_roll_for_them_all_squabbles_on_a_one_and_rolls_nothing_more(first):
    """Night Goblins (Mordheimer's Information Centre): one D6, no result table."""
    dice = ScriptedDice([first, 6])
    rolled = animosity.roll_together(dice, "Night Gits", 3)
    assert rolled.result == (animosity.SQUABBLE if first == 1 else None)
    assert dice.remaining == (6,)
