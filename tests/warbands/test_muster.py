"""Mustering a warband through the services: every refusal leaves everything as it was."""

import pytest
from django.core.exceptions import PermissionDenied

from core.dice import ScriptedDice
from core.errors import RuleViolation
from tests.factories import (
    CampaignFactory,
    MembershipFactory,
    UserFactory,
    WarbandFactory,
    finish,
    hire,
    mustered_warband,
)
from warbands import services
from warbands.models import Warband, WarbandType, Warrior, WarriorItem

pytestmark = pytest.mark.django_db


def snapshot(warband: Warband) -> tuple:
    """Everything a refused action must leave untouched."""
    warband.refresh_from_db()
    return (
        warband.gold_crowns,
        warband.status,
        list(warband.warriors.values_list("pk", "group_size", "status", "name")),
        list(WarriorItem.objects.filter(warrior__warband=warband).values_list("pk", flat=True)),
    )


def refused(warband: Warband, action, reason: str) -> None:
    before = snapshot(warband)
    with pytest.raises(RuleViolation, match=reason):
        action()
    assert snapshot(warband) == before


def refused_purchase(warband: Warband, warrior, item_key: str, reason: str) -> None:
    """The owner buying ``item_key`` for ``warrior`` is refused for ``reason``, nothing changed."""
    refused(
        warband,
        lambda: services.buy_item(warrior, actor=warband.owner, item_key=item_key),
        reason,
    )


def type_of(warband: Warband, key: str):
    return warband.warband_type.warrior_types.get(key=key)


# --- Creating a warband --------------------------------------------------------------------


def test_a_member_creates_a_warband_with_the_lists_starting_gold():
    membership = MembershipFactory()
    marienburg = WarbandType.objects.get(key="marienburg")

    warband = services.create_warband(
        actor=membership.user, campaign=membership.campaign, warband_type=marienburg, name=" Gold "
    )

    assert (warband.name, warband.status, warband.gold_crowns) == ("Gold", "draft", 600)


def test_a_stranger_cannot_create_a_warband_in_the_campaign():
    with pytest.raises(PermissionDenied):
        services.create_warband(
            actor=UserFactory(),
            campaign=CampaignFactory(),
            warband_type=WarbandType.objects.get(key="skaven"),
            name="Rats",
        )
    assert not Warband.objects.exists()


def test_the_campaigns_warband_limit_per_player_is_enforced():
    warband = WarbandFactory()

    with pytest.raises(RuleViolation, match="allows 1 warband per player"):
        services.create_warband(
            actor=warband.owner,
            campaign=warband.campaign,
            warband_type=warband.warband_type,
            name="Second",
        )
    assert Warband.objects.count() == 1


def test_a_disbanded_warband_does_not_count_against_the_limit():
    warband = WarbandFactory()
    services.disband_warband(warband, actor=warband.owner)

    services.create_warband(
        actor=warband.owner, campaign=warband.campaign, warband_type=warband.warband_type, name="B"
    )

    assert Warband.objects.count() == 2


# --- Hiring --------------------------------------------------------------------------------


def test_hiring_takes_the_cost_gives_the_profile_experience_and_a_free_dagger():
    warband = WarbandFactory()

    captain = hire(warband, "mercenary_captain", name="Adler")

    assert warband.gold_crowns == 440
    assert (captain.is_hero, captain.is_leader, captain.experience) == (True, True, 20)
    assert captain.profile == type_of(warband, "mercenary_captain").profile
    assert [(o.item.key, o.price_paid) for o in captain.items.all()] == [("dagger", 0)]


def test_a_henchman_group_costs_its_price_per_model():
    warband = WarbandFactory()

    group = hire(warband, "warrior", models=4)

    assert (group.group_size, warband.gold_crowns) == (4, 400)


def test_hiring_over_budget_is_refused():
    warband = WarbandFactory(gold_crowns=59)

    refused(warband, lambda: hire(warband, "mercenary_captain"), "costs 60 gc but only 59 gc")


def test_too_many_of_a_type_is_refused():
    warband = WarbandFactory()
    hire(warband, "champion")
    hire(warband, "champion")

    refused(warband, lambda: hire(warband, "champion"), "at most 2 Champion")


def test_a_second_leader_is_refused():
    warband = WarbandFactory()
    hire(warband, "mercenary_captain")

    refused(warband, lambda: hire(warband, "mercenary_captain"), "at most 1 Mercenary Captain")


def test_more_than_the_maximum_warriors_is_refused():
    warband = WarbandFactory(warband_type=WarbandType.objects.get(key="witch_hunters"))
    hire(warband, "zealot", models=5)
    hire(warband, "zealot", models=5)

    refused(warband, lambda: hire(warband, "zealot", models=3), "at most 12 warriors")


def test_a_warrior_from_another_list_is_refused():
    warband = WarbandFactory()
    rat = WarbandType.objects.get(key="skaven").warrior_types.get(key="verminkin")

    refused(
        warband,
        lambda: services.hire_warrior(warband, actor=warband.owner, warrior_type=rat, name="R"),
        "not on the Reikland Mercenaries list",
    )


def test_someone_else_cannot_hire_for_the_warband():
    warband = WarbandFactory()
    opponent = MembershipFactory(campaign=warband.campaign).user
    before = snapshot(warband)

    with pytest.raises(PermissionDenied):
        services.hire_warrior(
            warband, actor=opponent, warrior_type=type_of(warband, "warrior"), name="Spy"
        )
    assert snapshot(warband) == before


def test_a_spellcaster_starts_with_a_rolled_spell_and_rerolls_none_needed():
    warband = WarbandFactory(warband_type=WarbandType.objects.get(key="skaven"))

    sorcerer = hire(warband, "eshin_sorcerer", rolls=(4,))

    assert [(s.spell.d6, s.roll) for s in sorcerer.spells.all()] == [(4, 4)]
    assert sorcerer.spells.get().spell.spell_list.key == "magic_of_the_horned_rat"


# --- Equipment -----------------------------------------------------------------------------


def test_buying_takes_the_list_price_and_a_second_dagger_costs_two():
    warband = WarbandFactory()
    captain = hire(warband, "mercenary_captain", items=["sword", "dagger"])

    assert warband.gold_crowns == 500 - 60 - 10 - 2
    assert sorted(o.item.key for o in captain.items.all()) == ["dagger", "dagger", "sword"]


def test_a_henchman_group_buys_for_every_model():
    warband = WarbandFactory()
    hire(warband, "warrior", models=3, items=["spear"])

    assert warband.gold_crowns == 500 - 75 - 30


def test_equipment_not_on_the_warriors_list_is_refused():
    warband = WarbandFactory()
    captain = hire(warband, "mercenary_captain")

    refused(
        warband,
        lambda: services.buy_item(captain, actor=warband.owner, item_key="handgun"),
        "not on .*equipment list",
    )


def test_henchmen_in_a_group_not_equipped_alike_is_refused():
    warband = WarbandFactory()
    group = hire(warband, "warrior", models=3)

    refused(
        warband,
        lambda: services.buy_item(group, actor=warband.owner, item_key="sword", models=1),
        "equipped alike: Sword must be bought for all 3",
    )


def test_heroes_only_items_are_refused_to_henchmen():
    warband = WarbandFactory(warband_type=WarbandType.objects.get(key="middenheim"))
    champion = hire(warband, "champion", items=["wolfcloak"])
    group = hire(warband, "warrior", models=2)

    assert "wolfcloak" in [o.item.key for o in champion.items.all()]
    refused(
        warband,
        lambda: services.buy_item(group, actor=warband.owner, item_key="wolfcloak"),
        "heroes only",
    )


def test_buying_over_budget_is_refused():
    warband = WarbandFactory()
    captain = hire(warband, "mercenary_captain")
    Warband.objects.filter(pk=warband.pk).update(gold_crowns=49)

    refused(
        warband,
        lambda: services.buy_item(captain, actor=warband.owner, item_key="heavy_armour"),
        "costs 50 gc but only 49 gc",
    )


def test_giving_an_item_back_refunds_it_for_the_whole_group():
    warband = WarbandFactory()
    group = hire(warband, "warrior", models=3, items=["spear"])
    spear = group.items.get(item__key="spear")

    services.remove_item(spear, actor=warband.owner)

    warband.refresh_from_db()
    assert warband.gold_crowns == 500 - 75
    assert not group.items.filter(item__key="spear").exists()


def test_the_possessed_never_use_weapons_but_buy_mutations():
    warband = WarbandFactory(warband_type=WarbandType.objects.get(key="cult_of_the_possessed"))
    possessed = hire(warband, "possessed")

    refused(
        warband,
        lambda: services.buy_item(possessed, actor=warband.owner, item_key="sword"),
        "not on",
    )
    services.buy_item(possessed, actor=warband.owner, item_key="hideous")
    services.buy_item(possessed, actor=warband.owner, item_key="cloven_hoofs")

    warband.refresh_from_db()
    assert warband.gold_crowns == 500 - 90 - 40 - 80  # the second mutation costs double


def test_a_mutant_must_start_with_a_mutation():
    warband = WarbandFactory(warband_type=WarbandType.objects.get(key="cult_of_the_possessed"))
    hire(warband, "magister")
    mutant = hire(warband, "mutant", name="Gurgle")
    hire(warband, "brethren", models=2)

    refused(
        warband,
        lambda: services.finish_muster(warband, actor=warband.owner),
        "Gurgle must start with at least one mutation",
    )
    services.buy_item(mutant, actor=warband.owner, item_key="tentacle")
    finish(warband)
    assert warband.status == "active"


# --- Group size and dismissal --------------------------------------------------------------


def test_a_bigger_group_pays_for_the_new_models_and_their_equipment():
    warband = WarbandFactory()
    group = hire(warband, "warrior", models=2, items=["spear"])

    services.set_group_size(group, actor=warband.owner, group_size=4)

    warband.refresh_from_db()
    assert warband.gold_crowns == 500 - 4 * (25 + 10)


def test_a_smaller_group_gets_its_gold_back():
    warband = WarbandFactory()
    group = hire(warband, "warrior", models=4, items=["spear"])

    services.set_group_size(group, actor=warband.owner, group_size=1)

    warband.refresh_from_db()
    assert warband.gold_crowns == 500 - 35


def test_a_group_over_its_limits_is_refused():
    warband = WarbandFactory()
    group = hire(warband, "marksman", models=5)
    hire(warband, "marksman", models=2)

    refused(
        warband,
        lambda: services.set_group_size(group, actor=warband.owner, group_size=6),
        "groups of 1 to 5",
    )
    other = warband.warriors.exclude(pk=group.pk).get()
    refused(
        warband,
        lambda: services.set_group_size(other, actor=warband.owner, group_size=3),
        "at most 7 Marksman",
    )


def test_dismissing_while_mustering_refunds_the_warrior_and_his_equipment():
    warband = WarbandFactory()
    champion = hire(warband, "champion", items=["sword", "light_armour"])

    services.dismiss_warrior(champion, actor=warband.owner)

    warband.refresh_from_db()
    assert warband.gold_crowns == 500
    assert not Warrior.objects.exists()


# --- Finishing -----------------------------------------------------------------------------


def test_a_warband_without_a_leader_cannot_finish_mustering():
    warband = WarbandFactory()
    hire(warband, "warrior", models=5)

    refused(warband, lambda: services.finish_muster(warband, actor=warband.owner), "no leader yet")


def test_a_warband_needs_three_warriors():
    warband = WarbandFactory()
    hire(warband, "mercenary_captain")
    hire(warband, "champion")

    refused(
        warband,
        lambda: services.finish_muster(warband, actor=warband.owner),
        "at least 3 warriors",
    )


def test_after_mustering_the_roster_only_changes_after_battles():

    warband = mustered_warband()
    captain = warband.warriors.get(is_leader=True)

    assert warband.status == "active"
    refused(warband, lambda: hire(warband, "youngblood"), "Mustering is over")
    refused(
        warband,
        lambda: services.buy_item(captain, actor=warband.owner, item_key="axe"),
        "Mustering is over",
    )


def test_dismissing_after_mustering_keeps_the_warrior_in_history():

    warband = mustered_warband()
    champion = warband.warriors.get(warrior_type__key="champion")
    captain = warband.warriors.get(is_leader=True)

    services.dismiss_warrior(champion, actor=warband.owner)

    champion.refresh_from_db()
    assert champion.status == "dismissed"
    assert champion not in services.roster(warband)
    refused(warband, lambda: services.dismiss_warrior(captain, actor=warband.owner), "leader")


def test_disbanding_keeps_the_warband_but_empties_the_roster():

    warband = mustered_warband()

    services.disband_warband(warband, actor=warband.owner)

    warband.refresh_from_db()
    assert warband.status == "disbanded"
    assert not services.roster(warband).exists()
    with pytest.raises(PermissionDenied):  # a disbanded warband can no longer be changed
        services.disband_warband(warband, actor=warband.owner)


def test_renaming_refuses_an_empty_name():
    warband = WarbandFactory(name="Old")

    refused(
        warband, lambda: services.rename_warband(warband, actor=warband.owner, name="  "), "name"
    )
    services.rename_warband(warband, actor=warband.owner, name="New")
    warband.refresh_from_db()
    assert warband.name == "New"


def test_a_server_rolled_spell_is_one_of_the_six():
    warband = WarbandFactory(warband_type=WarbandType.objects.get(key="undead"))

    necromancer = services.hire_warrior(
        warband,
        actor=warband.owner,
        warrior_type=type_of(warband, "necromancer"),
        name="Mortis",
        dice=ScriptedDice([6]),
    )

    assert necromancer.spells.get().spell.d6 == 6


def test_the_rating_in_sql_is_the_rulebooks():
    """``services.rating_expression`` (the dashboard's and the battle report's ratings) says
    what ``rules.warband_rating`` says: large creatures, henchman groups, experience, captured
    warriors counted and dead ones not."""
    skaven = WarbandFactory(warband_type=WarbandType.objects.get(key="skaven"))
    hire(skaven, "assassin_adept", name="Skritch")
    hire(skaven, "rat_ogre", name="Grolsch")
    hire(skaven, "verminkin", models=3, name="Vermin")
    reikland = mustered_warband()
    for warrior, experience, status in zip(
        reikland.warriors.order_by("pk"), (20, 8, 2), ("active", "captured", "dead"), strict=False
    ):
        Warrior.objects.filter(pk=warrior.pk).update(experience=experience, status=status)

    in_sql = services.ratings_of([skaven, reikland])
    for warband in (skaven, reikland):
        assert in_sql[warband.pk] == services.rating(services.roster(warband)), warband
    assert in_sql[skaven.pk] >= 20 + 5 + 3 * 5  # the rat ogre counts 20
