"""The rulebook's scenarios (reference/06-scenarios.md, 1 to 9) and the experience lines of a
warrior after a battle (campaigns text, Experience), award by award."""

import pytest

from battles.rules import scenarios
from battles.rules.scenarios import experience_lines

#: Each scenario's own awards as its "experience" list gives them: key → (experience, heroes
#: only, most per warrior, once per battle); every scenario also has survives, winning leader
#: and per enemy out of action, which ``experience_lines`` gives to all.
OWN_AWARDS = {
    "defend_the_find": {},
    "skirmish": {},
    "wyrdstone_hunt": {"wyrdstone_counter": (1, False, 4, False)},
    "breakthrough": {"breaking_through": (1, False, 1, False)},
    "street_fight": {"escaping": (1, True, 1, True)},
    "chance_encounter": {},
    "hidden_treasure": {"finding_chest": (2, True, 1, True)},
    "occupy": {},
    "surprise_attack": {},
}
SHARDS = {"defend_the_find": 3, "wyrdstone_hunt": 4, "chance_encounter": 6}


def test_the_rulebooks_nine_scenarios_come_first_in_order():
    rulebook = [s for s in scenarios.SCENARIOS if s.source == "Mordheim rulebook"]
    assert rulebook == list(scenarios.SCENARIOS[:9])
    assert [(s.number, s.key) for s in rulebook] == [
        (n, key) for n, key in enumerate(OWN_AWARDS, start=1)
    ]


@pytest.mark.parametrize("key", OWN_AWARDS)
def test_each_scenarios_own_awards_and_income(key):
    played = scenarios.scenario(key)

    assert {
        a.key: (a.experience, a.heroes_only, a.most, a.once_per_battle) for a in played.awards
    } == OWN_AWARDS[key]
    assert played.most_shards == SHARDS.get(key, 0)
    assert bool(played.income) == (key in SHARDS or key == "hidden_treasure")


def test_an_unknown_or_blank_key_is_another_scenario():
    assert scenarios.scenario("") is scenarios.OTHER
    assert scenarios.scenario("no_such_thing") is scenarios.OTHER


def lines(**given):
    values = {
        "is_hero": True, "survived": True, "enemies_out_of_action": 0,
        "led_the_winners": False, "underdog": 0, "awards": {}, "typed": 0,
        "played": scenarios.scenario("skirmish"),
    }  # fmt: skip
    values.update(given)
    return [(line.reason, line.experience) for line in experience_lines(**values)]


def test_a_winning_leader_with_two_kills_earns_four():
    assert lines(enemies_out_of_action=2, led_the_winners=True) == [
        ("survived", 1),
        ("for putting 2 enemies out of action", 2),
        ("winning leader", 1),
    ]


def test_a_henchman_group_earns_nothing_for_its_kills():
    assert lines(is_hero=False, enemies_out_of_action=3) == [("survived", 1)]


def test_a_warrior_who_did_not_survive_earns_nothing():
    assert lines(survived=False, enemies_out_of_action=2, led_the_winners=True) == []


def test_the_scenarios_awards_are_counted_and_capped():
    hunt = scenarios.scenario("wyrdstone_hunt")
    assert lines(is_hero=False, awards={"wyrdstone_counter": 2}, played=hunt) == [
        ("survived", 1),
        ("wyrdstone counter carried at the end ×2", 2),
    ]
    assert lines(awards={"wyrdstone_counter": 9}, played=hunt)[-1][1] == 4


def test_a_heroes_only_award_is_not_given_to_henchmen():
    chest = scenarios.scenario("hidden_treasure")
    assert lines(awards={"finding_chest": 1}, played=chest) == [
        ("survived", 1),
        ("found the treasure chest", 2),
    ]
    assert lines(is_hero=False, awards={"finding_chest": 1}, played=chest) == [("survived", 1)]


def test_an_award_of_another_scenario_is_not_given():
    assert lines(awards={"finding_chest": 1}) == [("survived", 1)]


def test_typed_underdog_and_injury_experience_come_last():
    assert lines(typed=2, underdog=3, extra={"serious injury": 1}, played=scenarios.OTHER) == [
        ("survived", 1),
        ("scenario", 2),
        ("underdog", 3),
        ("serious injury", 1),
    ]


def test_a_role_award_goes_only_to_the_warriors_of_that_role():
    raid = scenarios.scenario("rawhide")
    earned = {"stopping_wagon": 2, "getting_away": 1}
    assert lines(is_hero=False, awards=earned, played=raid, role="ambushers") == [
        ("survived", 1),
        ("stopped a wagon ×2", 2),
    ]
    assert lines(is_hero=False, awards=earned, played=raid, role="Marienburgers") == [
        ("survived", 1),
        ("drove a wagon off the table", 1),
    ]
    assert lines(is_hero=False, awards=earned, played=raid) == [("survived", 1)]


def test_a_scenario_without_the_winning_leaders_bonus_gives_none():
    giant = scenarios.scenario("dont_wake_the_giant")
    assert lines(led_the_winners=True, enemies_out_of_action=1, played=giant) == [
        ("survived", 1),
        ("for putting 1 enemy out of action", 1),
    ]
    assert lines(led_the_winners=True, awards={"treasure_leader": 1}, played=giant) == [
        ("survived", 1),
        ("led a warband that took treasure out", 1),
    ]


def test_wounding_hits_replace_enemies_out_of_action_and_the_leaders_bonus():
    mine = scenarios.scenario("its_all_mine")
    assert lines(
        enemies_out_of_action=2, led_the_winners=True, awards={"wounding_hit": 3}, played=mine
    ) == [("survived", 1), ("wounding hit ×3", 3)]


def test_more_than_one_point_for_the_standard_awards_where_the_text_says_so():
    burning = scenarios.scenario("mordheims_burning")
    assert lines(led_the_winners=True, played=burning) == [
        ("survived", 5),
        ("winning leader", 5),
    ]
    assert lines(survived=False, played=burning) == []


def test_no_standard_award_at_all_in_the_square_of_the_snake():
    snake = scenarios.scenario("square_of_the_snake")
    assert lines(enemies_out_of_action=2, led_the_winners=True, played=snake) == []
    assert lines(awards={"tombstone": 1}, played=snake) == [("reached the tombstone at the end", 5)]


@pytest.mark.parametrize(
    ("key", "won", "expected"),
    [
        ("skirmish", True, 0),
        ("skirmish", False, 0),
        ("the_wizards_tower", True, None),
        ("the_wizards_tower", False, None),
        ("mordheims_burning", True, -1),  # the winner alone explores, without his extra die
        ("mordheims_burning", False, None),
    ],
)
def test_the_exploration_a_scenario_allows(key, won, expected):
    assert scenarios.exploration_dice(scenarios.scenario(key), won=won) == expected


def test_extra_exploration_dice_go_to_the_winner_only():
    generous = scenarios.Scenario(
        "generous", 500, "Generous", aftermath=scenarios.Aftermath(extra_exploration_dice=2)
    )
    assert scenarios.exploration_dice(generous, won=True) == 2
    assert scenarios.exploration_dice(generous, won=False) == 0


def test_the_picker_filters_by_warbands_setting_source_and_name():
    assert [s.key for s in scenarios.matching(warbands=4, source="Archive Pestilen")] == [
        "dont_wake_the_giant",
        "square_of_the_snake",
    ]
    assert all(s.setting == "Ostermark" for s in scenarios.matching(setting="Ostermark"))
    assert len(scenarios.matching(setting="Ostermark")) == 2
    assert [s.number for s in scenarios.matching(words="AMBUSH")] == [16, 58, 89, 90]
    assert scenarios.matching(warbands=3, source="Mordheim rulebook") == []
