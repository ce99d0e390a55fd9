"""Corrections by hand: the warband's owner or an organiser changes a roster outside the rules.

When the table and the app disagree (a roll typed wrong long ago, an organiser's ruling, a
skill forgotten), the roster is put right here, and nothing of the rules is checked: a
characteristic may pass its racial maximum, experience need not match the advances taken
(the roster keeps no count of advances: experience stands for them). Each function makes
one change and writes a ``Correction`` saying who, when, what changed from what to what,
and why, and one line in the campaign feed ("organiser corrected Reavers by hand") that
names no value.

The treasury never moves here: an item added to a warrior costs nothing and one taken away
refunds nothing (gold, wyrdstone and stored items are corrected through their own ledger).
So the record holds no secret, and the owner and every organiser may read it.

Each function locks the warband's row (``select_for_update``) and reads the warrior or the
row it changes again under that lock, so that two tabs correcting at once apply in turn: a
row the first removed is refused to the second, and a value set to what it already is
records nothing.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Q

from campaign.models import CampaignEvent
from campaign.permissions import can_run_campaign, is_organiser
from campaign.services import record_event
from core.queries import one
from warbands import rules
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
from warbands.rules import RuleViolation

Kind = Correction.Kind
MAX_EXPERIENCE = 999  # far beyond any track: a sanity bound, not a rule
MAX_CHARACTERISTIC = 10

# --- Who may -------------------------------------------------------------------------------


def can_read_corrections(user, warband: Warband) -> bool:
    """The warband's owner and the campaign's organisers read its corrections (opponents do
    not: a correction is a matter between a player and the organisers)."""
    if not user.is_authenticated:
        return False
    return warband.owner_id == user.pk or is_organiser(user, warband.campaign)


def can_correct(user, warband: Warband) -> bool:
    """The owner or an organiser corrects an active warband while the campaign is open (a
    warband being mustered is changed on its muster board, with its purse)."""
    if not (user.is_authenticated and warband.status == Warband.Status.ACTIVE):
        return False
    if warband.owner_id == user.pk:
        return warband.campaign.is_open
    return can_run_campaign(user, warband.campaign)


# --- Reads for the page --------------------------------------------------------------------


def warriors_of(warband: Warband):
    """The warriors a correction may name (those on the roster), with their items, skills,
    spells and injuries, in a fixed number of queries."""
    return warband.warriors.on_roster().for_roster_page()


def skills_for(warband: Warband):
    """The skills of the core lists and of the warband's own lists."""
    own = Q(skill_list__warband_type__isnull=True) | Q(
        skill_list__warband_type_id=warband.warband_type_id
    )
    return Skill.objects.filter(own).select_related("skill_list").order_by("skill_list", "name")


def spells_for(warband: Warband):
    return Spell.objects.select_related("spell_list").order_by("spell_list__name", "d6")


def items_for(warband: Warband):
    return Item.objects.order_by("category", "name")


def history(warband: Warband):
    """The warband's corrections, newest first."""
    return Correction.objects.of_warband(warband)


# --- Corrections ---------------------------------------------------------------------------


def _locked(warband_id: int, actor) -> Warband:
    """The warband's row, locked and read afresh, once ``actor`` may correct it."""
    locked = (
        Warband.objects.select_for_update(of=("self",), no_key=True)
        .select_related("campaign")
        .get(pk=warband_id)
    )
    if not can_read_corrections(actor, locked):
        raise PermissionDenied("Only the warband's owner or an organiser corrects it.")
    if not locked.campaign.is_open:
        raise PermissionDenied("The campaign is closed: nothing in it can change.")
    if locked.status == Warband.Status.DRAFT:
        raise RuleViolation("The warband is still being mustered: change it on its muster board.")
    if not can_correct(actor, locked):
        raise RuleViolation(f"{locked.name} no longer plays: it cannot be corrected.")
    return locked


def _warrior(warband: Warband, warrior: Warrior) -> Warrior:
    """The warrior's row, locked and read afresh: still on the warband's roster."""
    found = one(
        Warrior.objects.select_for_update(no_key=True).filter(
            pk=warrior.pk, warband=warband, status__in=Warrior.ON_ROSTER
        )
    )
    if found is None:
        raise RuleViolation(f"{warrior.name} is no longer on the roster: reload the page.")
    return found


def _row(model, row, warband: Warband, gone: str):
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


def _reason(reason: str) -> str:
    reason = " ".join(reason.split())
    if not reason:
        raise RuleViolation("Say why: every correction is recorded with its reason.")
    return reason[:300]


def _record(warband, warrior, *, actor, kind, what: str, old="", new="", reason: str):
    """The record of one correction, and its line in the feed (no value in it: the record
    is for the owner and the organisers)."""
    correction = Correction.objects.create(
        warband=warband,
        warrior=warrior,
        warrior_name=warrior.name,
        actor=actor,
        kind=kind,
        what=what[:100],
        old_value=str(old)[:200],
        new_value=str(new)[:200],
        reason=reason,
    )
    record_event(
        warband.campaign,
        CampaignEvent.Kind.CAMPAIGN,
        f"{actor.username} corrected {warband.name} by hand "
        f"({warrior.name}: {kind.label.lower()}).",
        warband=warband,
    )
    return correction


@transaction.atomic
def set_experience(warrior: Warrior, *, actor, experience: int, reason: str) -> Correction:
    """Set the warrior's experience (advances are not rolled: take them by hand too)."""
    warband = _locked(warrior.warband_id, actor)
    reason = _reason(reason)
    warrior = _warrior(warband, warrior)
    if not 0 <= experience <= MAX_EXPERIENCE:
        raise RuleViolation(f"Experience runs from 0 to {MAX_EXPERIENCE}.")
    old = warrior.experience
    if old == experience:
        raise RuleViolation(f"{warrior.name} has {old} experience already: nothing changed.")
    warrior.experience = experience
    warrior.save(update_fields=["experience"])
    return _record(warband, warrior, actor=actor, kind=Kind.EXPERIENCE, what="Experience",
                   old=old, new=experience, reason=reason)  # fmt: skip


@transaction.atomic
def set_characteristic(
    warrior: Warrior, *, actor, characteristic: str, value: int, reason: str
) -> Correction:
    """Set one characteristic of the warrior's profile (M WS BS S T W I A Ld), whatever his
    racial maximum."""
    warband = _locked(warrior.warband_id, actor)
    reason = _reason(reason)
    if characteristic not in rules.CHARACTERISTICS:
        raise RuleViolation("Choose one of M, WS, BS, S, T, W, I, A and Ld.")
    if not 0 <= value <= MAX_CHARACTERISTIC:
        raise RuleViolation(f"A characteristic runs from 0 to {MAX_CHARACTERISTIC}.")
    warrior = _warrior(warband, warrior)
    old = getattr(warrior, characteristic)
    if old == value:
        raise RuleViolation(f"{warrior.name}'s {characteristic} is {old} already: nothing changed.")
    setattr(warrior, characteristic, value)
    warrior.save(update_fields=[characteristic])
    what = f"{rules.CHARACTERISTIC_NAMES[characteristic]} ({characteristic})"
    return _record(warband, warrior, actor=actor, kind=Kind.CHARACTERISTIC, what=what,
                   old=old, new=value, reason=reason)  # fmt: skip


@transaction.atomic
def add_injury(warrior: Warrior, *, actor, name: str, effect: str = "", reason: str) -> Correction:
    """Write a lasting injury on the warrior (its effect on the profile is not applied:
    correct the characteristic too, if it has one)."""
    warband = _locked(warrior.warband_id, actor)
    reason = _reason(reason)
    name, effect = " ".join(name.split())[:100], " ".join(effect.split())[:200]
    if not name:
        raise RuleViolation("Name the injury.")
    warrior = _warrior(warband, warrior)
    Injury.objects.create(warrior=warrior, name=name, effect=effect)
    shown = f"{name} ({effect})" if effect else name
    return _record(warband, warrior, actor=actor, kind=Kind.INJURY_ADDED, what="Injury",
                   new=shown, reason=reason)  # fmt: skip


@transaction.atomic
def remove_injury(injury: Injury, *, actor, reason: str) -> Correction:
    warband = _locked(injury.warrior.warband_id, actor)
    reason = _reason(reason)
    injury = _row(Injury, injury, warband, f"{injury.name} is no longer written down")
    injury.delete()
    shown = f"{injury.name} ({injury.effect})" if injury.effect else injury.name
    return _record(warband, injury.warrior, actor=actor, kind=Kind.INJURY_REMOVED,
                   what="Injury", old=shown, reason=reason)  # fmt: skip


@transaction.atomic
def add_skill(warrior: Warrior, *, actor, skill: Skill, reason: str) -> Correction:
    warband = _locked(warrior.warband_id, actor)
    reason = _reason(reason)
    warrior = _warrior(warband, warrior)
    if WarriorSkill.objects.filter(warrior=warrior, skill=skill).exists():
        raise RuleViolation(f"{warrior.name} knows {skill.name} already: nothing changed.")
    WarriorSkill.objects.create(warrior=warrior, skill=skill)
    return _record(warband, warrior, actor=actor, kind=Kind.SKILL_ADDED, what="Skill",
                   new=skill.name, reason=reason)  # fmt: skip


@transaction.atomic
def remove_skill(known: WarriorSkill, *, actor, reason: str) -> Correction:
    warband = _locked(known.warrior.warband_id, actor)
    reason = _reason(reason)
    known = _row(WarriorSkill, known, warband, "That skill is no longer known")
    name = known.skill.name
    known.delete()
    return _record(warband, known.warrior, actor=actor, kind=Kind.SKILL_REMOVED, what="Skill",
                   old=name, reason=reason)  # fmt: skip


@transaction.atomic
def add_spell(warrior: Warrior, *, actor, spell: Spell, reason: str) -> Correction:
    warband = _locked(warrior.warband_id, actor)
    reason = _reason(reason)
    warrior = _warrior(warband, warrior)
    if WarriorSpell.objects.filter(warrior=warrior, spell=spell).exists():
        raise RuleViolation(f"{warrior.name} knows {spell.name} already: nothing changed.")
    WarriorSpell.objects.create(warrior=warrior, spell=spell)
    return _record(warband, warrior, actor=actor, kind=Kind.SPELL_ADDED, what="Spell",
                   new=spell.name, reason=reason)  # fmt: skip


@transaction.atomic
def remove_spell(known: WarriorSpell, *, actor, reason: str) -> Correction:
    warband = _locked(known.warrior.warband_id, actor)
    reason = _reason(reason)
    known = _row(WarriorSpell, known, warband, "That spell is no longer known")
    name = known.spell.name
    known.delete()
    return _record(warband, known.warrior, actor=actor, kind=Kind.SPELL_REMOVED, what="Spell",
                   old=name, reason=reason)  # fmt: skip


@transaction.atomic
def add_item(warrior: Warrior, *, actor, item: Item, reason: str) -> Correction:
    """Give the warrior an item (each model of a henchman group), free: nothing is paid from
    the treasury, and its price paid is nought."""
    warband = _locked(warrior.warband_id, actor)
    reason = _reason(reason)
    warrior = _warrior(warband, warrior)
    WarriorItem.objects.create(warrior=warrior, item=item, price_paid=0)
    return _record(warband, warrior, actor=actor, kind=Kind.ITEM_ADDED, what="Equipment",
                   new=item.name, reason=reason)  # fmt: skip


@transaction.atomic
def remove_item(owned: WarriorItem, *, actor, reason: str) -> Correction:
    """Take an item off the warrior: it is gone, not stored and not sold (nothing refunded)."""
    warband = _locked(owned.warrior.warband_id, actor)
    reason = _reason(reason)
    owned = _row(WarriorItem, owned, warband, "That item is no longer carried")
    name = owned.item.name
    owned.delete()
    return _record(warband, owned.warrior, actor=actor, kind=Kind.ITEM_REMOVED, what="Equipment",
                   old=name, reason=reason)  # fmt: skip
