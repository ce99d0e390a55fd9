"""The 57 Town Cryer scenarios of ``reference/06-scenarios.md`` as read from the texts, written
apart from ``battles/data/scenarios/town_cryer.json`` so that the tests compare two readings.

Per scenario (by the chapter's number): the fewest and most warbands, the standard awards the
text lists (survives, winning leader, per enemy out of action), whether Rout tests are taken,
the most shards one warband takes from the scenario, and each of its own awards as
(experience, heroes_only, most, role) in the order of the data file.

Readings that hold for every scenario:

- A multiplayer text that names no upper limit takes six warbands at most: the largest range
  any Town Cryer text gives ("2-6 warbands"); a counted award whose count grows with the
  warbands is capped for six.
- Where an award's heading and its sentence disagree on the figure, the heading is taken
  (Bar Room Brawl, Forbidden Square, Gathering of the Horde, The Lair of the Snake).
- Experience shared out as a dice pool (D6 to distribute among the heroes) is not a
  per-warrior award: it goes in ``table`` and is entered by hand.
- Settings are the Setting line's own words ("The Empire", as the other sources' data).
- "Double experience" is written as an extra award of the same figure again.
"""

from typing import NamedTuple


class Reading(NamedTuple):
    warbands: tuple[int, int]
    awards: tuple[tuple[int, bool, int, str], ...] = ()
    standard: tuple[bool, bool, bool] = (True, True, True)
    rout_tests: bool = True
    most_shards: int = 0


NO_LEADER = (True, False, True)

READINGS: dict[int, Reading] = {
    # "more than one attacker" allowed, no limit; setting "Any": the text names none, though
    # its treasure is Khemri's
    10: Reading((2, 6), ((1, False, 1, ""),)),
    # D3 counters per warband: 18 with six warbands
    11: Reading((2, 6), ((1, False, 18, ""),), most_shards=18),
    12: Reading((2, 6)),
    13: Reading((2, 6)),
    14: Reading((2, 6)),
    # D3+3 pieces; the text is silent on keeping them: a shard per counter held, as Wyrdstone
    # Hunt
    15: Reading((2, 6), ((1, False, 6, ""),), most_shards=6),
    # D3 shards for each of up to six defending heroes; silent on keeping them: each warband
    # keeps what it carried off or holds
    16: Reading((2, 6), ((1, False, 18, ""),), rout_tests=False, most_shards=18),
    # per wound on the monster: capped at five, the most wounds of any of the six beasts;
    # D3+1 shards in the hoard
    17: Reading((2, 6), ((1, False, 5, ""), (2, True, 1, "")), most_shards=4),
    # the two D6 pools (sacrificed, escaped) are left to the table
    18: Reading((2, 2), ((1, True, 1, ""),), rout_tests=False),
    # "+2 Putting a Skaven out of action ... +1 for each enemy": read as +1 on top of the
    # standard +1, so +2 in all; no winning leader listed; twenty Skaven at most
    19: Reading((2, 2), ((1, True, 20, "non-skaven"),), standard=NO_LEADER),
    # the winning leader earns 2, so the standard +1 is replaced; the wizard gets up again
    # after going out of action, so each fighter earns his +3 once, not once a battle; a
    # warband losing more than half routs at once: no Rout tests
    20: Reading(
        (2, 2),
        (
            (2, True, 1, ""),
            (3, False, 1, ""),
            (1, True, 20, "witch hunters"),
            (3, True, 1, "witch hunters"),
        ),
        standard=NO_LEADER,
        rout_tests=False,
    ),
    21: Reading((2, 2), standard=NO_LEADER),
    # "two or more warbands", no limit; winning leader heading +1 (sentence says 2); the text
    # is silent on keeping stolen wyrdstone: infiltrators keep a shard per counter, D6+2 at
    # most
    22: Reading((2, 6), most_shards=8),
    # the +1 Fame for the winner is left out (no fame in a campaign)
    23: Reading((2, 2), ((1, False, 1, "attacker"),), most_shards=7),
    # "+1 First to reach the platform" heading taken (sentence says +2)
    24: Reading((4, 4), ((1, False, 1, ""), (1, False, 1, ""))),
    # two linked games in one entry: the bridge's three awards, the temple's winning leader
    25: Reading(
        (2, 2),
        ((1, True, 1, "sisterhood"), (1, False, 1, "witch hunters"), (1, True, 1, "witch hunters")),
    ),
    # the side lists replace the standard awards; "+1 for each wounding hit" has no cap: ten;
    # the side awards are for every warrior of the side that achieves them
    26: Reading(
        (2, 2),
        (
            (1, False, 1, "attacker"),
            (1, False, 1, "defender"),
            (1, False, 1, ""),
            (1, False, 10, ""),
        ),
        standard=(True, False, False),
    ),
    # "+1 enemy or wagon out of action": three wagons
    27: Reading((2, 2), ((1, True, 3, ""),)),
    # "winning leader & heroes": the leader's is the standard award; no award per enemy;
    # artefact counters read as wyrdstone (the text calls them so), D3+2 at most
    28: Reading(
        (2, 4), ((1, True, 1, ""), (1, False, 5, "")), standard=(True, True, False), most_shards=5
    ),
    29: Reading((2, 4), ((1, True, 1, ""),)),
    # only the leader earns the takeover, once whatever the islands
    30: Reading((2, 6), ((1, True, 1, ""),)),
    # the Headless One regenerates: each hero may earn the slaying award once
    31: Reading((2, 2), ((2, False, 1, ""), (2, True, 1, ""))),
    # the winning leader earns 2; D3 artefacts worth a shard each
    32: Reading((2, 6), ((2, True, 1, ""), (1, False, 2, "")), standard=NO_LEADER, most_shards=3),
    33: Reading((2, 6)),
    # more than six players foreseen: twelve; five splinters of three shards each
    34: Reading((2, 12), most_shards=15),
    35: Reading((2, 2), ((1, False, 3, ""),), most_shards=3),
    36: Reading((2, 2), ((1, True, 1, ""),)),
    37: Reading((2, 2)),
    38: Reading((2, 2), ((2, True, 1, ""),)),
    # "wounding the mummy": once, not per wound
    39: Reading((2, 6), ((1, False, 1, ""), (2, True, 1, ""), (1, True, 1, ""))),
    # "Rules for routing do not apply"
    40: Reading((2, 2), ((2, True, 1, ""),), rout_tests=False),
    # +2 for a lone bearer, +1 each when shared: two awards
    41: Reading((2, 2), ((2, False, 1, ""), (1, False, 1, ""), (3, False, 1, "")), most_shards=3),
    42: Reading((2, 6), ((3, True, 1, ""),)),
    # "+1 Taking Out Sam" heading taken (sentence says +3, copied from Erasmus)
    43: Reading((2, 6), ((1, True, 1, ""),)),
    44: Reading((2, 2)),
    # one entrance per corner: four warbands at most
    45: Reading((2, 4)),
    # "Any Character" read as a hero
    46: Reading((2, 6), ((1, True, 1, "attacker"),)),
    # a relic can change hands, so any hero holding one earns it
    47: Reading(
        (2, 2), ((1, True, 1, ""), (1, True, 1, "defender")), rout_tests=False, most_shards=4
    ),
    48: Reading((2, 2), ((1, False, 1, "attacker"),)),
    # solo play left out; "surviving a trap" once, not per trap; the D3 counters read as a
    # shard each
    49: Reading((2, 6), ((1, True, 1, ""),), rout_tests=False, most_shards=3),
    # the Matriarch's +2, the D6 to share and the Witch Hunters' +2 per Augur or Matriarch
    # are in the rewards, not the experience list: left to the table
    50: Reading((2, 4), ((1, False, 1, ""),)),
    51: Reading((2, 2), ((3, True, 1, "attacker"),), most_shards=3),
    # every warband's extra exploration die is written in the table (the schema's extra dice
    # are the winner's)
    52: Reading((2, 6), ((1, True, 1, ""),)),
    # "at least three warbands"
    53: Reading((3, 6)),
    # one enemy persona per rival: five in a six-warband game
    54: Reading((2, 6), ((2, True, 5, ""),)),
    55: Reading((2, 6), ((1, True, 1, ""),)),
    # a warrior who leaves with a crate cannot return: once; in a two-player game both are
    # attackers
    56: Reading((2, 6), ((1, False, 1, "attacker"),)),
    57: Reading((2, 6)),
    58: Reading(
        (2, 2),
        ((1, True, 1, "attacker"), (2, True, 1, "attacker"), (2, True, 1, "defender")),
    ),
    59: Reading((2, 6), ((1, False, 1, ""),), most_shards=2),
    # one Thing per warband: six
    60: Reading((2, 6), ((1, True, 6, ""),)),
    # two hordes of one or more warbands (three to six advised): twelve; winning leader
    # heading +1 (sentence says 2); the game ends at the first Horde Leader down
    61: Reading((2, 12), ((2, True, 1, ""),)),
    # setting Mordheim (the notes' "Empire in Flames" is copied from the scenario before);
    # D3+1 swag plus D3 per player: 22 with six
    62: Reading((2, 6), ((1, False, 22, ""),)),
    # D3+1 buildings: four
    63: Reading((2, 6), ((1, True, 4, ""),)),
    # played as Defend the Find, whose experience and shards it keeps
    64: Reading((2, 2), most_shards=3),
    # "several" warbands with a games master; no winning leader listed
    65: Reading((2, 6), ((2, True, 1, ""),), standard=NO_LEADER),
    # the chapter gives Dem's My Gubbinz no number: 66, the first after the Town Cryer
    # block; setting "Any"
    66: Reading((2, 4), ((1, False, 1, ""),)),
}

# awards only one warrior of the whole battle earns: (number, index in the awards)
ONCE_PER_BATTLE = {
    (10, 0), (17, 1), (18, 0), (20, 0), (20, 3), (23, 0), (24, 0), (25, 0), (25, 2),
    (31, 0), (32, 0), (38, 0), (39, 1), (39, 2), (41, 0), (41, 2), (42, 0), (43, 0),
    (46, 0), (48, 0), (50, 0), (51, 0), (58, 0), (58, 1), (58, 2), (59, 0), (61, 0),
    (65, 0), (66, 0),
}  # fmt: skip

# the number given to a scenario whose heading has none, by its name
UNNUMBERED = {"Dem’s My Gubbinz!": 66}
