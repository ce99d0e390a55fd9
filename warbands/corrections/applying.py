"""Applying a correction: the locks every correction takes, the change each kind that gives
something makes, and the line it leaves in the campaign feed.

Lock order (that of ``warbands.treasury.ledger``): the warband's row, then the warrior's, then
the row a correction takes away, then the correction's own row. Each change reads what it
changes afresh under those locks, so that two tabs, two organisers or a post-battle step
changing the same warrior apply one after the other. A request applied later applies only
while the roster is as it was when asked (``Correction.before``): otherwise it lapses
(``Lapsed``) and says why, instead of setting a value over one the rules changed since, or
giving twice what the warrior got meanwhile.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied

from campaign.models import CampaignEvent
from campaign.services import record_event
from core.errors import RuleViolation
from core.queries import one
from core.words import possessive
from warbands import permissions
from warbands.models import (
    Correction,
    Injury,
    Warband,
    Warrior,
    WarriorItem,
    WarriorSkill,
    WarriorSpell,
)

Kind = Correction.Kind
MAX_EXPERIENCE = 999  # far beyond any track: a sanity bound, not a rule
MAX_CHARACTERISTIC = 10


class Lapsed(RuleViolation):
    """The roster moved on since the request was made: it cannot be applied as asked."""


def locked_warband(warband_id: int) -> Warband:
    """The warband's row, locked and read afresh with its campaign."""
    return (
        Warband.objects.select_for_update(of=("self",), no_key=True)
        .select_related("campaign")
        .get(pk=warband_id)
    )


def locked_for(actor, warband_id: int) -> Warband:
    """The warband's row, locked and read afresh, once ``actor`` may correct it."""
    locked = locked_warband(warband_id)
    if not permissions.can_read_corrections(actor, locked):
        raise PermissionDenied("Only the warband's owner or an organiser corrects it.")
    if not locked.campaign.is_open:
        raise PermissionDenied("The campaign is closed: nothing in it can change.")
    if locked.status == Warband.Status.DRAFT:
        raise RuleViolation("The warband is still being mustered: change it on its muster board.")
    if not permissions.can_correct(actor, locked):
        raise RuleViolation(f"{locked.name} no longer plays: it cannot be corrected.")
    return locked


def locked_warrior(warband: Warband, warrior_id: int | None) -> Warrior | None:
    """The warrior's row, locked and read afresh, while he is on the warband's roster."""
    if warrior_id is None:
        return None
    return one(
        Warrior.objects.select_for_update(of=("self",), no_key=True)
        .select_related("warrior_type__race")
        .filter(pk=warrior_id, warband=warband, status__in=Warrior.ON_ROSTER)
    )


def locked_row(model, row, warband: Warband, gone: str):
    """A warrior's item, skill, spell or injury, locked and read afresh with its warrior:
    one a second tab removed meanwhile is refused (``gone``)."""
    found = one(
        model.objects.select_for_update(of=("self",), no_key=True)
        .select_related("warrior")
        .filter(pk=row.pk, warrior__warband=warband, warrior__status__in=Warrior.ON_ROSTER)
    )
    if found is None:
        raise RuleViolation(f"{gone}: nothing changed. Reload the page.")
    return found


def _unchanged(correction: Correction, now: int, moved_on) -> None:
    """Refuse a request whose value moved since it was asked: ``moved_on(now, before)`` says
    how."""
    if now != correction.before:
        raise Lapsed(moved_on(now, correction.before))


def apply(correction: Correction, warrior: Warrior) -> None:
    """Make the change a saved correction that gives something asks for, on the ``warrior``
    locked by the caller (``locked_warrior``), or raise ``Lapsed`` having changed nothing."""
    kind = correction.kind
    if kind == Kind.EXPERIENCE:
        _unchanged(correction, warrior.experience, lambda now, before: (
            f"{possessive(warrior.name)} experience is {now} now, not {before} as when it "
            "was asked."
        ))  # fmt: skip
        warrior.experience = correction.value
        warrior.save(update_fields=["experience"])
    elif kind == Kind.CHARACTERISTIC:
        name = correction.characteristic
        _unchanged(correction, getattr(warrior, name), lambda now, before: (
            f"{possessive(warrior.name)} {name} is {now} now, not {before} as when it was asked."
        ))  # fmt: skip
        setattr(warrior, name, correction.value)
        warrior.save(update_fields=[name])
    elif kind == Kind.INJURY_ADDED:
        written = Injury.objects.filter(warrior=warrior, name=correction.injury_name).count()
        _unchanged(correction, written, lambda now, before: (
            f"{warrior.name} has {correction.injury_name} written down {now} time(s) now, "
            f"{before} when it was asked."))  # fmt: skip
        Injury.objects.create(
            warrior=warrior, name=correction.injury_name, effect=correction.injury_effect
        )
    elif kind == Kind.INJURY_REMOVED:
        injury = one(
            Injury.objects.select_for_update(no_key=True).filter(
                pk=correction.injury_id or 0, warrior=warrior
            )
        )
        if injury is None:
            raise Lapsed(f"{correction.old_value} is no longer written down on {warrior.name}.")
        injury.delete()
    elif kind == Kind.SKILL_ADDED:
        if WarriorSkill.objects.filter(warrior=warrior, skill=correction.skill_id).exists():
            raise Lapsed(f"{warrior.name} knows {correction.new_value} already.")
        WarriorSkill.objects.create(warrior=warrior, skill_id=correction.skill_id)
    elif kind == Kind.SPELL_ADDED:
        if WarriorSpell.objects.filter(warrior=warrior, spell=correction.spell_id).exists():
            raise Lapsed(f"{warrior.name} knows {correction.new_value} already.")
        WarriorSpell.objects.create(warrior=warrior, spell_id=correction.spell_id)
    elif kind == Kind.ITEM_ADDED:
        carried = WarriorItem.objects.filter(warrior=warrior, item=correction.item_id).count()
        _unchanged(correction, carried, lambda now, before: (
            f"{warrior.name} carries {now} {correction.new_value} now, {before} when it was "
            "asked."))  # fmt: skip
        WarriorItem.objects.create(
            warrior=warrior, item_id=correction.item_id, price_paid=0, correction=correction
        )
    else:  # the kinds that take away are made where they are asked (``asking``)
        raise ValueError(f"{kind} is not applied later")


def tell_feed(correction: Correction, warband: Warband, *, actor) -> None:
    """The campaign feed's line for a correction that applied: who, which warband and what
    changed (``Correction.change``: roster facts, public to the members; never the reason,
    never a treasury)."""
    change = correction.change
    if correction.announced:
        whose = "his own warband" if warband.owner_id == actor.pk else "while playing himself"
        line = (
            f"{actor.username} corrected {warband.name}, {whose}, by hand with no other "
            f"organiser to approve it ({change})."
        )
    elif correction.actor_id != actor.pk:
        line = (
            f"{actor.username} approved a correction of {warband.name} asked by "
            f"{correction.actor.username} ({change})."
        )
    else:
        line = f"{actor.username} corrected {warband.name} by hand ({change})."
    record_event(warband.campaign, CampaignEvent.Kind.CAMPAIGN, line, warband=warband)
