"""Who plays a post-battle sequence, and who acts for whom in its steps: the warband's owner
plays his own; an organiser who did not fight in the battle
(``battles.permissions.acts_for_players``) may play the steps that reveal nothing secret,
declare step 0's carried items for a player, choose in his turn, and reopen a step; only
the owner undoes his last step."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied

from battles.models import Battle, PostBattleSequence, StepRecord
from battles.permissions import acts_for_players, check_for_players, check_open
from core.words import possessive
from warbands.models import Warband

# Mayhem in Mordheim's secret treasury: these steps show or move it.
TREASURY_STEPS = range(3, 11)
# Actions of those steps whose dice every player of the battle reads: the search for a
# dramatis persona (step 6) moves no treasure, and the chapter has it witnessed.
PUBLIC_ACTIONS = frozenset({"seek_persona"})


def secret_dice(step: int, action: str = "") -> bool:
    """The dice of ``action`` in ``step`` are logged as secret rolls of the treasury."""
    return step in TREASURY_STEPS and action not in PUBLIC_ACTIONS


def may_act(user, sequence: PostBattleSequence, step: int | None = None) -> bool:
    """The warband's owner plays its sequence. An organiser may act for him in the steps that
    reveal nothing secret (carried items, injuries, experience), in a battle he did not fight
    in (``battles.permissions.acts_for_players``); the treasury steps (3 to 10) are the
    owner's alone, since only he moves his treasure (``can_edit_warband``). A step undone
    before (reopened by an organiser, or undone by its player) is played again by the player
    himself: an organiser who could reopen a step and roll it again for him could roll until
    a hero died.
    """
    warband = sequence.participant.warband
    battle = sequence.participant.battle
    if not battle.campaign.is_open:
        return False
    if warband.owner_id == user.pk:
        return True
    if not acts_for_players(user, battle):
        return False
    step = sequence.current_step if step is None else step
    if step in TREASURY_STEPS:
        return False
    again = StepRecord.objects.filter(sequence=sequence, step=step, undone_at__isnull=False)
    return not again.exists()


def check_acts(actor, sequence: PostBattleSequence) -> None:
    if not may_act(actor, sequence):
        raise PermissionDenied(
            "Only the warband's owner plays this step. An organiser plays steps 0 to 2 for him, "
            "in a battle the organiser did not fight in, unless the step was undone before."
        )


def check_undoes(actor, sequence: PostBattleSequence) -> None:
    if sequence.participant.warband.owner_id != actor.pk:
        raise PermissionDenied("Only the warband's owner undoes a step; organisers reopen one.")


def check_reopens(actor, sequence: PostBattleSequence) -> None:
    check_for_players(actor, sequence.participant.battle, "Only an organiser reopens a step.")


def check_declares(actor, battle: Battle, warband: Warband) -> None:
    """Step 0: each warband declares where its carried items ended the game; an organiser may
    for an absent player."""
    check_open(battle.campaign)
    check_for_players(
        actor, battle, "Each warband declares its own carried items.",
        own=warband.owner_id == actor.pk,
    )  # fmt: skip


def check_chooses(actor, battle: Battle, turn: Warband) -> None:
    """Step 0: the warbands choose uncontrolled items in turn (``turn``'s now)."""
    if turn.owner_id != actor.pk and not acts_for_players(actor, battle):
        raise PermissionDenied(f"It is {possessive(turn.name)} turn to choose.")
