"""What a join code invites to, told before joining, so nobody joins a campaign blind.

A join link (``join_link``) names its campaign, its organisers and the first line of its
description wherever the visitor meets it: on the join page, and on the log-in and sign-up
pages that a logged-out visitor passes through with the link in ``next``. A code that does not
let anybody in says why, in the same words as ``services.join_campaign``'s refusal.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from django.urls import Resolver404, resolve

from campaign.models import Campaign, Membership

UNKNOWN_CODE = (
    "No campaign has that join code. An organiser may have replaced it with a new one: "
    "check it with your organiser."
)


def refusal(campaign: Campaign | None, *, removed: bool = False) -> str:
    """Why a join code lets nobody in ("" when it lets new players in). ``removed``: the
    user was a member until an organiser removed him."""
    if campaign is None:
        return UNKNOWN_CODE
    if removed:
        return f"An organiser removed you from {campaign.name}."
    if not campaign.is_open:
        return f"{campaign.name} is closed: it takes no new players."
    if not campaign.joining_open:
        return f"{campaign.name} is not taking new players at the moment."
    return ""


@dataclass(frozen=True)
class Invitation:
    """A join code as a visitor sees it: the campaign (None for an unknown code), who
    organises it, the first line of its description, and why it lets nobody in ("" when it
    does)."""

    code: str
    campaign: Campaign | None
    organisers: tuple[str, ...]
    summary: str
    refusal: str
    is_member: bool = False


def invitation(code: str, *, user=None) -> Invitation:
    """The invitation of a join code (typed in any case, with stray spaces), as ``user`` (when
    given and logged in) sees it: already in the campaign, removed from it, or neither."""
    code = code.strip().upper()
    campaign = Campaign.objects.filter(join_code=code).first() if code else None
    if campaign is None:
        return Invitation(code, None, (), "", refusal(None))
    mine = None
    if user is not None and user.is_authenticated:
        mine = Membership.objects.filter(campaign=campaign, user=user).first()
    organisers = tuple(
        Membership.objects.organisers()
        .filter(campaign=campaign)
        .order_by("joined_at")
        .values_list("user__username", flat=True)
    )
    lines = [line.strip() for line in campaign.description.splitlines() if line.strip()]
    is_member = mine is not None and mine.is_active
    refused = "" if is_member else refusal(campaign, removed=mine is not None)
    return Invitation(code, campaign, organisers, lines[0] if lines else "", refused, is_member)


def invitation_in(next_url: str) -> Invitation | None:
    """The invitation of the join link a log-in or sign-up page will go on to (its ``next``),
    or None when ``next`` leads anywhere else."""
    if not next_url:
        return None
    try:
        match = resolve(urlsplit(next_url).path)
    except Resolver404:
        return None
    if match.url_name != "join_link":
        return None
    return invitation(match.kwargs["code"])
