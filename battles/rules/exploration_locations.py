"""The special locations of exploration (post-battle step 3): what a multiple of the
exploration dice finds, FACTS.md section 4. Each location is one small function of a
``Visit`` (``battles.rules.exploration_finds``), and ``LOCATION_RULES`` maps the location's
name to it.

Readings where the sources are silent, each tested in tests/rules/test_exploration.py:

- Tests of a characteristic (the Well's Toughness, the leader's Leadership at the Tavern and
  the Shattered Building) are rolled: D6 equal to or under Toughness, 2D6 equal to or under
  Leadership. A warband without a leader fails a leader's test.
- Choices on the table (which hero goes down the well or into the pit, who gets the
  experience, who keeps the gems, which group takes in a prisoner) are questions.
- "He is lost" in the Pit: the hero is dead, with his equipment. "D3 shields or bucklers":
  the D3 is rolled, then the player chooses shields or bucklers, all of one kind. "Roll for
  each other item" (Hidden Treasure, Slaughtered Warband): one D6 per item, at or above the
  number it is found.
- Anything else (the Catacombs' deployment, a blessed weapon, being hated, the Mordheim map's
  own roll) is returned as a note the player confirms.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from battles.rules.exploration_finds import Find, LocationContext, Visit, leadership_test
from battles.rules.tasks import ask
from core.words import possessive

# (face, count) → location name, FACTS.md section 4.
LOCATIONS = {
    (1, 2): "Well", (2, 2): "Shop", (3, 2): "Corpse", (4, 2): "Straggler",
    (5, 2): "Overturned Cart", (6, 2): "Ruined Hovels",
    (1, 3): "Tavern", (2, 3): "Smithy", (3, 3): "Prisoners", (4, 3): "Fletcher",
    (5, 3): "Market Hall", (6, 3): "Returning a Favour",
    (1, 4): "Gunsmith", (2, 4): "Shrine", (3, 4): "Townhouse", (4, 4): "Armourer",
    (5, 4): "Graveyard", (6, 4): "Catacombs",
    (1, 5): "Moneylender's House", (2, 5): "Alchemist's Laboratory", (3, 5): "Jewelsmith",
    (4, 5): "Merchant's House", (5, 5): "Shattered Building", (6, 5): "Entrance to the Catacombs",
    (1, 6): "The Pit", (2, 6): "Hidden Treasure", (3, 6): "Dwarf Smithy",
    (4, 6): "Slaughtered Warband", (5, 6): "Fighting Arena", (6, 6): "Noble's Villa",
}  # fmt: skip


def location(face: int, count: int) -> str:
    """The location of ``count`` dice showing ``face``; six or more of a kind read as six."""
    return LOCATIONS[(face, min(count, 6))]


# --- The locations, in the order of the table ----------------------------------------------

ARMOURER = {3: ("helmet", "Helmet"), 4: ("light_armour", "Light armour"),
            5: ("heavy_armour", "Heavy armour")}  # fmt: skip
GUNSMITH = {1: ("blunderbuss", "Blunderbuss"), 2: ("brace_of_pistols", "Brace of pistols"),
            3: ("brace_of_duelling_pistols", "Brace of duelling pistols"),
            6: ("hochland_long_rifle", "Hochland long rifle")}  # fmt: skip
SMITHY = {1: ("sword", "Sword"), 2: ("double_handed_weapon", "Double-handed weapon"),
          3: ("flail", "Flail"), 5: ("lance", "Lance")}  # fmt: skip
CORPSE = {3: ("dagger", "Dagger"), 4: ("axe", "Axe"), 5: ("sword", "Sword"),
          6: ("light_armour", "Light armour")}  # fmt: skip


def _gold(n: int, what: str, times: int = 1) -> Callable[[Visit], None]:
    """A location that gives only gold crowns: ``n`` D6, times ``times``."""

    def gold(visit: Visit) -> None:
        visit.find.gold = visit.roll(n, what) * times

    return gold


def _well(visit: Visit) -> None:
    """A hero goes down: Toughness test, a shard if passed, else he misses the next game."""
    if visit.heroes:
        hero = visit.pick_hero("hero", "Which hero goes down the well?")
        if visit.roll(1, f": {possessive(hero.name)} Toughness test ({hero.T})") <= hero.T:
            visit.find.shards = 1
        else:
            visit.find.miss_game.append(hero.id)


def _shop(visit: Visit) -> None:
    visit.find.gold = visit.roll()
    if visit.find.gold == 1:
        visit.find.item("lucky_charm", "Lucky charm")


def _corpse(visit: Visit) -> None:
    sub = visit.roll(1, ": what is on the body")
    if sub <= 2:
        visit.find.gold = visit.roll(1, ": gold crowns")
    else:
        visit.find.item(*CORPSE[sub])


def _straggler(visit: Visit) -> None:
    """Skaven sell him, the Possessed's leader gains experience, the Undead gain a Zombie;
    anyone else gets an extra exploration die next time."""
    find = visit.find
    if visit.skaven:
        find.gold = visit.roll(2, ": sold to the slavers (2D6 gc)")
    elif visit.possessed:
        if visit.context.leader is not None:
            find.give_experience(visit.context.leader.id)
    elif visit.undead:
        find.zombies = 1
    else:
        find.straggler = True


# A map found while exploring has its D6 rolled by the players (its rule rolls when it is bought).
MAP_NOTE = "Roll for the Mordheim map's effect as its rules say."


def _overturned_cart(visit: Visit) -> None:
    find = visit.find
    sub = visit.roll(1, ": what is in the cart")
    if sub <= 2:
        find.item("mordheim_map", "Mordheim map")
        find.notes.append(MAP_NOTE)
    elif sub <= 4:
        find.gold = visit.roll(2, ": gold crowns (2D6)")
    else:
        find.item("jewelled_sword", "Jewelled sword")
        find.item("jewelled_dagger", "Jewelled dagger")


def _tavern(visit: Visit) -> None:
    """4D6 gc for the Undead, the pious, or a leader who passes his Leadership test; else D6."""
    if visit.undead or visit.pious or leadership_test(visit.dice, visit.context.leader, visit.name):
        visit.find.gold = visit.roll(4, ": gold crowns (4D6)")
    else:
        visit.find.gold = visit.roll(1, ": gold crowns (D6)")


def _smithy(visit: Visit) -> None:
    sub = visit.roll(1, ": what is at the forge")
    if sub == 4:
        visit.find.item("halberd", "Halberd", visit.d3("how many halberds"))
    elif sub == 6:
        visit.find.gold = visit.roll(2, ": metal worth (2D6 gc)")
    else:
        visit.find.item(*SMITHY[sub])


def _prisoners(visit: Visit) -> None:
    """The Possessed sacrifice them (experience), the Undead raise them, Skaven sell them; anyone
    else is rewarded, and one prisoner may join a human henchman group."""
    find, context = visit.find, visit.context
    if visit.possessed:
        if visit.heroes:
            visit.split_experience(visit.d3("experience"))
    elif visit.undead:
        find.zombies = visit.d3("free Zombies")
    elif visit.skaven:
        find.gold = visit.roll(3, ": sold (3D6 gc)")
    else:
        find.gold = visit.roll(2, ": reward (2D6 gc)")
        if context.prisoner_groups:
            options = tuple((str(pk), label) for pk, label in context.prisoner_groups)
            group = ask(
                visit.answers,
                "group",
                "A prisoner may join a human henchman group (his equipment is paid for)",
                (*options, ("none", "Nobody joins")),
            )
            find.prisoner_joins = None if group == "none" else int(group)


def _fletcher(visit: Visit) -> None:
    find = visit.find
    sub = visit.roll(1, ": what is in the workshop")
    if sub <= 2:
        find.item("short_bow", "Short bow", visit.d3("how many"))
    elif sub == 3:
        find.item("bow", "Bow", visit.d3("how many"))
    elif sub == 4:
        find.item("long_bow", "Long bow", visit.d3("how many"))
    elif sub == 5:
        find.item("hunting_arrows", "Hunting arrows")
    else:
        find.item("crossbow", "Crossbow", visit.d3("how many"))


def _returning_a_favour(visit: Visit) -> None:
    visit.find.free_hired_sword = True


def _gunsmith(visit: Visit) -> None:
    sub = visit.roll(1, ": what is in the workshop")
    if sub == 4:
        visit.find.item("handgun", "Handgun", visit.d3("how many"))
    elif sub == 5:
        visit.find.item("superior_blackpowder", "Superior blackpowder", visit.d3("how much"))
    else:
        visit.find.item(*GUNSMITH[sub])


def _shrine(visit: Visit) -> None:
    visit.find.gold = visit.roll(3, ": offerings (3D6 gc)")
    if visit.pious:
        visit.find.notes.append(
            "One weapon of the warband becomes blessed: it wounds Undead and Possessed on 2+."
        )


def _armourer(visit: Visit) -> None:
    """FACTS.md section 4, Armourer: on a 1-2 the D3 are shields or bucklers, as the player
    chooses (asked after the D3, so he knows how many)."""
    sub = visit.roll(1, ": what is in the workshop")
    if sub <= 2:
        count = visit.d3("how many")
        kind = ask(
            visit.answers, "shields_or_bucklers",
            f"{visit.name}: {count} shield{'s' if count > 1 else ''} or "
            f"{count} buckler{'s' if count > 1 else ''}?",
            (("shield", "Shields"), ("buckler", "Bucklers")),
        )  # fmt: skip
        visit.find.item(kind, kind.capitalize(), count)
    elif sub == 6:
        visit.find.item("ithilmar_armour", "Ithilmar armour")
    else:
        visit.find.item(*ARMOURER[sub], visit.d3("how many"))


def _graveyard(visit: Visit) -> None:
    """The pious bury the dead (experience); anyone else robs the graves and is hated."""
    if visit.pious:
        if visit.heroes:
            visit.split_experience(visit.roll(1, ": experience (D6)"))
    else:
        visit.find.gold = visit.roll(1, ": grave goods (D6 × 10 gc)") * 10
        visit.find.notes.append(
            "The next Witch Hunter or Sisters of Sigmar warband you fight hates the whole warband."
        )


def _catacombs(visit: Visit) -> None:
    visit.find.notes.append(
        "Next battle only: up to three fighters (not Rat Ogres or Possessed) may deploy "
        'anywhere at ground level at the end of your first turn, more than 8" from enemies.'
    )


def _alchemists_laboratory(visit: Visit) -> None:
    visit.find.gold = visit.roll(3, ": gold crowns (3D6)")
    if visit.heroes:
        hero = visit.pick_hero("hero", "Which hero gains access to Academic skills?")
        visit.find.academic_skills = hero.id


def _jewelsmith(visit: Visit) -> None:
    """Gems worth a roll of the table; a hero may keep them instead (+1 to his rarity rolls)."""
    sub = visit.roll(1, ": what the jeweller left")
    if sub <= 2:
        value = visit.roll(1, ": gems worth (D6 × 5 gc)") * 5
    elif sub <= 4:
        value = 20
    elif sub == 5:
        value = 50
    else:
        value = visit.roll(1, ": gems worth (D6 × 15 gc)") * 15
    keeper = None
    if visit.heroes:
        keeper = visit.pick_hero(
            "keeper", f"Sell the gems for {value} gc, or a hero keeps them (+1 to his rarity "
            "rolls)?", optional=f"Sell them for {value} gc",
        )  # fmt: skip
    if keeper is None:
        visit.find.gold = value
    else:
        visit.find.kept_gems = keeper.id


def _merchants_house(visit: Visit) -> None:
    faces = visit.dice.roll(2, 6, f"{visit.name}: gold crowns (2D6 × 5)").faces
    if faces[0] == faces[1]:
        # A double: the Freetraders symbol, whose hero gains the Haggle skill (FACTS.md 4).
        if visit.heroes:
            bearer = visit.pick_hero("bearer", "Which hero carries the Freetraders symbol "
                                     "(he gains the Haggle skill)?")  # fmt: skip
            visit.find.symbol_bearer = bearer.id
        else:
            visit.find.item("freetraders_symbol", "Freetraders symbol")
            visit.find.notes.append(
                "The hero who carries the Freetraders symbol gains the Haggle skill."
            )
    else:
        visit.find.gold = sum(faces) * 5


def _shattered_building(visit: Visit) -> None:
    visit.find.shards = visit.d3("wyrdstone shards")
    visit.find.wardog_for_leader = leadership_test(visit.dice, visit.context.leader, visit.name)


def _entrance_to_the_catacombs(visit: Visit) -> None:
    if visit.context.has_catacombs_reroll:
        visit.find.notes.append("The warband knows this entrance already: no further re-roll.")
    else:
        visit.find.catacombs_reroll = True


def _the_pit(visit: Visit) -> None:
    """A hero may go down: on a 1 he is lost, else he brings up D6+1 shards."""
    hero = None
    if visit.heroes:
        hero = visit.pick_hero("hero", "Send a hero into the pit?", optional="Nobody goes")
    if hero is not None:
        if visit.roll(1, f": {hero.name} in the pit") == 1:
            visit.find.hero_lost = hero.id
        else:
            visit.find.shards = visit.roll(1, ": wyrdstone shards (D6+1)") + 1


def _hidden_treasure(visit: Visit) -> None:
    find = visit.find
    find.gold = visit.roll(5, ": gold crowns (5D6 × 5)") * 5
    for key, label, needed in (
        ("", "Wyrdstone shards", 4), ("holy_relic", "Holy relic", 5),
        ("heavy_armour", "Heavy armour", 5), ("gem", "Gems", 4),
        ("elven_cloak", "Elven cloak", 5), ("holy_tome", "Holy tome", 5),
        ("", "Magical artefact", 5),
    ):  # fmt: skip
        if visit.roll(1, f": {label.lower()} ({needed}+)") < needed:
            continue
        if label == "Wyrdstone shards":
            find.shards += visit.d3("shards")
        elif key == "gem":
            find.item("gem", "Gem", visit.d3("gems worth 10 gc each"))
        elif label == "Magical artefact":
            visit.artefact()
        else:
            find.item(key, label)


# The catalogue's gromril weapons (a double-handed axe is a double-handed weapon), so they sell.
GROMRIL_FINDS = {
    3: ("gromril_axe", "Gromril axe"),
    4: ("gromril_hammer", "Gromril hammer"),
    5: ("gromril_double_handed_weapon", "Gromril double-handed axe"),
}


def _dwarf_smithy(visit: Visit) -> None:
    find = visit.find
    sub = visit.roll(1, ": what the dwarfs left")
    if sub == 1:
        find.item("double_handed_weapon", "Double-handed axe", visit.d3("how many"))
    elif sub == 2:
        find.item("heavy_armour", "Heavy armour", visit.d3("how many"))
    elif sub == 6:
        find.item("gromril_armour", "Gromril armour")
    else:
        find.item(*GROMRIL_FINDS[sub])


def _slaughtered_warband(visit: Visit) -> None:
    find = visit.find
    find.gold = visit.roll(3, ": purses (3D6 × 5 gc)") * 5
    find.item("dagger", "Dagger", visit.roll(1, ": daggers (D6)"))
    for key, label, needed in (
        ("light_armour", "Light armour", 4), ("heavy_armour", "Heavy armour", 5),
        ("mordheim_map", "Mordheim map", 4), ("halberd", "Halberd", 5),
        ("sword", "Sword", 3), ("shield", "Shield", 2), ("bow", "Bow", 4),
        ("helmet", "Helmet", 2),
    ):  # fmt: skip
        if visit.roll(1, f": {label.lower()} ({needed}+)") < needed:
            continue
        single = label in ("Heavy armour", "Mordheim map")
        find.item(key, label, 1 if single else visit.d3("how many"))
        if key == "mordheim_map":
            find.notes.append(MAP_NOTE)


def _fighting_arena(visit: Visit) -> None:
    """A training manual: a hero reads it at once (Combat skills and +1 to his WS maximum;
    read, it is gone) or the warband keeps it to sell for 100 gc."""
    reader = None
    if visit.heroes:
        reader = visit.pick_hero(
            "reader", "Which hero reads the training manual (Combat skills, +1 to his Weapon "
            "Skill maximum)? Unread, it sells for 100 gc.", optional="Keep it to sell (100 gc)",
        )  # fmt: skip
    if reader is None:
        visit.find.item("training_manual", "Training manual")
    else:
        visit.find.manual_reader = reader.id


def _nobles_villa(visit: Visit) -> None:
    sub = visit.roll(1, ": what is in the villa")
    if sub <= 2:
        visit.find.gold = visit.roll(1, ": gold crowns (D6 × 10)") * 10
    elif sub <= 4:
        visit.find.item("crimson_shade", "Crimson shade", visit.roll(1, ": vials (D6)"))
    else:
        visit.artefact()


# Location name → its rule; every name of ``LOCATIONS`` has one.
LOCATION_RULES: dict[str, Callable[[Visit], None]] = {
    "Well": _well,
    "Shop": _shop,
    "Corpse": _corpse,
    "Straggler": _straggler,
    "Overturned Cart": _overturned_cart,
    "Ruined Hovels": _gold(1, ": gold crowns"),
    "Tavern": _tavern,
    "Smithy": _smithy,
    "Prisoners": _prisoners,
    "Fletcher": _fletcher,
    "Market Hall": _gold(2, ": gold crowns (2D6)"),
    "Returning a Favour": _returning_a_favour,
    "Gunsmith": _gunsmith,
    "Shrine": _shrine,
    "Townhouse": _gold(3, ": gold crowns (3D6)"),
    "Armourer": _armourer,
    "Graveyard": _graveyard,
    "Catacombs": _catacombs,
    "Moneylender's House": _gold(1, ": gold crowns (D6 × 10)", times=10),
    "Alchemist's Laboratory": _alchemists_laboratory,
    "Jewelsmith": _jewelsmith,
    "Merchant's House": _merchants_house,
    "Shattered Building": _shattered_building,
    "Entrance to the Catacombs": _entrance_to_the_catacombs,
    "The Pit": _the_pit,
    "Hidden Treasure": _hidden_treasure,
    "Dwarf Smithy": _dwarf_smithy,
    "Slaughtered Warband": _slaughtered_warband,
    "Fighting Arena": _fighting_arena,
    "Noble's Villa": _nobles_villa,
}


def resolve_location(
    dice,
    face: int,
    count: int,
    *,
    context: LocationContext,
    answers: Mapping[str, str] | None = None,
) -> Find:
    """Work out the special location of ``count`` dice showing ``face`` (FACTS.md section 4):
    its rule from ``LOCATION_RULES``, with the dice, the warband's context and the player's
    answers."""
    find = Find(location(face, count))
    LOCATION_RULES[find.name](Visit(dice, context, answers or {}, find))
    return find
