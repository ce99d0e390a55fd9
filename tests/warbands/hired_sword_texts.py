"""Who may hire each hired sword, read by hand from the rule texts for
``test_hired_sword_matrix``, apart from ``hired_swords.json`` and its ``family_groups``.

Three tables: each warband family's race and alignment (``FAMILIES``, with the words of its
chapter's Race line that say so), each hired sword's hiring sentence as plain data (``SWORDS``,
with a few of its words as the anchor the test finds in his entry) and each warband list's own
rule on hired swords (``LIST_RULES``, anchored in its chapter).

Tokens of ``may`` and ``never``: a family name as the lists' ``family`` spells it (a name no
loaded list has matches nothing, as the Lizardmen did before they came), ``@group`` for a
group of the texts (``GROUPS``) and ``=key`` for one warband list. An anchor of several pieces
joins them with " … "; none is ten words long.
"""

from __future__ import annotations

from dataclasses import dataclass

# --- The families: race (from the chapter's Race line) and alignment -------------------------
# Alignment: "chaos" (followers of chaos, evil too), "evil", "good" or "neither". The chapters
# print no alignment; our reading, from the texts' own examples: the Warrior Priest of Sigmar's
# entry counts the Possessed, Orcs & Goblins and Skaven as evil, the Shadow Warriors' Tolerant
# Skaven, Possessed, Beastmen, Dark Elves and Undead; the Cursed Cavalcade is "treated as an
# Evil warband" like the Possessed (read as chaos: the dark gods bent it). Good: the examples of
# the Arabian Merchant, the Roadwarden and the Snake Charmer ("human, Elf, Dwarf, etc.",
# Mercenaries, Dwarfs, Witch Hunters, Sisters, Tomb Raiders), so every human list not of chaos
# (bandits, outlaws, pirates, Norse explorers and the pit fighters included: no text calls them
# evil), the Dwarfs, the High Elves and the Halflings. Neither: the Lizardmen and the Amazons,
# whom no text places (the Amazons hire nobody anyway).

# family: (chapter heading, words of its Race line, race, alignment)
FAMILIES = {
    "Amazons (Lustria)": ("Amazons (Lustria)", "Amazons", "amazon", "neither"),
    "Amazons (Mordheim)": ("Amazons (Mordheim)", "Amazons", "amazon", "neither"),
    "Arabian Tomb Raiders": ("Arabian Tomb Raiders", "Human (Araby", "human", "good"),
    "Battle Monks of Cathay": ("Battle Monks of Cathay", "Human (Cathayan)", "human", "good"),
    "Beastmen Raiders": ("Beastmen Raiders", "Beastmen", "beastmen", "chaos"),
    "Black Dwarfs": ("Black Dwarfs", "Chaos Dwarf", "chaos dwarf", "chaos"),
    "Black Orcs": ("Black Orcs", "Orcs & Goblins", "orc", "evil"),
    "Bretonnian Chapel Guard": ("Bretonnian Chapel Guard", "Human (Bretonnian)", "human", "good"),
    "Bretonnian Knights": ("Bretonnian Knights", "Human (Bretonnian)", "human", "good"),
    "Carnival of Chaos": ("Carnival of Chaos", "Human (Chaos-corrupted)", "human", "chaos"),
    "Court of the Profane Pleasures": (
        "Court of the Profane Pleasures", "Human (Slaaneshi Cult)", "human", "chaos"
    ),
    "Cult of the Possessed": ("Cult of the Possessed", "Human (Chaos-corrupted)", "human", "chaos"),
    "Dark Elves": ("Dark Elves", "Dark Elves", "elf", "evil"),
    "Dwarf Rangers": ("Dwarf Rangers", "Dwarf", "dwarf", "good"),
    "Dwarf Treasure Hunters": ("Dwarf Treasure Hunters", "Dwarf", "dwarf", "good"),
    "Forest Goblins": ("Forest Goblins", "Orcs & Goblins", "goblin", "evil"),
    "Gunnery School of Nuln": ("Gunnery School of Nuln", "Human (Empire)", "human", "good"),
    "Hochland Bandits": ("Hochland Bandits", "Human (Empire)", "human", "good"),
    "Horned Hunters": ("Horned Hunters", "Human (Empire, cult of Taal)", "human", "good"),
    "Imperial Outriders": ("Imperial Outriders", "Human", "human", "good"),
    "Kislevites": ("Kislevites", "Human", "human", "good"),
    "Lizardmen": ("Lizardmen", "Lizardmen", "lizardmen", "neither"),
    "Maneaters": ("Maneaters", "Ogre", "ogre", "neither"),
    "Marauders of Chaos": ("Marauders of Chaos", "Human (Chaos Marauder", "human", "chaos"),
    "Merchant Caravans": ("Merchant Caravans", "Human", "human", "good"),
    "Lustrian Reavers": ("Lustrian Reavers", "Human (Estalian/Tilean", "human", "good"),
    "Mercenaries": ("Mercenaries", "Human", "human", "good"),
    "Mootlanders": ("Mootlanders", "Halfling", "halfling", "good"),
    "Night Goblins": ("Night Goblins", "Night Goblin (Greenskin)", "goblin", "evil"),
    "Night Goblins (web)": ("Night Goblins (web)", "Night Goblin (Greenskin)", "goblin", "evil"),
    "Norse Explorers": ("Norse Explorers", "Human (Norse)", "human", "good"),
    "Orc Mob": ("Orc Mob", "Orcs & Goblins", "orc", "evil"),
    "Outlaws of Stirwood Forest": ("Outlaws of Stirwood Forest", "Human", "human", "good"),
    "Pirates": ("Pirates", "Human", "human", "good"),
    "Pit Fighters": ("Pit Fighters", "Human/Dwarf/Ogre", "human", "good"),
    "Shadow Warriors": ("Shadow Warriors", "High Elf", "elf", "good"),
    "Sisters of Sigmar": ("The Sisters of Sigmar", "Human (female)", "human", "good"),
    "Skaven of Clan Eshin": ("Skaven of Clan Eshin", "Skaven", "skaven", "evil"),
    "Skaven of Clan Pestilens": ("Skaven of Clan Pestilens", "Skaven", "skaven", "evil"),
    "The Cursed Cavalcade": ("The Cursed Cavalcade", "Human (Fallen Nobility)", "human", "chaos"),
    "The Sons of Hashut": ("The Sons of Hashut", "Chaos Dwarf", "chaos dwarf", "chaos"),
    "The Restless Dead": ("The Restless Dead", "Undead", "undead", "evil"),
    "Tileans": ("Tileans", "Human (Tilean)", "human", "good"),
    "Tomb Guardians": ("Tomb Guardians", "Undead (Nehekharan)", "undead", "evil"),
    "Undead": ("The Undead", "Undead (Vampire-led)", "undead", "evil"),
    "Witch Hunters": ("Witch Hunters", "Human", "human", "good"),
}  # fmt: skip
# Families of the texts' chapters no list has yet: they appear in the sentences below.
NOT_LOADED = {
    "Wood Elves of Athel Loren": ("elf", "good"),
}


def race_and_alignment(family: str) -> tuple[str, str]:
    if family in FAMILIES:
        return FAMILIES[family][2:]
    return NOT_LOADED[family]


# The groups of the texts' sentences, by race or alignment. "Human" counts the lists of chaos
# too (the Dwarf Pathfinder's "(excluding followers of chaos)" and the Witch Hunter's
# "non-chaos human" say so by excluding them); "Dwarfs" are not the Chaos Dwarfs; "Orcs" alone
# (Tilean Marksman, Bounty Hunter) are the Orc lists, "Orcs & Goblins" every greenskin list;
# "Skaven" and "Undead" every list of that race, not only the rulebook's one.
GROUPS = {
    "human": lambda race, side: race == "human",
    "dwarf": lambda race, side: race == "dwarf",
    "chaos_dwarf": lambda race, side: race == "chaos dwarf",
    "good": lambda race, side: side == "good",
    "good_elf": lambda race, side: race == "elf" and side == "good",
    "evil": lambda race, side: side in ("evil", "chaos"),
    "chaos": lambda race, side: side == "chaos",
    "skaven": lambda race, side: race == "skaven",
    "undead": lambda race, side: race == "undead",
    "greenskin": lambda race, side: race in ("orc", "goblin"),
    "orcs": lambda race, side: race == "orc",
}


@dataclass(frozen=True)
class Hiring:
    """One entry's hiring sentence: ``may`` (``None``: any warband), ``never``, and ``named``,
    the warbands it names outright (by default the plain family names of ``may``), for the
    lists that hire only those whose entry names them."""

    anchor: str
    may: frozenset | None = None
    never: frozenset = frozenset()
    named: frozenset | None = None

    def names(self) -> frozenset:
        if self.named is not None:
            return self.named
        return frozenset(t for t in self.may or () if t[0] not in "@=")


def _h(anchor, may=None, never=(), named=None):
    return Hiring(
        anchor,
        None if may is None else frozenset(may),
        frozenset(never),
        None if named is None else frozenset(named),
    )


MERCS, WH, SIS = "Mercenaries", "Witch Hunters", "Sisters of Sigmar"
POSSESSED, BEASTMEN = "Cult of the Possessed", "Beastmen Raiders"

SWORDS = {
    # Core and Grade 1a
    "arabian_merchant": _h("Any good aligned warbands may hire", {"@good"}),
    "beast_hunter": _h(
        "Skaven, Beastmen, Undead, Orcs & Goblins, Possessed and Carnival",
        never={"@skaven", BEASTMEN, "@undead", "@greenskin", POSSESSED, "Carnival of Chaos"},
    ),
    "dwarf_troll_slayer": _h("Mercenaries and Witch Hunters may hire a Dwarf", {MERCS, WH}),
    "elf_ranger": _h("Mercenaries and Witch Hunters may hire Elf Rangers", {MERCS, WH}),
    "freelancer": _h("Mercenaries and Witch Hunters may hire Freelancers", {MERCS, WH}),
    "halfling_scout": _h(
        "except Skaven, Undead and the Possessed", never={"@skaven", "@undead", POSSESSED}
    ),
    "highwayman": _h("Sisters of Sigmar, Witch Hunters and any good-aligned Elves",
                     never={SIS, WH, "@good_elf"}),
    "imperial_assassin": _h("except Witch Hunters, Sister of Sigmar … Orcs & Goblins or Skaven may",
                            never={WH, SIS, "@greenskin", "@skaven"}),
    "ogre_bodyguard": _h("Any warband except Skaven may hire an Ogre", never={"@skaven"}),
    "pit_fighter": _h("apart from Undead and Skaven", never={"@undead", "@skaven"}),
    "roadwarden": _h("Any good-aligned warband may hire a Roadwarden", {"@good"}),
    "tilean_marksman": _h("except Skaven, Orcs or Undead", never={"@skaven", "@orcs", "@undead"}),
    "warlock": _h("except Witch Hunters … Sisters of Sigmar may hire a Warlock",
                  never={WH, SIS}),
    # Grade 1b
    "bard": _h("Mercenaries, Sisters of Sigmar and Witch Hunters may hire", {MERCS, SIS, WH}),
    "big_game_hunter": _h("hired by any human Warband", {"@human"}),
    "black_orc_overseer": _h("Any greenskin warband may hire", {"@greenskin"}),
    "bounty_hunter": _h("except Possessed, Undead, Skaven and Orcs",
                        never={POSSESSED, "@undead", "@skaven", "@orcs"}),
    "chameleon_skink": _h("Lizardmen warbands only", {"Lizardmen"}),
    "clan_skryre_rat_ogre": _h("Only Skaven warbands may hire", {"@skaven"}),
    "dark_elf_assassin": _h("Any evil warband may hire a Dark Elf", {"@evil"}),
    "duellist": _h("except Skaven and Undead may hire a Duelist", never={"@skaven", "@undead"}),
    "dwarf_pathfinder": _h("Any Dwarf or Human warband (excluding followers of chaos)",
                           {"@dwarf", "@human"}, never={"@chaos"}),
    "dwarf_treasure_hunter": _h(
        "Warbands of Dwarf Treasure Hunters are considered rivals",
        {MERCS, WH}, never={"Dwarf Treasure Hunters"},
    ),
    "elf_mage": _h("Human Mercenaries may hire Elf Mages", {MERCS}),
    "gaoler": _h("The Witch Hunters can hire a Gaoler", {WH}),
    "halfling_thief": _h("Human Mercenaries, Kislevites, and any Wood Elf, or Dwarf",
                         {MERCS, "Kislevites", "Wood Elves of Athel Loren", "@dwarf"}),
    "human_scout": _h("except Orcs, Goblins, Beastmen or Possessed",
                      never={"@greenskin", BEASTMEN, POSSESSED}),
    "kislev_ranger": _h("Mercenaries, Witch Hunters and Dwarfs may hire Kislev",
                        {MERCS, WH, "@dwarf"}),
    "mule_skinner": _h("except Possessed Skaven, or any Undead warband",
                       never={POSSESSED, "@skaven", "@undead"}),
    "nomad_scout": _h("hired by any warband that can afford him"),
    "norse_shaman": _h("Human, Norse and Marauders of Chaos warbands may hire",
                       {"@human", "Norse Explorers", "Marauders of Chaos"}),
    "old_prospector": _h("except Dwarfs, who regard him as an amateur", never={"@dwarf"}),
    "pathfinder": _h("**May be hired:** Any warband."),
    # "Mercenary warbands": the Mercenaries (the Witch Hunters and Sisters, named as refused,
    # are no Mercenaries either; the lists hiring as Human Mercenaries follow them).
    "priest_of_morr": _h("can be used by mercenary warbands", {MERCS}, never={WH, SIS}),
    "runesmith_journeyman": _h("Mercenaries and Witch Hunters may hire a Journeyman",
                               {MERCS, WH}),
    "shadow_warrior": _h("hired by High Elf and all Human warbands",
                         {"@good_elf", "@human"}, never={"@evil"}),
    "snake_charmer": _h("Any good warband (human, Elf, Dwarf, etc.)", {"@good"}),
    "thief": _h("Any warband except Undead may hire a Thief", never={"@undead"}),
    "tomb_robber": _h("Tomb Robber may be hired by any good warband", {"@good"}),
    "warrior_priest_of_sigmar": _h(
        "except Witch Hunters (they already"
        " … Middenheim mercenaries, Possessed, Orcs & Goblins, Skaven",
        never={WH, "=middenheim", POSSESSED, "@greenskin", "@skaven", "@evil"},
    ),
    "witch": _h("Any warband except Witch Hunters and Sisters of Sigmar.", never={WH, SIS}),
    "witch_hunter": _h("Any non-chaos human warband may hire", {"@human"}, never={"@chaos"}),
    "wolf_priest_of_ulric": _h("may only join a Middenheim Mercenary warband", {"=middenheim"}),
    # Grade 1c
    "bone_goliath": _h("Only the Restless Dead may build", {"The Restless Dead"}),
    # "includes Humans or Dwarfs": read as the lists of Humans or of Dwarfs (not the Undead
    # for their Dregs, who are no part of every Undead warband).
    "cathayan_merchant": _h("which includes Humans or Dwarfs may hire a Cathayan",
                            {"@human", "@dwarf", "Battle Monks of Cathay"}),
    "chaos_centaur": _h("Beastmen, Marauders of Chaos, Ogres and Norse warbands",
                        {BEASTMEN, "Marauders of Chaos", "Maneaters", "Norse Explorers"}),
    "coachman": _h("except Skaven, Beastmen, and Orcs & Goblins",
                   never={"@skaven", BEASTMEN, "@greenskin"}),
    # Led by a Vampire or Necromancer (Undead), a Liche Priest (Tomb Guardians) or a Liche.
    "grave_robber": _h("includes a Vampire, Necromancer or Liche", {"@undead"}),
    "hobgoblin_scout": _h("Chaos Dwarfs and Ogre warbands may hire", {"@chaos_dwarf", "Maneaters"}),
    "ninja": _h("Battle Monks of Cathay and any warband except Skaven,"
                " … Beastmen, Marauders of Chaos, Norse and Chaos Dwarfs",
                never={"@skaven", "@greenskin", BEASTMEN, "Marauders of Chaos",
                       "Norse Explorers", "@chaos_dwarf"},
                named={"Battle Monks of Cathay"}),
    "pyromaniac": _h("Merchant Caravans, Battle Monks of Cathay and Mercenaries",
                     {"Merchant Caravans", "Battle Monks of Cathay", MERCS}),
    "swordsmith": _h("Merchant Caravans, Battle Monks of Cathay, Witch Hunters, Sisters",
                     {"Merchant Caravans", "Battle Monks of Cathay", WH, SIS, MERCS}),
}  # fmt: skip

# Elven hired swords (their entries: Elf, High Elf, Dark Elf), for "no Elves".
ELVES = {"elf_ranger", "elf_mage", "shadow_warrior", "dark_elf_assassin"}


@dataclass(frozen=True)
class ListRule:
    """A list's own rule: ``kind`` is ``none``, ``named`` (only those whose entry names it),
    ``only`` (``keys``, which the list's text names and so may hire, plus, with ``named``,
    the entries naming the list), ``not`` (never ``keys``), ``no_elves``, ``as_mercenaries``
    (what a Human Mercenary warband may hire) or ``chaos_dwarfs``."""

    heading: str
    anchor: str
    kind: str
    keys: frozenset = frozenset()
    named: bool = False


def _r(heading, anchor, kind, keys=(), named=False):
    return ListRule(heading, anchor, kind, frozenset(keys), named)


ASSASSINS = {"imperial_assassin", "dark_elf_assassin"}
CHAOS_DWARF_FIVE = {
    "ogre_bodyguard", "pit_fighter", "warlock", "imperial_assassin", "hobgoblin_scout"
}  # fmt: skip

LIST_RULES = {
    "amazons_lustria": _r("Amazons (Lustria)", "may not have any Hired Swords", "none"),
    "amazons_mordheim": _r("Amazons (Mordheim)", "may not have any Hired Swords", "none"),
    "beastmen_raiders": _r("Beastmen Raiders", "unless specifically stated with the Hired",
                           "named"),
    "carnival_of_chaos": _r("Carnival of Chaos", "may never hire any type of Hired Sword",
                            "none"),
    "dwarf_treasure_hunters": _r("Dwarf Treasure Hunters", "any kind of Elven Hired Sword",
                                 "no_elves"),
    "kislevites": _r("Kislevites", "same selection of Hired Swords as Human Mercenary",
                     "as_mercenaries"),
    "orc_mob": _r("Orc Mob", "Orcs may only hire the following Hired Swords", "only",
                  {"pit_fighter", "ogre_bodyguard", "warlock"}),
    "ostland": _r("Ostlander Mercenaries", "never hire any Mercenaries except for Ogres",
                  "only", {"ogre_bodyguard"}),
    "dwarf_rangers": _r("Dwarf Rangers", "any kind of Elven Hired Sword", "no_elves"),
    "hochland_bandits": _r("Hochland Bandits", "any Hired Swords allowed to a Human Mercenary",
                           "as_mercenaries"),
    # Mounted: the Freelance Knight and the Roadwarden, named; the Highwayman refused.
    "imperial_outriders": _r("Imperial Outriders", "only be accompanied by mounted Hired",
                             "only", {"freelancer", "roadwarden"}),
    "outlaws_of_stirwood_forest": _r(
        "Outlaws of Stirwood Forest", "Hired Swords are not available to the Outlaws", "not",
        {"bounty_hunter", "wolf_priest_of_ulric", "norse_shaman", "dark_elf_assassin"},
    ),
    "pirates": _r("Pirates", "same access to Hired Swords", "as_mercenaries"),
    "pit_fighters": _r("Pit Fighters", "except for the Elf Ranger", "not", {"elf_ranger"}),
    # Not of a chaotic or evil bent, no poisoners: the Assassins; the evil ones (Dark Elf,
    # Skaven, greenskin, undead, chaos hired swords) their own entries refuse already.
    "shadow_warriors": _r("Shadow Warriors", "not of a Chaotic or evil bent", "not", ASSASSINS),
    "miragleans": _r("Tileans", "Miraglean warbands cannot have Skaven Hired Swords", "not",
                     {"clan_skryre_rat_ogre"}),
    "remasens": _r("Tileans", "Remasen warbands cannot have Dark Elf Hired Swords", "not",
                   {"dark_elf_assassin"}),
    "battle_monks_of_cathay": _r("Battle Monks of Cathay", "unless specifically stated with",
                                 "named"),
    "black_dwarfs": _r("Black Dwarfs", "Ogre Bodyguard, Pit Fighter, Warlock, Imperial",
                       "chaos_dwarfs", CHAOS_DWARF_FIVE),
    "the_cursed_cavalcade": _r("The Cursed Cavalcade", "anyone that specifically says",
                               "named"),
    "marauders_of_chaos": _r("Marauders of Chaos", "Marauders of Chaos may only hire", "only",
                             {"pit_fighter", "ogre_bodyguard", "norse_shaman",
                              "imperial_assassin", "witch", "warlock"}, named=True),
    "sons_of_hashut": _r("The Sons of Hashut", "Ogre Bodyguard, Pit Fighter, Warlock, Imperial",
                         "chaos_dwarfs", CHAOS_DWARF_FIVE),
    # Halflings and the Ogre Bodyguard, and those whose entry names the Ogres.
    "maneaters": _r("Maneaters", "except for Halflings (Scout, Thief, etc.)", "only",
                    {"halfling_scout", "halfling_thief", "ogre_bodyguard"}, named=True),
    "merchant_caravans": _r("Merchant Caravans", "every Hired Sword that is available to",
                            "as_mercenaries"),
    # "Plus any that specifically state they work with Orcs or Goblins": the Black Orc
    # Overseer, the one entry that names the Orcs & Goblins as those who hire him.
    "night_goblins_web": _r("Night Goblins (web)", "Night Goblins may only hire Pit Fighters",
                            "only", {"pit_fighter", "ogre_bodyguard", "warlock", "witch",
                                     "black_orc_overseer"}),
    # The four it names, whatever their entries say (the Troll Slayer's names Mercenaries
    # and Witch Hunters only).
    "lustrian_reavers": _r("Lustrian Reavers", "They may hire an Ogre Bodyguard, Dwarf",
                           "only", {"ogre_bodyguard", "dwarf_troll_slayer", "tilean_marksman",
                                    "big_game_hunter"}),
}  # fmt: skip
