"""Naming the leader while mustering, for a list whose player chooses which hero leads (its
``leader`` roster rule, ``warbands.rules.leader``).

Only the owner names him, only while the warband is mustered, and under the warband's row lock
(as every muster service takes it): two tabs naming two heroes at once leave one leader, the
one named last, and a hero a second tab removed meanwhile is refused. Once mustering ends the
leader is ``Warrior.is_leader`` like any list's, and changes only by the rules of the game
(the death of the leader).
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction

from campaign import cache
from core.errors import RuleViolation
from warbands import permissions
from warbands.models import Warband, Warrior
from warbands.rules import leader as rules

__all__ = ["candidate_of", "leader_refusal", "name_leader"]


def candidate_of(warrior: Warrior) -> rules.Candidate:
    effects = {r.get("effect") for r in warrior.warrior_type.special_rules or [] if r}
    return rules.Candidate(
        name=warrior.name,
        type_key=warrior.warrior_type.key,
        is_hero=warrior.is_hero,
        hired_sword=warrior.hired_sword_id is not None,
        never_leader="never_leader" in effects,
    )


def leader_refusal(warband: Warband, warrior: Warrior) -> str | None:
    """Why ``warrior`` cannot be named the leader of ``warband`` (None: he can), for the muster
    board's control; ``None`` as well for the leader himself."""
    if warrior.is_leader:
        return None
    try:
        rules.check_leader_choice(warband.warband_type.limits.leader_from, candidate_of(warrior))
    except RuleViolation as refusal:
        return str(refusal)
    return None


@transaction.atomic
def name_leader(warrior: Warrior, *, actor) -> Warrior:
    """Make ``warrior`` the warband's leader while it is mustered; whoever led before no
    longer does. Refused (``RuleViolation``, nothing changed) for a list whose leader is its
    leader type, a warrior who may not lead, one no longer in the warband, the leader himself,
    or a warband whose mustering is over."""
    warband = (
        Warband.objects.select_for_update(of=("self",), no_key=True)
        .select_related("warband_type")
        .get(pk=warrior.warband_id)
    )
    if not permissions.can_edit_warband(actor, warband):
        raise PermissionDenied("Only the warband's owner may change it.")
    if not warband.is_draft:
        raise RuleViolation("Mustering is over: the leader changes only when he is lost.")
    found = warband.warriors.on_roster().select_related("warrior_type").filter(pk=warrior.pk)
    warrior = found.first()
    if warrior is None:
        raise RuleViolation("That warrior is no longer in the warband: reload the page.")
    rules.check_leader_choice(warband.warband_type.limits.leader_from, candidate_of(warrior))
    if warrior.is_leader:
        raise RuleViolation(f"{warrior.name} already leads the warband.")
    # The old leader first: the database allows one leader per warband at any moment.
    warband.warriors.filter(is_leader=True).update(is_leader=False)
    warrior.is_leader = True
    warrior.save(update_fields=["is_leader"])
    cache.changed(campaign=warband.campaign_id, warband=warband)
    return warrior
