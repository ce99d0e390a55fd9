"""The scenarios of reference/06-scenarios.md as read by hand from the chapter, apart from
``battles/data/scenarios/``, for ``test_scenario_data``: each scenario's number, how many
warbands it takes and its own experience awards (experience, heroes only, most per warrior),
and the chapter's scenarios left out, with the reason.

Readings where the texts leave room:

- "Two or more" warbands is read as two to four (the battle helper seats four).
- An award for "each" of something counted (counters, wagons, buildings) may be earned as
  often as there are such things in the text (four counters at most, four wagons, six farm
  buildings or horses); "each wounding hit" or "each enemy taken down" as often as the
  battle's own bounds allow (20, 50).
- Where the defender earns "double" for surviving or leading the winners (Through Black Fire
  Pass, Brigands in the Pasturelands), the second point is a defender's award of its own.
- Haunted Treasure's +2 for the chest, +1 each when several carry it: the +2 is a lone
  carrier's, the +1 each helper's.
"""

# key: (number, (fewest, most warbands), {award: (experience, heroes only, most)})
READINGS = {
    "defend_the_find": (1, (2, 2), {}),
    "skirmish": (2, (2, 2), {}),
    "wyrdstone_hunt": (3, (2, 2), {"wyrdstone_counter": (1, False, 4)}),
    "breakthrough": (4, (2, 2), {"breaking_through": (1, False, 1)}),
    "street_fight": (5, (2, 2), {"escaping": (1, True, 1)}),
    "chance_encounter": (6, (2, 2), {}),
    "hidden_treasure": (7, (2, 2), {"finding_chest": (2, True, 1)}),
    "occupy": (8, (2, 2), {}),
    "surprise_attack": (9, (2, 2), {}),
    "upon_the_eerie_downs": (74, (2, 2), {"escapes": (1, False, 1)}),
    "battle_for_the_farm": (75, (2, 2), {"building_destroyed": (1, False, 6)}),
    "blood_on_the_pasturelands": (76, (2, 2), {"horse_stolen": (1, False, 6)}),
    "through_black_fire_pass": (
        77,
        (2, 2),
        {
            "defender_survives": (1, False, 1),
            "defender_leader": (1, True, 1),
            "escapes": (1, False, 1),
        },
    ),
    "brigands_in_the_pasturelands": (
        78,
        (2, 2),
        {
            "defender_survives": (1, False, 1),
            "defender_leader": (1, True, 1),
        },
    ),
    "the_watchtower": (79, (2, 2), {"beacon": (1, True, 1)}),
    "wolf_hunt": (80, (2, 2), {"bear_slayer": (1, True, 1)}),
    "protect_hornsbys_ferry": (
        81,
        (2, 4),
        {
            "roughing_up": (1, True, 1),
            "defending_hornsbys": (1, True, 1),
        },
    ),
    "stop_thief": (82, (2, 4), {"retrieved_item": (1, True, 1)}),
    "hunt_the_heretic": (83, (2, 2), {}),
    "river_watch": (84, (2, 2), {"escapes": (1, False, 1)}),
    "night_of_the_dead": (
        85,
        (2, 4),
        {
            "wyrdstone_off": (1, False, 10),
            "zombie": (1, True, 20),
        },
    ),
    "happy_harpy_hunting_grounds": (86, (2, 2), {}),
    "round_up_at_the_mordheim_corral": (87, (2, 4), {"wyrdstone_counter": (1, False, 4)}),
    "the_recipe": (88, (2, 4), {"pies": (1, True, 1)}),
    "ambush_ap_89": (89, (2, 2), {}),
    "ambush_ap_90": (90, (2, 2), {"breaking_through": (1, False, 1)}),
    "breakthrough_ap": (91, (2, 2), {}),
    "defend_the_village": (92, (2, 2), {"village_saved": (1, False, 1)}),
    "dont_wake_the_giant": (
        93,
        (2, 4),
        {
            "treasure_leader": (1, True, 1),
            "getting_chest": (1, False, 2),
            "killing_giant": (2, False, 1),
            "getting_bag": (2, False, 1),
        },
    ),
    "grudge_match": (94, (2, 2), {"winning_champion": (2, False, 1)}),
    "haunted_treasure_ap": (
        95,
        (2, 2),
        {
            "chest_alone": (2, False, 1),
            "chest_helped": (1, False, 1),
            "banshee": (3, False, 1),
        },
    ),
    "its_all_mine": (
        96,
        (2, 2),
        {
            "destroying_mine": (1, False, 1),
            "saving_mine": (1, False, 1),
            "stopping_zombies": (1, False, 1),
            "wounding_hit": (1, False, 20),
        },
    ),
    "raid_ap": (97, (2, 2), {}),
    "rawhide": (
        99,
        (2, 2),
        {
            "saving_wyrdstone": (1, True, 1),
            "successful_ambush": (1, True, 1),
            "getting_away": (1, False, 1),
            "stopping_wagon": (1, False, 4),
        },
    ),
    "rescue": (100, (2, 2), {}),
    "scourge_and_purge_ap": (
        102,
        (2, 2),
        {
            "killing_wizard": (5, False, 1),
            "purge": (1, False, 50),
            "cleanse": (10, True, 1),
        },
    ),
    "scripts_of_sigmar": (103, (2, 2), {}),
    "the_caravan_ap": (105, (2, 2), {"cargo": (1, False, 1)}),
    "square_of_the_snake": (108, (4, 4), {"tombstone": (5, False, 1)}),
    "the_wizards_tower": (109, (2, 2), {}),
    "mordheims_burning": (163, (3, 4), {}),
}

# The standard awards a text leaves out or changes: key → (survives, winning leader, per enemy)
# as experience, 0 for none.
STANDARD = {
    "dont_wake_the_giant": (1, 0, 1),  # the leader's +1 is for treasure taken out
    "its_all_mine": (1, 0, 0),  # wounding hits instead of enemies out of action
    "square_of_the_snake": (0, 0, 0),  # victory points; only the tombstone's five
    "scourge_and_purge_ap": (1, 2, 1),
    "mordheims_burning": (5, 5, 1),
}

# The chapter's scenarios the data leaves out (by number), and why.
LEFT_OUT = {
    98: "Raids: one warband against townsfolk run by a campaign manager, with jewellery, slaves "
    "and surrender of its own, and no experience list; report it as another scenario.",
    101: "Romero's Pride: zombies to add to another scenario, with no experience of its own.",
    104: "The Battle At Koleshire Keep: a one-off fight of two named bands, with no experience "
    "list.",
    106: "The Forbidden Square: its text stops before any experience or income.",
    107: "The Restless Dead: undead that join any battle, not a scenario of its own.",
}
