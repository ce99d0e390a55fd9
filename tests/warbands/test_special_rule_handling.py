"""Every special rule the app shows says whether the app applies it: applied (and where), its
campaign part kept by the roster, or played at the table. An effect is called applied only if
the code reads it."""

import re
from pathlib import Path

import pytest
from django.urls import reverse

from tests.factories import WarbandFactory, hire
from warbands.models import Skill, WarbandType, WarriorType
from warbands.rules.families import counted_family
from warbands.rules.special_rules import (
    APPLIED,
    APPLIED_EFFECTS,
    PART,
    TABLE,
    handling,
    handling_for,
)

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def code_outside_the_data() -> str:
    """The app's Python, without the list data, the migrations and the registry itself."""
    texts = []
    for app in ("warbands", "battles"):
        for path in (ROOT / app).rglob("*.py"):
            parts = path.relative_to(ROOT).parts
            if "data" in parts or "migrations" in parts or path.name == "special_rules.py":
                continue
            texts.append(path.read_text())
    return "\n".join(texts)


@pytest.mark.parametrize("effect", sorted(APPLIED_EFFECTS))
def test_an_effect_called_applied_is_read_by_the_code(effect):
    assert re.search(rf'"{effect}"', code_outside_the_data()), effect


def test_every_effect_the_data_names_is_applied():
    """No rule of the lists is shown as played at the table while its data names an effect."""
    named = {rule.get("effect") for t in WarbandType.objects.all() for rule in t.special_rules}
    named |= {r.get("effect") for t in WarriorType.objects.all() for r in t.special_rules}
    named |= set(Skill.objects.values_list("effect", flat=True))
    assert named - {None, ""} <= set(APPLIED_EFFECTS)
    assert {"upkeep", "needs_tamer", "wardogs_free_slots"} <= named


@pytest.mark.parametrize(
    ("rule", "warrior", "kind"),
    [
        ({"name": "Incomparable Miners", "effect": "wyrdstone_bonus"}, None, APPLIED),
        ({"name": "Always Hungry", "effect": "upkeep"}, {}, APPLIED),  # the Troll's upkeep
        ({"name": "Trained"}, {}, TABLE),
        ({"name": "Tainted", "effect": "counts_as_possessed"}, None, APPLIED),
        ({"name": "Fear"}, {}, TABLE),
        ({"name": "Leader"}, {"is_leader": True}, PART),
        ({"name": "Leader"}, {"is_leader": False}, TABLE),
        ({"name": "Wizard"}, {"spell_list": 3}, PART),
        ({"name": "Wizard"}, {"spell_list": None}, TABLE),
        ({"name": "Animals"}, {"gains_experience": False}, PART),
        ({"name": "Animal"}, {"gains_experience": True}, TABLE),  # the Ungor-like "animal"
        ({"name": "Large Target"}, {"is_large": True}, PART),
        ({"name": "Leader"}, None, TABLE),  # a list's rule, not a warrior's
    ],
)
def test_what_the_app_does_with_a_rule(rule, warrior, kind):
    assert handling(rule, warrior).kind == kind


@pytest.mark.parametrize(
    ("family", "rules", "counted"),
    [
        ("Carnival of Chaos", [{"effect": "counts_as_possessed"}], "Cult of the Possessed"),
        ("Carnival of Chaos", [{"effect": "hired_swords"}], "Carnival of Chaos"),
        ("Mercenaries", [], "Mercenaries"),
    ],
)
def test_a_list_counts_as_the_possessed_by_its_effect(family, rules, counted):
    assert counted_family(family, rules) == counted


def test_every_rule_of_every_list_is_said_applied_or_left_to_the_table():
    kinds = {APPLIED: 0, PART: 0, TABLE: 0}
    for warband_type in WarbandType.objects.prefetch_related("warrior_types"):
        for rule in warband_type.special_rules:
            kinds[handling(rule).kind] += 1
        for warrior_type in warband_type.warrior_types.all():
            for rule in warrior_type.special_rules:
                kinds[handling_for(rule, warrior_type).kind] += 1
    assert all(kinds.values()), kinds  # each kind occurs, and nothing is left unsaid


def test_the_muster_board_says_which_rules_the_app_applies(client):
    warband = WarbandFactory(warband_type=WarbandType.objects.get(key="orc_mob"))
    hire(warband, "orc_boss")
    hire(warband, "troll")
    client.force_login(warband.owner)
    page = client.get(reverse("warband_muster", args=[warband.pk])).content.decode()
    notes = re.findall(r'data-testid="rule-handling">([^<]*)<', page)
    assert "Applied by the app: which hired swords the warband may hire." in notes
    assert "Applied by the app: serious injuries (post-battle step 1)." in notes  # Regeneration
    assert (
        "Applied by the app: its upkeep after every battle, paid or it leaves (post-battle step 7)."
        in notes
    )  # Always Hungry
    assert notes.count("Played at the table: the app does not track it.") >= 3  # Fear, …
    assert any(note.startswith("The app keeps who leads") for note in notes)


def test_the_printed_sheet_says_it_too(client):
    warband = WarbandFactory(warband_type=WarbandType.objects.get(key="orc_mob"))
    hire(warband, "orc_boss")
    hire(warband, "troll")
    client.force_login(warband.owner)
    page = client.get(reverse("warband_print", args=[warband.pk])).content.decode()
    assert "(played at the table)" in page and "(applied by the app)" in page
