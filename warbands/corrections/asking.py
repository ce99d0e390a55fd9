"""Making a correction, one function per kind: it applies at once, or waits as a request.

Each function locks the warband's row and reads the warrior or the row it names again under
that lock (``applying``), checks the change, and hands it to ``submit``: a correction that
only takes away (an item, a skill or a spell taken off, a characteristic lowered) applies
now; one that gives something applies now only when its maker approves the warband's
corrections (``permissions.approves_corrections``: an organiser, and on his own warband only
when no other organiser could), and otherwise waits as a request (``deciding``). Two tabs
asking the same at once make one request: the second finds the first (same warrior, same
change) under the warband's lock and is told so.
"""

from __future__ import annotations

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from campaign import cache
from core import notices
from core.errors import RuleViolation
from core.words import possessive
from warbands import permissions, rules
from warbands.corrections import applying, breaches
from warbands.corrections.applying import MAX_CHARACTERISTIC, MAX_EXPERIENCE
from warbands.models import (
    Correction,
    Injury,
    Item,
    Skill,
    Spell,
    Warband,
    Warrior,
    WarriorItem,
    WarriorSkill,
    WarriorSpell,
)

Kind = Correction.Kind
# Requests of one warband waiting at once: enough for any table's backlog, too few to bury
# the organisers' dashboards.
MAX_PENDING = 20


def _reason(reason: str) -> str:
    reason = " ".join(reason.split())
    if not reason:
        raise RuleViolation("Say why: every correction is recorded with its reason.")
    return reason[:300]


def _start(warrior: Warrior, actor, reason: str) -> tuple[Warband, str, Warrior]:
    """The warband locked for ``actor``, the reason cleaned and the warrior locked afresh."""
    warband = applying.locked_for(actor, warrior.warband_id)
    reason = _reason(reason)
    found = applying.locked_warrior(warband, warrior.pk)
    if found is None:
        raise RuleViolation(f"{warrior.name} is no longer on the roster: reload the page.")
    return warband, reason, found


def _check_new_request(correction: Correction) -> None:
    """A request the organisers have not got already, and room for it."""
    waiting = Correction.objects.pending().filter(warband=correction.warband)
    if waiting.count() >= MAX_PENDING:
        raise RuleViolation(
            f"{MAX_PENDING} requests of {correction.warband.name} wait for the organisers "
            "already: withdraw one, or wait for their answer."
        )
    same = waiting.filter(
        warrior=correction.warrior, kind=correction.kind, characteristic=correction.characteristic,
        value=correction.value, item=correction.item, skill=correction.skill,
        spell=correction.spell, injury=correction.injury, injury_name=correction.injury_name,
    ).select_related("actor").first()  # fmt: skip
    if same is not None:
        raise RuleViolation(
            f"{same.actor.username} asked for this on {same.created_at:%d %b %Y}: it waits for "
            "an organiser. Nothing new was asked."
        )


def submit(
    correction: Correction, warband: Warband, warrior: Warrior, *, actor, reason: str,
    gives: bool = True,
) -> Correction:  # fmt: skip
    """Record ``correction`` (unsaved; the change of a kind that takes away made already) and
    apply it or leave it waiting, as this module's docstring says."""
    # The roster; the campaign's pages: a warrior's experience, the organisers' dashboards.
    cache.changed(campaign=warband.campaign_id, warband=warband)
    correction.warband, correction.warrior, correction.warrior_name = warband, warrior, warrior.name
    correction.actor, correction.reason = actor, reason
    correction.what = correction.what[:100]
    correction.old_value, correction.new_value = (
        str(correction.old_value)[:200],
        str(correction.new_value)[:200],
    )
    if gives:
        correction.breaks = breaches.of(correction, warrior)[:200]
        if not permissions.approves_corrections(actor, warband):
            _check_new_request(correction)
            correction.status = Correction.Status.PENDING
            correction.save()
            notices.notify(
                [pk for pk in permissions.correction_approvers(warband) if pk != actor.pk],
                kind="correction",
                campaign=warband.campaign.name,
                url=reverse("warband_corrections", args=[warband.pk]),
            )
            return correction
        correction.announced = permissions.has_stake(actor, warband)
        correction.decided_by, correction.decided_at = actor, timezone.now()
    correction.status = Correction.Status.APPLIED
    correction.save()
    if gives:  # read under the same locks: it cannot have lapsed
        applying.apply(correction, warrior)
    applying.tell_feed(correction, warband, actor=actor)
    return correction


@transaction.atomic
def set_experience(warrior: Warrior, *, actor, experience: int, reason: str) -> Correction:
    """Set the warrior's experience (advances are not rolled: take them by hand too)."""
    warband, reason, warrior = _start(warrior, actor, reason)
    if not 0 <= experience <= MAX_EXPERIENCE:
        raise RuleViolation(f"Experience runs from 0 to {MAX_EXPERIENCE}.")
    old = warrior.experience
    if old == experience:
        raise RuleViolation(f"{warrior.name} has {old} experience already: nothing changed.")
    change = Correction(kind=Kind.EXPERIENCE, what="Experience", old_value=old,
                        new_value=experience, value=experience, before=old)  # fmt: skip
    return submit(change, warband, warrior, actor=actor, reason=reason)


@transaction.atomic
def set_characteristic(
    warrior: Warrior, *, actor, characteristic: str, value: int, reason: str
) -> Correction:
    """Set one characteristic of the warrior's profile (M WS BS S T W I A Ld), whatever his
    racial maximum (a value above it is said, ``breaches``). Lowered, it applies at once."""
    if characteristic not in rules.CHARACTERISTICS:
        raise RuleViolation("Choose one of M, WS, BS, S, T, W, I, A and Ld.")
    warband, reason, warrior = _start(warrior, actor, reason)
    if not 0 <= value <= MAX_CHARACTERISTIC:
        raise RuleViolation(f"A characteristic runs from 0 to {MAX_CHARACTERISTIC}.")
    old = getattr(warrior, characteristic)
    if old == value:
        raise RuleViolation(
            f"{possessive(warrior.name)} {characteristic} is {old} already: nothing changed."
        )
    what = f"{rules.CHARACTERISTIC_NAMES[characteristic]} ({characteristic})"
    change = Correction(kind=Kind.CHARACTERISTIC, what=what, old_value=old, new_value=value,
                        characteristic=characteristic, value=value, before=old)  # fmt: skip
    if value < old:
        setattr(warrior, characteristic, value)
        warrior.save(update_fields=[characteristic])
    return submit(change, warband, warrior, actor=actor, reason=reason, gives=value > old)


@transaction.atomic
def add_injury(warrior: Warrior, *, actor, name: str, effect: str = "", reason: str) -> Correction:
    """Write a lasting injury on the warrior (its effect on the profile is not applied:
    correct the characteristic too, if it has one)."""
    warband, reason, warrior = _start(warrior, actor, reason)
    name, effect = " ".join(name.split())[:100], " ".join(effect.split())[:200]
    if not name:
        raise RuleViolation("Name the injury.")
    shown = f"{name} ({effect})" if effect else name
    written = Injury.objects.filter(warrior=warrior, name=name).count()
    change = Correction(kind=Kind.INJURY_ADDED, what="Injury", new_value=shown,
                        injury_name=name, injury_effect=effect, before=written)  # fmt: skip
    return submit(change, warband, warrior, actor=actor, reason=reason)


@transaction.atomic
def remove_injury(injury: Injury, *, actor, reason: str) -> Correction:
    """Take an injury off the warrior: it heals him, so it waits for an organiser."""
    warband = applying.locked_for(actor, injury.warrior.warband_id)
    reason = _reason(reason)
    injury = applying.locked_row(
        Injury, injury, warband, f"{injury.name} is no longer written down"
    )
    shown = f"{injury.name} ({injury.effect})" if injury.effect else injury.name
    change = Correction(kind=Kind.INJURY_REMOVED, what="Injury", old_value=shown, injury=injury)
    return submit(change, warband, injury.warrior, actor=actor, reason=reason)


@transaction.atomic
def add_skill(warrior: Warrior, *, actor, skill: Skill, reason: str) -> Correction:
    warband, reason, warrior = _start(warrior, actor, reason)
    if WarriorSkill.objects.filter(warrior=warrior, skill=skill).exists():
        raise RuleViolation(f"{warrior.name} knows {skill.name} already: nothing changed.")
    change = Correction(kind=Kind.SKILL_ADDED, what="Skill", new_value=skill.name, skill=skill)
    return submit(change, warband, warrior, actor=actor, reason=reason)


@transaction.atomic
def remove_skill(known: WarriorSkill, *, actor, reason: str) -> Correction:
    """Take a skill away: at once (the warrior loses it, and no advance comes back)."""
    warband = applying.locked_for(actor, known.warrior.warband_id)
    reason = _reason(reason)
    known = applying.locked_row(WarriorSkill, known, warband, "That skill is no longer known")
    skill = known.skill
    known.delete()
    change = Correction(kind=Kind.SKILL_REMOVED, what="Skill", old_value=skill.name, skill=skill)
    return submit(change, warband, known.warrior, actor=actor, reason=reason, gives=False)


@transaction.atomic
def add_spell(warrior: Warrior, *, actor, spell: Spell, reason: str) -> Correction:
    warband, reason, warrior = _start(warrior, actor, reason)
    if WarriorSpell.objects.filter(warrior=warrior, spell=spell).exists():
        raise RuleViolation(f"{warrior.name} knows {spell.name} already: nothing changed.")
    change = Correction(kind=Kind.SPELL_ADDED, what="Spell", new_value=spell.name, spell=spell)
    return submit(change, warband, warrior, actor=actor, reason=reason)


@transaction.atomic
def remove_spell(known: WarriorSpell, *, actor, reason: str) -> Correction:
    """Take a spell away: at once (the warrior loses it)."""
    warband = applying.locked_for(actor, known.warrior.warband_id)
    reason = _reason(reason)
    known = applying.locked_row(WarriorSpell, known, warband, "That spell is no longer known")
    spell = known.spell
    known.delete()
    change = Correction(kind=Kind.SPELL_REMOVED, what="Spell", old_value=spell.name, spell=spell)
    return submit(change, warband, known.warrior, actor=actor, reason=reason, gives=False)


@transaction.atomic
def add_item(warrior: Warrior, *, actor, item: Item, reason: str) -> Correction:
    """Give the warrior an item (each model of a henchman group), free: nothing is paid from
    the treasury, the item names this correction (``WarriorItem.correction``) and fetches
    nothing when sold."""
    warband, reason, warrior = _start(warrior, actor, reason)
    carried = WarriorItem.objects.filter(warrior=warrior, item=item).count()
    change = Correction(kind=Kind.ITEM_ADDED, what="Equipment", new_value=item.name, item=item,
                        before=carried)  # fmt: skip
    return submit(change, warband, warrior, actor=actor, reason=reason)


@transaction.atomic
def remove_item(owned: WarriorItem, *, actor, reason: str) -> Correction:
    """Take an item off the warrior: at once, and it is gone (not stored, not sold, nothing
    refunded)."""
    warband = applying.locked_for(actor, owned.warrior.warband_id)
    reason = _reason(reason)
    owned = applying.locked_row(WarriorItem, owned, warband, "That item is no longer carried")
    item = owned.item
    owned.delete()
    change = Correction(kind=Kind.ITEM_REMOVED, what="Equipment", old_value=item.name, item=item)
    return submit(change, warband, owned.warrior, actor=actor, reason=reason, gives=False)
