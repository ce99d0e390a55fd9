"""Closing one's own account.

The account's row is kept, deactivated and anonymised, rather than deleted: battles, ledgers,
the campaign feeds, captives and other players' reports name his warbands and him (who
reported, confirmed, rolled), and deleting him would take those away from the other players
or be refused by the database. So the row stays as a placeholder owner: its username becomes
"deleted-<n>", its password unusable, its e-mail address and names cleared, and it is no
longer active. Nothing of another player's is lost.

What becomes of his warbands:

- each that still plays (being mustered or active) in a running campaign is his to decide:
  handed to an organiser of that campaign (who then owns and plays it, and the feed says so)
  or retired (disbanded by ``league.services.disband_warbands``, the captives it held going
  home);
- every other (in a closed or archived campaign, or out of play already) stays as history,
  under the placeholder.

He may not leave a running campaign without an organiser: while he organises one alone, the
closing is refused and says what would work (an invitation to a co-organiser, or closing the
campaign). His memberships end, the invitations to co-organise addressed to his name are
withdrawn (his name is free again, and another who took it must not inherit them), and his
sessions end: this one is logged out by the view, and every other dies with the password,
since Django checks each session against a hash of it (and refuses an inactive account).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from campaign import cache
from campaign.models import Campaign, CampaignEvent, Membership, OrganiserInvitation
from campaign.services import record_event
from core.auth import CLOSED_PREFIX
from core.errors import RuleViolation
from core.models import FormToken, NoticePreference
from league.services import disband_warbands
from warbands.models import Warband

RETIRE = "retire"
HAND = "hand:"  # followed by the organiser's user id


@dataclass
class Plan:
    """What closing the account would do now: ``deciding``, the warbands whose fate he
    chooses (each with ``organisers``, those he may hand it to); ``kept``, the warbands that
    stay as history; ``blocking``, the running campaigns he organises alone."""

    deciding: list[Warband] = field(default_factory=list)
    kept: list[Warband] = field(default_factory=list)
    blocking: list[Campaign] = field(default_factory=list)
    campaigns: list[Campaign] = field(default_factory=list)  # those he is in now


def plan_for(user) -> Plan:
    """Read in four queries, whatever the number of his campaigns and warbands."""
    memberships = list(Membership.objects.active().filter(user=user).select_related("campaign"))
    organised = [m.campaign for m in memberships if m.is_organiser and m.campaign.is_open]
    others = Membership.objects.organisers().exclude(user=user)
    seconded = set(
        others.filter(campaign__in=organised).values_list("campaign", flat=True).distinct()
    )
    warbands = list(
        Warband.objects.filter(owner=user)
        .select_related("campaign", "warband_type")
        .order_by("campaign__name", "name", "pk")
    )
    plan = Plan(
        blocking=[c for c in organised if c.pk not in seconded],
        campaigns=[m.campaign for m in memberships],
    )
    for warband in warbands:
        playing = warband.status in (Warband.Status.DRAFT, Warband.Status.ACTIVE)
        (plan.deciding if playing and warband.campaign.is_open else plan.kept).append(warband)
    chosen = {w.campaign_id for w in plan.deciding}
    by_campaign: dict[int, list] = {}
    for membership in (
        others.filter(campaign__in=chosen).select_related("user").order_by("joined_at", "pk")
    ):
        by_campaign.setdefault(membership.campaign_id, []).append(membership.user)
    for warband in plan.deciding:
        warband.organisers = by_campaign.get(warband.campaign_id, [])
    return plan


def blocking_refusal(campaigns: list[Campaign]) -> str:
    names = ", ".join(c.name for c in campaigns)
    return (
        f"You are the only organiser of {names}, which is still running: invite a "
        "co-organiser on its settings page and, once he has accepted, close your account; or "
        "close the campaign first."
    )


def free_name(user) -> str:
    """The placeholder's name, "deleted-<id>", with a further number should somebody hold
    that name already."""
    User = get_user_model()
    name, n = f"{CLOSED_PREFIX}{user.pk}", 1
    while User.objects.filter(username__iexact=name).exclude(pk=user.pk).exists():
        n += 1
        name = f"{CLOSED_PREFIX}{user.pk}-{n}"
    return name


@transaction.atomic
def delete_account(user, *, choices: Mapping[int, str]) -> str:
    """Close ``user``'s account (the module's docstring says what that does). ``choices``:
    for each warband of ``plan_for(user).deciding``, by id, ``RETIRE`` or ``HAND`` and the id
    of an organiser of its campaign. Everything is read again under locks (the account, then
    the campaigns, the captives and the warbands, the order the other services keep): a
    second tab closes the account once, a warband mustered since the page was drawn or an
    organiser who stepped down meanwhile refuses the whole, nothing changed. Returns the
    name the account had."""
    User = get_user_model()
    account = User.objects.select_for_update().filter(pk=user.pk, is_active=True).first()
    if account is None:
        raise RuleViolation("This account is closed already.")
    name = account.username
    memberships = Membership.objects.filter(user=account).values_list("campaign", flat=True)
    owned = Warband.objects.filter(owner=account).values_list("campaign", flat=True)
    touched = set(memberships) | set(owned)
    list(Campaign.objects.select_for_update(no_key=True).filter(pk__in=touched).order_by("pk"))
    plan = plan_for(account)
    if plan.blocking:
        raise RuleViolation(blocking_refusal(plan.blocking))
    retired, handed = _decided(plan.deciding, choices)
    disband_warbands(retired, actor=account, why="was retired")
    for warband in retired:
        record_event(
            warband.campaign,
            CampaignEvent.Kind.CAMPAIGN,
            f"{warband.name} was retired: {name} closed his account.",
            warband=warband,
        )
    for warband, organiser in handed:
        _hand_over(warband, organiser, was=name)
    for campaign in plan.campaigns:
        if campaign.is_open:
            record_event(
                campaign, CampaignEvent.Kind.CAMPAIGN, f"{name} closed his account and left."
            )
    Membership.objects.filter(user=account, is_active=True).update(is_active=False)
    invited = OrganiserInvitation.objects.pending().filter(username__iexact=name)
    touched |= set(invited.values_list("campaign", flat=True))
    invited.update(
        status=OrganiserInvitation.Status.WITHDRAWN, answered_at=timezone.now(), answered_by=account
    )
    NoticePreference.objects.filter(user=account).delete()
    FormToken.objects.filter(user=account).delete()  # the answers kept hold his pages
    _anonymise(account)
    cache.changed(campaign=touched, throughout=True)  # his name is on every page of them
    return name


def _decided(deciding: list[Warband], choices: Mapping[int, str]):
    """The warbands to retire, and those to hand over with their new owner, as chosen;
    a warband without a choice, or an organiser who is no longer one, refuses the whole."""
    retired, handed = [], []
    for warband in deciding:
        choice = choices.get(warband.pk)
        if choice is None:
            raise RuleViolation(
                f"{warband.name} is new since this page was drawn: look again and choose what "
                "becomes of it."
            )
        if choice == RETIRE:
            retired.append(warband)
            continue
        organiser = next((u for u in warband.organisers if f"{HAND}{u.pk}" == choice), None)
        if organiser is None:
            raise RuleViolation(
                f"The organiser you chose for {warband.name} no longer organises "
                f"{warband.campaign.name}: look again and choose."
            )
        handed.append((warband, organiser))
    return retired, handed


def _hand_over(warband: Warband, organiser, *, was: str) -> None:
    locked = Warband.objects.select_for_update(of=("self",), no_key=True).get(pk=warband.pk)
    if locked.owner_id != warband.owner_id or locked.status != warband.status:
        raise RuleViolation(f"{warband.name} changed meanwhile: look again and choose.")
    locked.owner = organiser
    locked.save(update_fields=["owner"])
    cache.changed(campaign=warband.campaign_id, warband=locked)
    record_event(
        warband.campaign,
        CampaignEvent.Kind.CAMPAIGN,
        f"{was} closed his account and handed {warband.name} to {organiser.username}, "
        "who organises the campaign.",
        warband=locked,
    )


def _anonymise(account) -> None:
    account.username = free_name(account)
    account.set_unusable_password()
    account.email = account.first_name = account.last_name = ""
    account.is_active = account.is_staff = account.is_superuser = False
    account.save()
    account.groups.clear()
    account.user_permissions.clear()
