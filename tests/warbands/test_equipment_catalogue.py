"""The equipment catalogue in full: every item of the reference chapter's
core and Grade 1a sources with its price and rarity, the gromril and ithilmar multiples of
FACTS.md section 7, and who may have each item (``warbands.rules.restrictions``)."""

import json
import re

import pytest

from tests.trading_texts import CHAPTER
from warbands.models import EquipmentListEntry, Item, WarbandType
from warbands.reference import DATA_DIR
from warbands.rules.restrictions import Restriction, may_have

# The chapter's heading, where the app's key is not its snake_case: a shared chart line, a
# plural, a spelling, an item the app keeps elsewhere (None: the coach is a container).
KEYS = {
    "club, mace or hammer": "club", "throwing knives/stars": "throwing_knives",
    "hunting rifle": "hochland_long_rifle", "rope & hook": "rope_and_hook",
    "holy (unholy) relic": "holy_relic", "TEARS OF SHALLAYA": "tears_of_shallya",
    "WARDOGS": "wardog", "RIDING/DRAFT HORSE": "riding_horse", "bugman's ale": "bugmans_ale",
    "OPULENT COACH": None, "gromril weapon": None, "ithilmar weapon": None,
    "double-handed weapon": "double_handed_weapon", "elf bow": "elf_bow",
}  # fmt: skip
# Items of other grades that a Grade 1a list names (Kislevites, Middenheim).
LISTED_OTHER_GRADES = {"bear-claw necklace", "vodka", "wolfcloak"}


def chapter_entries() -> list[tuple[str, str, int, str | None, int | None]]:
    """(heading, key, price, price dice, rarity) of each priced core or Grade 1a entry."""
    entries, heading = [], None
    for line in CHAPTER.read_text(encoding="utf-8").splitlines():
        if line.startswith("### "):
            heading = line[4:].strip()
            continue
        found = re.match(
            r"\*\*Source:\*\* (.*) · \*\*Cost:\*\* (.*) · \*\*Availability:\*\* (.*)", line
        )
        if not found or heading is None:
            continue
        source, cost, availability = found.groups()
        if not re.search(r"\((core|1a)\)$", source) and heading not in LISTED_OTHER_GRADES:
            continue
        key = KEYS.get(
            heading, re.sub(r"[^a-z0-9]+", "_", heading.lower().replace("'", "")).strip("_")
        )
        if key is None:
            continue
        price = re.match(r"(?:1st free/)?(\d+)(?: \+ (\d*D6(?: x \d+)?))?", cost)
        dice = price.group(2)
        if dice:
            dice = dice.replace(" x ", "x").removeprefix("1")
        rare = re.match(r"Rare (\d+)", availability)
        entries.append(
            (heading, key, int(price.group(1)), dice, int(rare.group(1)) if rare else None)
        )
    return entries


ENTRIES = chapter_entries()


def test_the_chapter_is_read():
    assert len(ENTRIES) > 80
    assert ("fighting claws", "fighting_claws", 35, None, 7) in ENTRIES


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("heading", "key", "price", "dice", "rarity"), ENTRIES, ids=lambda v: str(v)
)
def test_every_entry_of_the_chapter_is_in_the_catalogue(heading, key, price, dice, rarity):
    item = Item.objects.filter(key=key).first()
    assert item is not None, f"{heading}: no item {key}"
    assert (item.price, item.price_dice or None, item.rarity) == (price, dice, rarity)


def chart():
    return {
        row["key"]: row for row in json.loads((DATA_DIR / "equipment.json").read_text())["items"]
    }


@pytest.mark.parametrize(
    ("prefix", "multiple", "rarity"), [("gromril_", 4, 11), ("ithilmar_", 3, 9)]
)
def test_gromril_and_ithilmar_weapons_cost_their_multiple(prefix, multiple, rarity):
    """FACTS.md section 7: gromril four times the weapon's price, Rare 11; ithilmar three
    times, Rare 9 (the armours are items of their own)."""
    items = chart()
    weapons = [
        row
        for key, row in items.items()
        if key.startswith(prefix) and row["category"] == "hand_to_hand"
    ]
    assert {row["key"].removeprefix(prefix) for row in weapons} >= {
        "dagger",
        "axe",
        "hammer",
        "sword",
        "double_handed_weapon",
    }
    for row in weapons:
        base = items[row["key"].removeprefix(prefix)]
        assert (row["price"], row["rarity"]) == (base["price"] * multiple, rarity), row["key"]


# --- who may have an item ------------------------------------------------------------------


def test_may_have_names_the_restriction():
    claws = Restriction(allowed=("skaven",), label="Skaven only")
    assert may_have("Fighting claws", claws, "skaven") is None
    assert may_have("Fighting claws", claws, "marienburg") == (
        "Fighting claws is not for this warband (Skaven only)."
    )
    garlic = Restriction(refused=("undead",), label="not for the Undead")
    assert may_have("Garlic", garlic, "reikland") is None
    assert "not for the Undead" in may_have("Garlic", garlic, "undead")
    assert may_have("Sword", Restriction(), "undead") is None


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("key", "allowed", "refused"),
    [("fighting_claws", ["skaven"], ["marienburg", "reikland"]),
     ("weeping_blades", ["skaven"], ["undead"]),
     ("warplock_pistol", ["skaven"], ["marienburg"]),
     ("sigmarite_warhammer", ["sisters_of_sigmar"], ["witch_hunters"]),
     ("holy_tome", ["sisters_of_sigmar", "witch_hunters"], ["skaven"]),
     ("garlic", ["reikland"], ["undead"]),
     ("tears_of_shallya", ["reikland"], ["undead", "cult_of_the_possessed"]),
     ("tome_of_magic", ["undead"], ["witch_hunters", "sisters_of_sigmar"]),
     ("wardog", ["reikland"], ["skaven"]),
     ("rapier", ["reikland", "marienburg", "hochland_bandits"], ["middenheim"]),
     ("main_gauche", ["hochland_bandits"], ["reikland"]),
     ("dwarf_axe", ["dwarf_treasure_hunters"], ["marienburg"]),
     ("gromril_dwarf_axe", ["dwarf_treasure_hunters"], ["reikland"]),
     ("bear_claw_necklace", ["kislevites"], ["reikland"]),
     ("vodka", ["kislevites"], ["skaven"]),
     ("ostlander_double_barrelled_hunting_rifle", ["ostland"], ["averland"]),
     ("ostlander_double_barrelled_pistol", ["ostland"], ["reikland"]),
     ("squig_prodder", ["orc_mob"], ["reikland"]),
     ("ball_and_chain", ["orc_mob"], ["skaven"]),
     ("book_of_the_dead", ["undead"], ["reikland"]),
     ("brazier_iron", ["witch_hunters"], ["sisters_of_sigmar"]),
     ("wolfcloak", ["middenheim"], ["reikland"]),
     ("censer", ["skaven_of_clan_pestilens"], ["skaven"]),
     ("vial_of_pestilens", ["skaven", "skaven_of_clan_pestilens"], ["reikland"]),
     # Clan Pestilens uses its own banner, shards, book, chant and amulet instead of these
     ("banner", ["reikland", "skaven"], ["skaven_of_clan_pestilens"]),
     ("elven_cloak", ["reikland"], ["skaven_of_clan_pestilens"]),
     ("tome_of_magic", ["skaven"], ["skaven_of_clan_pestilens", "witch_hunters"]),
     ("serpent_staff", ["tomb_guardians"], ["undead"]),
     ("asp_arrows", ["tomb_guardians"], ["reikland"]),
     ("beastlash", ["dark_elves"], ["reikland"]),
     ("dark_elf_blade_sword", ["dark_elves"], ["shadow_warriors"]),
     ("sea_dragon_cloak", ["dark_elves"], ["norse_explorers"]),
     ("elven_runestones", ["shadow_warriors"], ["dark_elves"]),
     ("standard_of_nagarythe", ["shadow_warriors"], ["reikland"]),
     ("gromril_axe", ["reikland", "dwarf_treasure_hunters", "skaven"], []),
     ("ithilmar_sword", ["reikland", "undead"], []),
     ("boat_hook", ["pirates"], ["reikland"]), ("swivel_gun", ["pirates"], ["marienburg"]),
     ("claw_of_the_old_ones", ["amazons_mordheim"], ["norse_explorers"]),
     ("amulet_of_the_moon", ["amazons_mordheim"], ["reikland"]),
     ("javelins", ["amazons_mordheim", "norse_explorers"], ["reikland"]),
     ("starsword", ["amazons_lustria"], ["amazons_mordheim"]),
     ("sunstaff", ["amazons_mordheim"], ["amazons_lustria"]),
     ("bolas", ["amazons_lustria"], ["amazons_mordheim"]),
     ("amulet_of_the_moon", ["amazons_lustria"], ["reikland"]),
     ("javelins", ["amazons_lustria"], ["reikland"])],
)  # fmt: skip
def test_restrictions_of_the_catalogue(key, allowed, refused):
    item = Item.objects.get(key=key)
    for warband in allowed:
        assert item.refusal(warband) is None, (key, warband)
    for warband in refused:
        assert item.refusal(warband), (key, warband)
        assert item.restriction in item.refusal(warband)


# Lists of the price chart's restrictions that the app does not hold yet (their keys).
LISTS_TO_COME: set[str] = set()


@pytest.mark.django_db
def test_every_restriction_names_real_lists_and_a_label():
    lists = set(WarbandType.objects.values_list("key", flat=True))
    for item in Item.objects.exclude(allowed_warbands=[], refused_warbands=[]):
        assert item.restriction, item.key
        unknown = set(item.allowed_warbands) | set(item.refused_warbands)
        assert unknown - lists <= LISTS_TO_COME, item.key


@pytest.mark.django_db
def test_every_warband_specific_rare_item_has_a_rarity():
    """The new lists' own items (Dwarf axe, Bear-Claw Necklace, Vodka, the Ostlander guns)
    are rare; the Squig Prodder and the Ball and Chain are Common, for Goblins only."""
    rare = {
        "dwarf_axe": 8,
        "bear_claw_necklace": 9,
        "vodka": 8,
        "ostlander_double_barrelled_pistol": 10,
        "ostlander_double_barrelled_hunting_rifle": 12,
    }
    for key, rarity in rare.items():
        assert Item.objects.get(key=key).rarity == rarity
    assert Item.objects.get(key="squig_prodder").rarity is None
    assert Item.objects.get(key="ball_and_chain").rarity is None


@pytest.mark.django_db
def test_no_list_offers_an_item_its_warband_may_not_have():
    for entry in EquipmentListEntry.objects.select_related("item", "equipment_list__warband_type"):
        warband = entry.equipment_list.warband_type.key
        assert entry.item.refusal(warband) is None, (warband, entry.item.key)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("key", "label"),
    [("dwarf_axe", "Dwarfs only"), ("gromril_dwarf_axe", "Dwarfs only"),
     ("squig_prodder", "Goblins only"), ("ball_and_chain", "Goblins only"),
     ("bear_claw_necklace", "Kislevite heroes only"), ("vodka", "Kislevite heroes only"),
     ("ostlander_double_barrelled_pistol", "Ostlanders only"),
     ("fighting_claws", "Skaven only"), ("garlic", "not for the Undead")],
)  # fmt: skip
def test_each_restriction_reads_as_the_chapter_says(key, label):
    assert Item.objects.get(key=key).restriction == label
