"""Random fortune (Mayhem in Mordheim): the markers placed on the table, and the discovery
tests of the warriors who reach them.

Invariants, checked under the battle's row lock:
- a discovery test needs a marker: no more tests than markers were placed (each test, found
  or not, takes its marker off the table), and none before the markers are rolled;
- a test is made by the warband whose warrior reached the marker: its owner rolls or types
  its dice, or an organiser does on its behalf; a player never tests for an opponent.

Typed dice are exactly what each field takes (``MARKERS``, ``placement_rolloff``,
``DISCOVERY_TEST``, ``table_roll``), checked under the lock before anything is rolled.
"""

from __future__ import annotations

from django.db import transaction

from battles import rules
from battles.aftermath.carried_items import add_discovery_item
from battles.dice import exactly, last_roll_id, note_decided, typed
from battles.models import Battle, Discovery, Participant
from battles.permissions import check_may_roll
from battles.report import permissions as report_permissions
from campaign import cache
from campaign.models import CampaignEvent, RandomFortuneEntry
from campaign.services import record_event
from core.dice import DiceError, Need
from core.errors import RuleViolation
from warbands.models import VesselItem, Warband


def _locked(battle: Battle) -> Battle:
    return (
        Battle.objects.select_for_update(of=("self",), no_key=True)
        .select_related("campaign")
        .get(pk=battle.pk)
    )


# mim-random-fortune.txt: "Roll a D3", typed as the D6 it is read from.
MARKERS = Need(1, "D3 as a D6")
DISCOVERY_TEST = Need(1, "D6")


def tied(participants: list[Participant]) -> list[Participant]:
    """The warbands whose rating another shares: they roll off for their place, in this
    order (``rules.placement_order``)."""
    ratings = [p.rating_before for p in participants]
    return [p for p in participants if ratings.count(p.rating_before) > 1]


def placement_rolloff(participants: list[Participant]) -> Need:
    """The placement roll-off's dice: one D6 per warband of a rating another shares, none when
    every rating differs (the field is shown only then)."""
    rolling = tied(participants)
    if not rolling:
        return Need(0, note="no roll-off: no two warbands have the same rating")
    names = ", ".join(p.warband.name for p in rolling)
    return Need(len(rolling), f"one D6 per warband of equal rating, in turn: {names}")


@transaction.atomic
def roll_fortune_markers(battle: Battle, *, actor, dice, rolloff=None) -> tuple[int, list]:
    """The number of random fortune markers (``dice``: the D3) and who places them first
    (``rolloff``: the placement roll-off of warbands of equal rating; ``dice`` when None)."""
    battle = _locked(battle)
    check_may_roll(battle, actor)
    cache.changed(battle=battle)  # its board and dice log
    if not battle.random_fortune:
        raise RuleViolation("Random fortune was not in play in this battle.")
    if battle.fortune_markers is not None:
        raise RuleViolation("The markers have been rolled already.")
    participants = list(battle.participants.select_related("warband"))
    dice = exactly(dice, MARKERS, "The markers' roll")
    if rolloff is not None:
        rolloff = exactly(rolloff, placement_rolloff(participants), "The placement roll-off")
    since = last_roll_id(battle)
    battle.fortune_markers = rules.random_fortune_markers(dice, len(participants))
    battle.save(update_fields=["fortune_markers"])
    note_decided(battle, since, f"{battle.fortune_markers} random fortune markers")
    since = last_roll_id(battle)
    order = rules.placement_order(
        [rules.Placer(p.warband_id, p.warband.name, p.rating_before) for p in participants],
        dice if rolloff is None else rolloff,
    )
    note_decided(battle, since, "placement: " + ", ".join(p.name for p in order))
    return battle.fortune_markers, order


def placement(battle: Battle) -> list[Participant]:
    """Lowest rating places first (ties as rolled off, shown in the dice log)."""
    return sorted(battle.participants.select_related("warband"), key=lambda p: p.rating_before)


def markers_left(battle: Battle) -> int:
    """The markers still on the table: those placed, less those already tested."""
    return max((battle.fortune_markers or 0) - battle.discoveries.count(), 0)


def fortune_rows(battle: Battle) -> list[rules.FortuneRow]:
    """The campaign's random fortune table the battle's scenario names (none: the players type
    what was found)."""
    return [
        rules.FortuneRow(e.low, e.high, e.result, e.kind)
        for e in RandomFortuneEntry.objects.filter(
            campaign=battle.campaign, table=battle.fortune_table
        )
    ]


def table_roll(table: str, *, listed: bool) -> Need:
    """The dice of the random fortune table (``rules.fortune_roll``), rolled only when a test
    finds something and the campaign lists the table (``listed``)."""
    if not listed:
        return Need(0, note="the campaign lists no random fortune table: type what was found")
    return Need(1, "D100", 100) if table == "d100" else Need(2, "D66")


@transaction.atomic
def test_discovery(
    battle: Battle, warband: Warband, *, actor, dice, result: str = "", table=None
) -> Discovery:
    """A warrior of ``warband`` investigated a marker: D6 test (``dice``), then the campaign's
    random fortune table (``table``'s dice; ``dice``'s when None), or the result as typed,
    while the campaign has no table. The marker leaves the table whatever the test finds.
    Typed table dice come after a typed test only: a refusal never follows a server roll."""
    battle = _locked(battle)
    check_may_roll(battle, actor)
    cache.changed(battle=battle, warband=warband)  # its board and dice log; what it found
    if not battle.random_fortune:
        raise RuleViolation("Random fortune was not in play in this battle.")
    if not battle.participants.filter(warband=warband).exists():
        raise RuleViolation(f"{warband.name} did not fight in this battle.")
    report_permissions.check_tests_for(actor, battle, warband)
    if battle.carried_items_done_at:
        raise RuleViolation("The carried items are settled: no more discoveries.")
    if battle.fortune_markers is None:
        raise RuleViolation("Roll the random fortune markers first.")
    if not markers_left(battle):
        raise RuleViolation(
            f"All {battle.fortune_markers} random fortune markers have been tested already."
        )
    artefact = VesselItem.objects.filter(
        warband=warband, kind=VesselItem.Kind.DARK_ARTEFACT, is_lost=False
    ).exists()
    rows = fortune_rows(battle)
    dice = exactly(dice, DISCOVERY_TEST, "The discovery test")
    if table is None:
        table = dice  # one set of dice for both (scripted in tests, the demo's)
    elif typed(table) and not typed(dice):
        raise DiceError(
            "Type the test's die too: the table's dice are rolled after it, and only when it "
            "finds something."
        )
    else:
        listed = table_roll(battle.fortune_table, listed=bool(rows))
        table = exactly(table, listed, "The random fortune table")
    since = last_roll_id(battle)
    test = rules.discovery_test(dice, warband=warband.name, holds_dark_artefact=artefact)
    discovery = Discovery(
        battle=battle, warband=warband, test_roll=test.roll, discovered=test.discovered,
        cult_attack=test.cult_attack,
    )  # fmt: skip
    if test.discovered:
        if rows:
            discovery.table_roll = rules.fortune_roll(table, battle.fortune_table)
            row = rules.look_up_fortune(rows, discovery.table_roll)
            discovery.result = row.result if row else f"Nothing listed for {discovery.table_roll}"
            discovery.kind = row.kind if row else Discovery.Kind.CARRIED_ITEM
        else:
            discovery.result = result.strip()[:200] or "An unidentified discovery"
    if table is not dice and not (test.discovered and rows):
        nothing = Need(0, note=f"the test rolled {test.roll}: nothing found")
        exactly(table, nothing, "The random fortune table")
    discovery.save()
    note_decided(
        battle,
        since,
        (f"found {discovery.result}" if test.discovered else "nothing found")
        + ("; the cult attacks" if test.cult_attack else ""),
    )
    if discovery.cult_attack:
        record_event(
            battle.campaign, CampaignEvent.Kind.BATTLE,
            f"The cult attacked {warband.name} for the Dark Artefact it carries!", battle=battle,
        )  # fmt: skip
    if battle.is_confirmed and test.discovered:
        add_discovery_item(battle, discovery)
    return discovery
