"""Rules text at hand for equipment: every item of the price
chart has a summary of our own, never a run of the rule texts' words; the converter writes
the gromril weapons' from its hand-written input; migration 0028 loads them again; the
roster shows an item's summary beside its name."""

import json

import pytest
from django.apps import apps as django_apps
from django.urls import reverse
from django.utils.html import escape

from tests.factories import WarbandFactory, hire
from tests.warbands.test_rule_summaries import RULES, rule_texts, runs
from warbands.models import Item
from warbands.reference import DATA_DIR
from warbands.rule_summaries import load_rule_summaries

SWORD = (
    "Lets its wielder parry: beat the enemy's best hit roll on a D6 to cancel that hit"
    " (not against twice his Strength or more)."
)


def _chart() -> list[dict]:
    return json.loads((DATA_DIR / "equipment.json").read_text(encoding="utf-8"))["items"]


def test_every_item_of_the_chart_has_a_short_summary_of_its_own():
    items = _chart()
    # the Grade 1a chart, and the 1b lists' chart items: javelins (Norse Explorers), the
    # Pirates' twelve special items, the Hochland Bandits' main gauche, the two weapons and
    # seven special items of the Skaven of Clan Pestilens, serpent staff, Nehekharan javelins
    # and asp arrows (Tomb Guardians), the Dark Elves' beastlash, blades (sword, dagger) and
    # Sea Dragon Cloak, the Shadow Warriors' runestones, wine, standard and war horn, the
    # Pit Fighters' trident and the gromril flail and spiked gauntlet of their Troll Slayer,
    # Amazons (Mordheim)'s Claw of the Old Ones, Sun Gauntlet, Sunstaff and Amulet of the Moon,
    # the Amazons (Lustria)'s Starblade, Starsword, bolas, Sunstaff (Lustria), Enchanted Skins
    # and Conch Shell Horn
    # + the Forest Goblins' boss pole, Magic Gubbinz and jewellery (the bolas, the Lizardmen's
    # too, are counted with the Amazons (Lustria)'s) + the Arabian Tomb Raiders' tufenk and
    # katar + the Bretonnian barding + the Horned Hunters' blessed stag hide and trip wire
    # + the Mootlanders' cleaver, kitchen knife, ladle, tenderiser and cooking pot helmet
    # + the Outlaws of Stirwood Forest's forest cloak + the Tileans' pike + the Gunnery School
    # of Nuln's double-barrelled and repeater guns, braces, mortar and pigeon bombs
    # + the Battle Monks of Cathay's Dragon Sword, Cathayan longsword, quarter staff, chain
    # sticks and fish-hook shot + the Black Dwarfs' man-catcher, mechanical suit and Engine of
    # Chaos + the Sons of Hashut's Chaos Dwarf blunderbuss, poisoned daggers and obsidian weapon
    # + the Marauders of Chaos' barbed whip and great axe + the Bretonnian Chapel Guard's
    # broadsword, shortsword and kite shield + The Cursed Cavalcade's nightmare
    # + the Night Goblins' poison daggers + the Maneaters' Ogre club, iron fist, harpoon
    # crossbow, three claimed Gnoblars and the Gnoblar fighter (their Cathayan longsword is
    # the Battle Monks') + the Merchant Caravans' pike and trade wagon (their dragon sword is
    # the Battle Monks') + the Lustrian Reavers' misericordia
    assert len(items) == (
        114
        + 1
        + 12
        + 1
        + 2
        + 7
        + 3
        + 4
        + 4
        + 3
        + 4
        + 6
        + 3
        + 2
        + 1
        + 2
        + 5
        + 1
        + 1
        + 9
        + 5
        + 3
        + 3
        + 2
        + 3
        + 1
        + 1
        + 7
        + 2
        + 1
    )
    for item in items:
        summary = item.get("summary", "")
        assert summary.strip(), f"{item['key']}: no summary"
        assert len(summary) <= 200, f"{item['key']}: more than a sentence or two"
        assert summary != item["notes"], f"{item['key']}: the notes again"


def test_the_gromril_weapons_summary_comes_from_the_converters_input():
    mapping = json.loads((DATA_DIR / "bsdata_lists.json").read_text(encoding="utf-8"))
    gromril = [item for item in _chart() if item["notes"].startswith("Gromril weapon")]
    assert len(gromril) == 8 + 2  # the flail and the spiked gauntlet (Pit Fighters)
    assert {item["summary"] for item in gromril} == {mapping["gromril_weapons"]["summary"]}


@pytest.mark.skipif(not RULES.is_dir(), reason="the rule texts (../shared/rules) are not here")
def test_no_item_summary_copies_the_rule_texts():
    rule_runs = runs(rule_texts())
    copied = [
        f"{item['key']}: {' '.join(sorted(runs(item['summary']) & rule_runs)[0])}"
        for item in _chart()
        if runs(item["summary"]) & rule_runs
    ]
    assert copied == []


def test_the_loaded_items_carry_their_summaries(db):
    keys = [item["key"] for item in _chart()]
    assert Item.objects.get(key="sword").summary == SWORD
    assert not Item.objects.filter(key__in=keys, summary="").exists()


def test_the_summary_loader_of_migration_0028_brings_them_back(db):
    Item.objects.update(summary="")

    load_rule_summaries(django_apps)

    assert Item.objects.get(key="sword").summary == SWORD
    assert Item.objects.get(key="gromril_axe").summary.startswith("Dwarf-forged")
    keys = [item["key"] for item in _chart()]
    assert not Item.objects.filter(key__in=keys, summary="").exists()


def test_the_roster_shows_each_item_with_its_summary(client, db):
    warband = WarbandFactory(name="Reavers")
    hire(warband, "mercenary_captain", items=["sword"], name="Adler")
    client.force_login(warband.owner)

    page = client.get(reverse("warband_roster", args=[warband.pk])).content.decode()

    assert f'Sword</span><small class="rule-summary">{escape(SWORD)}</small>' in page
