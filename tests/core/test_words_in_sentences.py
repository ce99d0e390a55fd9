"""Sentences that name things from the data read right: "an Orc Mob", "asks a ransom"."""

import pytest

from battles.captives import ransom
from campaign.models import CampaignEvent
from core.errors import RuleViolation
from tests.battles.test_captives import capture, empty_chest, fought, hero
from warbands.rules import containers
from warbands.rules import hired_swords as sword_rules


def terms(name: str, **extra) -> sword_rules.HiredSwordTerms:
    return sword_rules.HiredSwordTerms(
        key=name.lower().replace(" ", "_"), name=name, hire_fee=20, upkeep=10, rating=10, **extra
    )


def test_a_refused_hire_reads_an_orc_mob_and_an_arabian_merchant():
    merchant = terms("Arabian Merchant", only=("Mercenaries",))
    refusal = sword_rules.hire_refusal(merchant, family="Orc Mob", list_rule=None)
    assert refusal == "An Orc Mob warband may not hire an Arabian Merchant."
    refusal = sword_rules.hire_refusal(merchant, family="Skaven", list_rule=None)
    assert refusal == "A Skaven warband may not hire an Arabian Merchant."


def test_one_of_each_type_and_rivals_read_with_their_article():
    ogre = terms("Ogre Bodyguard", never_with=("halfling_cook",))
    assert sword_rules.held_refusal(ogre, ["ogre_bodyguard"]) == (
        "The warband has an Ogre Bodyguard already: one of each type."
    )
    assert sword_rules.held_refusal(ogre, ["halfling_cook"]).startswith("An Ogre Bodyguard will")
    with pytest.raises(RuleViolation, match="Hiring an Ogre Bodyguard costs 20 gc"):
        sword_rules.check_hire_sword(
            ogre, family="Mercenaries", list_rule=None, held_keys=[], gold=5
        )


@pytest.mark.parametrize(
    ("child", "parent", "siblings", "said"),
    [
        ("pouch", "opulent_coach", [], "A Pouch cannot go in an Opulent Coach."),
        ("backpack", "backpack", [], "Nothing can be put in a Backpack."),
        (
            "treasure_chest",
            "pack_mule",
            ["treasure_chest", "treasure_chest"],
            "A Pack Animal (mule) carries at most 2 Treasure Chests.",
        ),
    ],
)
def test_a_container_refused_reads_with_its_article(child, parent, siblings, said):
    with pytest.raises(RuleViolation) as refused:
        containers.check_placement(child, parent, siblings)
    assert str(refused.value) == said


@pytest.mark.django_db
def test_a_warband_asks_a_ransom_in_the_singular(duel):
    captive = capture(hero(duel["reavers"], "Brandt"), duel["scourge"], fought(duel))
    scourge = duel["scourge"]
    ransom.set_ransom(captive, actor=scourge.owner, ransom=40, into=empty_chest(scourge))
    ransom.set_ransom(captive, actor=scourge.owner, ransom=50, into=empty_chest(scourge))
    ransom.set_ransom(captive, actor=scourge.owner, ransom=None, into=None)
    said = list(
        CampaignEvent.objects.filter(kind=CampaignEvent.Kind.CAPTURED)
        .order_by("pk")
        .values_list("message", flat=True)
    )[-3:]
    assert said[0] == f"{scourge.name} asks a ransom for Brandt of {duel['reavers'].name}."
    assert said[1].startswith(f"{scourge.name} changes the ransom for Brandt")
    assert said[2].startswith(f"{scourge.name} withdraws the ransom asked for Brandt")
