"""The races of battles: confirming a report, random fortune, the carried items of step 0 and
their recovery (``tests.race.harness``)."""

from __future__ import annotations

from django.urls import reverse

from battles.aftermath import carried_items
from battles.helper import end, start
from battles.models import Battle, DiceRoll, Discovery, Participant, PostBattleSequence
from battles.report import fortune, services, sides
from battles.rules import ReportedResult
from campaign.models import CampaignEvent
from core.dice import ScriptedDice
from tests.helpers import every_side_entered, mustered_duel
from tests.race.harness import Shot, race

NOT_RACED = {
    "battle_detail": "a page",
    "scenario_roll": "each roll is a line of the feed of its own; it moves nothing and "
    "changes no battle",
    "battle_report": "each report is a battle of its own that moves nothing until its "
    "opponent confirms it (battle_respond is raced)",
    "battle_record": "each post records a battle of its own that moves nothing until its "
    "players confirm it, or the organiser overrides (battle_confirm_all is raced)",
    "battle_side": "what a side's warriors did, replaced by a later post; moves no treasure",
    "battle_correct": "a correction sends the result back for confirmation; moves nothing",
}


def reported(duel, **extra) -> Battle:
    """The Reavers' report of their win over the routed Scourge, not yet confirmed."""
    reavers, scourge = duel["reavers"], duel["scourge"]
    return services.report_battle(
        actor=reavers.owner, campaign=duel["campaign"], scenario="Skirmish",
        results=[ReportedResult(reavers.pk, "won"),
                 ReportedResult(scourge.pk, "lost", routed=True, rout_order=1)],
        **extra,
    )  # fmt: skip


def confirmed(duel, **extra) -> Battle:
    battle = reported(duel, **extra)
    every_side_entered(battle)
    services.respond(battle, actor=duel["scourge"].owner, agree=True)
    battle.refresh_from_db()
    return battle


def sequences_started(battle) -> int:
    """1 once the battle's two post-battle sequences exist (2 if they were made twice)."""
    return PostBattleSequence.objects.filter(participant__battle=battle).count() // 2


def declare(battle, warband, states: dict[str, str]) -> None:
    """``warband``'s owner declares its carried items, by label; the rest stays with it."""
    declarations = [
        carried_items.Declaration(item.pk, states.get(item.label, "own"))
        for item in battle.carried_items.filter(owner=warband).order_by("pk")
    ]
    carried_items.declare_carried_items(
        battle, warband, actor=warband.owner, declarations=declarations, securers=2
    )


def takings(battle) -> int:
    """Containers that changed hands in step 0 of ``battle``, as its feed tells."""
    return CampaignEvent.objects.filter(kind="container", battle=battle).count()


@race("battle_respond", "the report is confirmed once: one pair of sequences")
def respond():
    duel = mustered_duel()
    battle = every_side_entered(reported(duel))
    return Shot(
        duel["scourge"].owner,
        reverse("battle_respond", args=[battle.pk]),
        {"agree": "yes"},
        applied=lambda: sequences_started(battle),
    )


@race("battle_side_as_recorded", "the last side saved as the helper wrote it confirms once")
def side_as_recorded():
    duel = mustered_duel()
    reavers, scourge = duel["reavers"], duel["scourge"]
    battle = start.start_game(
        actor=reavers.owner, campaign=duel["campaign"], scenario_key="skirmish",
        warband_ids=[reavers.pk, scourge.pk],
    )  # fmt: skip
    end.end_game(battle.pk, actor=reavers.owner, winner_id=None)
    version = {
        p.warband_id: sides.side_version(p, list(p.outcomes.all()))
        for p in Participant.objects.filter(battle=battle)
    }
    services.confirm_side_as_recorded(
        battle, reavers, actor=reavers.owner, version=version[reavers.pk]
    )
    return Shot(
        scourge.owner,
        reverse("battle_side_as_recorded", args=[battle.pk, scourge.pk]),
        {"version": version[scourge.pk]},
        applied=lambda: sequences_started(battle),
    )


@race("battle_confirm_all", "the organiser's override confirms once")
def confirm_all():
    duel = mustered_duel()
    battle = every_side_entered(reported(duel))
    return Shot(
        duel["organiser"],
        reverse("battle_confirm_all", args=[battle.pk]),
        {},
        applied=lambda: sequences_started(battle),
    )


@race("battle_fortune_markers", "the markers are rolled once")
def fortune_markers():
    duel = mustered_duel()
    battle = confirmed(duel, random_fortune=True)
    return Shot(
        duel["reavers"].owner,
        reverse("battle_fortune_markers", args=[battle.pk]),
        {"dice": ""},
        applied=lambda: DiceRoll.objects.filter(battle=battle, purpose__icontains="marker").count(),
    )


@race("battle_discovery", "one marker is left: it is tested once")
def discovery():
    duel = mustered_duel()
    reavers = duel["reavers"]
    battle = confirmed(duel, random_fortune=True)
    fortune.roll_fortune_markers(battle, actor=reavers.owner, dice=ScriptedDice([1, 3, 4]))
    battle.refresh_from_db()
    while fortune.markers_left(battle) > 1:
        fortune.test_discovery(battle, reavers, actor=reavers.owner, dice=ScriptedDice([1]))
    return Shot(
        reavers.owner,
        reverse("battle_discovery", args=[battle.pk]),
        {"warband": reavers.pk, "dice": "6"},
        applied=lambda: Discovery.objects.filter(battle=battle).count() - 2,
    )


@race("battle_declare", "a chest the enemy holds changes hands once")
def declare_carried():
    duel = mustered_duel()
    reavers, scourge = duel["reavers"], duel["scourge"]
    battle = confirmed(duel)
    declare(battle, reavers, {})
    data = {"securers": 2, "pitters": 0}
    for item in battle.carried_items.filter(owner=scourge):
        state = f"enemy-{reavers.pk}" if item.label == "Treasure Chest" else "own"
        data[f"i{item.pk}-state"] = state
    return Shot(
        scourge.owner,
        reverse("battle_declare", args=[battle.pk, scourge.pk]),
        data,
        applied=lambda: takings(battle),
        htmx=False,
    )


def uncontrolled_chests(duel) -> Battle:
    """Both treasure chests left uncontrolled at the end of the battle."""
    battle = confirmed(duel)
    for warband in (duel["reavers"], duel["scourge"]):
        declare(battle, warband, {"Treasure Chest": "uncontrolled"})
    return battle


@race("battle_recovery_start", "the choosing order is rolled once")
def recovery_start():
    duel = mustered_duel()
    battle = uncontrolled_chests(duel)
    return Shot(
        duel["reavers"].owner,
        reverse("battle_recovery_start", args=[battle.pk]),
        {"dice": ""},
        applied=lambda: (
            int(Battle.objects.get(pk=battle.pk).choosing_order is not None)
            + DiceRoll.objects.filter(battle=battle, purpose__icontains="choos").count() // 2
        ),
    )


@race("battle_recover", "the Scourge's chest is recovered once")
def recover():
    duel = mustered_duel()
    reavers, scourge = duel["reavers"], duel["scourge"]
    battle = uncontrolled_chests(duel)
    carried_items.start_recovery(battle, actor=reavers.owner, dice=ScriptedDice([]))
    chest = battle.carried_items.get(owner=scourge, label="Treasure Chest")
    return Shot(
        reavers.owner,
        reverse("battle_recover", args=[battle.pk]),
        {"item": chest.pk, "dice": "2"},
        applied=lambda: takings(battle),
    )
