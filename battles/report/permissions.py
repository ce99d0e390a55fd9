"""Who may do what with a battle's report: record it (an organiser), report it (one of its
players), change it (whoever reported it, or an organiser, until it is confirmed), confirm
or dispute it (its players), enter a side (its player, or an organiser for him) and test a
random fortune marker (the warband that reached it). An organiser acts for the players only
in a battle he did not fight in (``battles.permissions.acts_for_players``)."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied

from battles.models import Battle, Participant
from battles.permissions import FOUGHT, acts_for_players, check_for_players, check_open
from campaign.permissions import can_run_campaign, is_organiser
from core.words import possessive
from warbands.models import Warband

OWN_SIDE = "Each player enters his own warriors (or an organiser, for him)."


def may_edit(user, battle: Battle) -> bool:
    """Whoever reported the battle, or an organiser, changes it while it waits or is
    disputed."""
    return (
        battle.campaign.is_open
        and battle.status not in (Battle.Status.CONFIRMED, Battle.Status.PLAYING)
        and (battle.reported_by_id == user.pk or is_organiser(user, battle.campaign))
    )


def may_enter(user, battle: Battle, participant: Participant) -> bool:
    """The warband's player, or an organiser for him (``acts_for_players``: never one who
    fought in the battle), while the battle is not confirmed."""
    return (
        battle.campaign.is_open
        and battle.status not in (Battle.Status.CONFIRMED, Battle.Status.PLAYING)
        and (participant.warband.owner_id == user.pk or acts_for_players(user, battle))
    )


def may_test_for(user, battle: Battle, warband: Warband) -> bool:
    """The warband that reached a marker tests it: its owner, or an organiser for him (not
    one who fought in the battle: ``battles.permissions.acts_for_players``)."""
    return warband.owner_id == user.pk or acts_for_players(user, battle)


def check_corrects(user, battle: Battle) -> None:
    """A confirmed result is corrected by an organiser who did not fight in the battle; one
    still waiting or disputed by whoever may change it (``may_edit``)."""
    if battle.status == Battle.Status.CONFIRMED:
        check_for_players(user, battle, FOUGHT)
    elif not may_edit(user, battle):
        raise PermissionDenied("Only whoever reported the battle, or an organiser, changes it.")


def check_opens_side(user, battle: Battle, participant: Participant) -> None:
    if not may_enter(user, battle, participant):
        raise PermissionDenied(OWN_SIDE)


def check_records(actor, campaign) -> None:
    if not can_run_campaign(actor, campaign):
        raise PermissionDenied("Only the campaign's organisers record battles for others.")


def check_reports(actor, campaign, *, fought: bool) -> None:
    """A player reports a battle one of his warbands fought in (``fought``), an organiser
    any battle of his campaign."""
    check_open(campaign)
    if not fought and not is_organiser(actor, campaign):
        raise PermissionDenied("Report battles your own warband fought in.")


def check_edits(actor, battle: Battle) -> None:
    check_open(battle.campaign)
    if not (battle.reported_by_id == actor.pk or is_organiser(actor, battle.campaign)):
        raise PermissionDenied("Only whoever reported the battle, or an organiser, changes it.")


def check_responds(battle: Battle, mine: list[Participant]) -> None:
    """``mine``: the actor's warbands in the battle, which he confirms or disputes for."""
    check_open(battle.campaign)
    if not mine:
        raise PermissionDenied("Only the battle's participants confirm or dispute it.")


def check_enters(actor, battle: Battle, participant: Participant) -> None:
    check_open(battle.campaign)
    if not may_enter(actor, battle, participant):
        check_for_players(actor, battle, OWN_SIDE)
        raise PermissionDenied(OWN_SIDE)


def check_tests_for(actor, battle: Battle, warband: Warband) -> None:
    if not may_test_for(actor, battle, warband):
        raise PermissionDenied(
            f"{possessive(warband.name)} player (or an organiser) tests the markers its "
            "warriors reach."
        )
