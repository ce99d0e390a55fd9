"""The races of hiring hired swords from the catalogue (``tests.race.harness``): at muster
and in step 7, and the upkeep of one on the roster."""

from __future__ import annotations

from django.urls import reverse

from battles.models import PostBattleSequence
from tests.factories import WarbandFactory
from tests.helpers import act, at, mustered_duel, play_to, sequence_of
from tests.race.harness import Shot, race
from tests.race.sequence_races import act_shot, leave_gold, reavers_at
from warbands import hired_swords
from warbands.models import HiredSwordType, LedgerEntry, Warrior

Reason = LedgerEntry.Reason


def swords(warband) -> int:
    return Warrior.objects.filter(warband=warband, hired_sword__isnull=False).count()


@race("warband_hire_sword", "one of each type: four tabs hire one Ogre")
def hire_at_muster():
    warband = WarbandFactory()
    return Shot(
        warband.owner,
        reverse("warband_hire_sword", args=[warband.pk]),
        {"sword": "ogre_bodyguard"},
        applied=lambda: swords(warband),
    )


@race("sequence_act:7:hire_sword:catalogue", "40 gc pay one Pit Fighter's fee of 30")
def hire_in_step_7():
    sequence, reavers = reavers_at(7)
    leave_gold(reavers, 40)
    return act_shot(sequence, reavers, "hire_sword", lambda: swords(reavers), sword="pit_fighter")


def upkeep_paid(warband) -> int:
    entries = LedgerEntry.objects.filter(
        warband=warband, reason=Reason.PURCHASE, note__contains="upkeep"
    )
    return -sum(entries.values_list("amount", flat=True))


@race("sequence_act:7:upkeep:catalogue", "a hired sword's upkeep is paid once")
def upkeep():
    duel = mustered_duel()
    reavers = duel["reavers"]
    ogre = hired_swords.new_hired_sword(
        reavers, HiredSwordType.objects.get(key="ogre_bodyguard"), at_creation=True
    )
    first, _ = at(duel, 7)
    act(first, "upkeep", reavers.owner, warrior=ogre.pk, decision="pay")
    play_to(first, PostBattleSequence.COMPLETE, reavers.owner)
    scourge = duel["scourge"]
    play_to(sequence_of(first.participant.battle, scourge), 11, scourge.owner)
    sequence, _ = at(duel, 7)  # the next battle: his upkeep is due again
    before = upkeep_paid(reavers)
    return act_shot(
        sequence, reavers, "upkeep", lambda: (upkeep_paid(reavers) - before) // 30,
        warrior=ogre.pk, decision="pay",
    )  # fmt: skip


# --- Dramatis personae: the search (step 6) and the hire (step 7) ------------------------------


def searches(sequence) -> int:
    sequence.refresh_from_db()
    return len(sequence.state.get("persona_searches", []))


@race("sequence_act:6:seek_persona", "four tabs send the captain after Johann: one search")
def seek_persona():
    sequence, reavers = reavers_at(6)
    captain = reavers.warriors.get(warrior_type__key="mercenary_captain")
    return act_shot(
        sequence, reavers, "seek_persona", lambda: searches(sequence),
        persona="johann_the_knife", heroes=[captain.pk], dice="",
    )  # fmt: skip


def found(sequence, key: str) -> None:
    """As if the warband's heroes had found ``key`` in step 6 of this sequence."""
    search = {"persona": key, "heroes": [], "rolls": [1], "found": True}
    PostBattleSequence.objects.filter(pk=sequence.pk).update(
        state={**sequence.state, "persona_searches": [search]}
    )
    sequence.refresh_from_db()


@race("sequence_act:7:hire_sword:persona", "200 gc, Johann found: four tabs hire one Johann")
def hire_persona():
    sequence, reavers = reavers_at(7)
    leave_gold(reavers, 200)
    found(sequence, "johann_the_knife")
    return act_shot(
        sequence, reavers, "hire_sword", lambda: swords(reavers), sword="johann_the_knife"
    )
