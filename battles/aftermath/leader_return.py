"""A dead leader bought again in the hiring step (step 8): the Undead's new Vampire after the
next game, before whom the Necromancer steps down (campaigns text, Death of a leader; the rule
is ``warbands.rules.succession``). Here the games since the leader was lost are counted from
the battles, and the roster changes made when he is hired.
"""

from __future__ import annotations

from battles.aftermath.engine import Context
from battles.models import Captive, Participant, PostBattleSequence, SequenceTask, WarriorOutcome
from core.errors import RuleViolation
from warbands import rules as roster_rules
from warbands import services as warband_services
from warbands.models import Warrior, WarriorType
from warbands.rules import succession


def games_since_lost(sequence: PostBattleSequence, leader_type: WarriorType) -> int | None:
    """How many games the warband fought after the last one a dead warrior of
    ``leader_type`` was part of (fought in, was injured after, was captured in), up to the
    sequence's own battle; None when none of them died. Games are in the order they were
    reported."""
    warband = sequence.participant.warband
    dead = list(
        Warrior.objects.filter(
            warband=warband, warrior_type=leader_type, status=Warrior.Status.DEAD
        ).values_list("pk", flat=True)
    )
    if not dead:
        return None
    battles = {
        *WarriorOutcome.objects.filter(warrior__in=dead).values_list(
            "participant__battle_id", flat=True
        ),
        *SequenceTask.objects.filter(warrior__in=dead).values_list(
            "sequence__participant__battle_id", flat=True
        ),
        *Captive.objects.filter(warrior__in=dead).values_list("battle_id", flat=True),
    }
    lost_in = max(battles, default=0)
    return Participant.objects.filter(
        warband=warband, battle_id__gt=lost_in, battle_id__lte=sequence.participant.battle_id
    ).count()


def returns(sequence: PostBattleSequence, warrior_type: WarriorType) -> bool:
    """Hiring ``warrior_type`` brings the list's dead leader back (``RuleViolation`` when it is
    too early): ``succession.leader_bought_again``. Other lists read no battles for it."""
    family = sequence.participant.warband.warband_type.family
    if not warrior_type.is_leader or family not in succession.LEADER_BOUGHT_AGAIN:
        return False
    return succession.leader_bought_again(
        family, warrior_type.name, games_since_lost=games_since_lost(sequence, warrior_type)
    )


def hire_refusal(sequence, warrior_type: WarriorType, refusal: str | None, warriors) -> str | None:
    """Why the hiring list cannot offer ``warrior_type`` now: ``refusal`` as the hiring rules
    gave it, unless the type is the list's leader bought again, which is checked with the
    acting leader stepped down (``warriors``: the roster the list was checked against)."""
    if not refusal or not warrior_type.is_leader:
        return refusal
    try:
        if not returns(sequence, warrior_type):
            return refusal
        roster_rules.check_hire(
            sequence.participant.warband.warband_type.limits,
            succession.acting_leader_steps_down(warband_services.roster_entries(warriors)),
            warrior_type.as_rule(),
            models=1,
            gold=None,
        )
    except RuleViolation as refused:
        return str(refused)
    return None


def step_down(ctx: Context, roster) -> list[str]:
    """Whoever led in the returning leader's place leads no more; a line for each."""
    lines = []
    for acting in [w for w in roster if w.is_leader]:
        ctx.journal.update(acting, is_leader=False)
        lines.append(f"{acting.name} steps down as leader")
    return lines
