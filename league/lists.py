"""A campaign's long lists, each on pages of its own: the whole league table, every battle and
every member. The campaign's page shows a bounded part of each (``league.views``) and links
here, so that it weighs the same for a league of 40 warbands as for one of 400.

Every page is read lazily and cached under the campaign's version (``campaign.cache``),
like the campaign's page; a page number past the end shows the last page.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, partial

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from battles.models import Battle
from campaign.models import Campaign
from campaign.permissions import get_campaign_for_user
from campaign.standings import describe
from league.awards import awards, richest_hidden
from league.standings import COLUMNS, DEFAULT_SORT, league_table

TABLE_TOP = 20  # warbands of the league table on the campaign's page
TABLE_PAGE = 25  # warbands on a page of the league table
BATTLES_PAGE = 20
MEMBERS_PAGE = 50
LAST_PAGE = 100_000  # a bigger number is read as this one (no page query runs past it)


def page_number(request: HttpRequest) -> int:
    """The ``page`` asked for, 1 when it is missing or not a number."""
    try:
        return min(max(1, int(request.GET.get("page", 1))), LAST_PAGE)
    except (TypeError, ValueError):
        return 1


def sorting(request: HttpRequest) -> tuple[str, str]:
    """The league table's column and direction asked for, else its defaults."""
    sort, direction = request.GET.get("sort", ""), request.GET.get("dir", "")
    sort = sort if sort in COLUMNS else DEFAULT_SORT
    direction = direction if direction in ("asc", "desc") else COLUMNS[sort][1]
    return sort, direction


@dataclass(frozen=True)
class TableTop:
    rows: list  # the first TABLE_TOP rows of the league table, as sorted
    total: int  # warbands in the whole table

    @property
    def more(self) -> bool:
        return self.total > len(self.rows)


def table_top(campaign: Campaign, *, sort: str, direction: str) -> TableTop:
    """The head of the league table, for the campaign's page."""
    rows = league_table(campaign, sort=sort, direction=direction)
    return TableTop(rows[:TABLE_TOP], len(rows))


class TablePage:
    """What the league table's page shows, each read only when drawn (its fragments are
    cached under the campaign's version) and at most once: the whole table (the ranks are
    the whole league's: page 2 starts at the 26th warband, not at 1), the page asked for
    and the awards."""

    def __init__(self, campaign: Campaign, *, sort: str, direction: str, number: int) -> None:
        self.campaign, self.sort, self.direction, self.number = campaign, sort, direction, number

    @property
    def rules_line(self) -> str:
        return describe(self.campaign)

    @cached_property
    def rows(self) -> list:
        return league_table(self.campaign, sort=self.sort, direction=self.direction)

    @cached_property
    def page(self):
        return Paginator(self.rows, TABLE_PAGE).get_page(self.number)

    @cached_property
    def awards(self) -> list:
        return awards(self.campaign, self.rows)

    @property
    def richest_hidden(self) -> bool:
        return richest_hidden(self.campaign)


@require_GET
def campaign_table(request: HttpRequest, pk: int) -> HttpResponse:
    """The whole league table in the campaign's ranking (or sorted by any column),
    ``TABLE_PAGE`` warbands a page, with the rules that rank it and the campaign's awards."""
    campaign = get_campaign_for_user(request, pk)
    sort, direction = sorting(request)
    number = page_number(request)
    context = {
        "campaign": campaign,
        "columns": COLUMNS,
        "sort": sort,
        "direction": direction,
        "number": number,
        "table": TablePage(campaign, sort=sort, direction=direction, number=number),
    }
    if request.htmx and request.htmx.target == "league-table":
        return render(request, "league/campaign_table.html#league-table", context)
    return render(request, "league/campaign_table.html", context)


def _battles_page(campaign: Campaign, number: int):
    battles = (
        Battle.objects.in_campaign(campaign)
        .prefetch_related("participants__warband")
        .order_by("-fought_on", "-pk")
    )
    return Paginator(battles, BATTLES_PAGE).get_page(number)


def _paged(request: HttpRequest, pk: int, template: str, name: str, page_of) -> HttpResponse:
    """``template`` with ``name``: the page asked for of ``page_of(campaign, number)``,
    read only if the template draws it (not when its fragment is cached)."""
    campaign = get_campaign_for_user(request, pk)
    number = page_number(request)
    context = {"campaign": campaign, "number": number, name: partial(page_of, campaign, number)}
    return render(request, template, context)


@require_GET
def campaign_battles(request: HttpRequest, pk: int) -> HttpResponse:
    """Every battle of the campaign, newest first, ``BATTLES_PAGE`` a page."""
    return _paged(request, pk, "league/campaign_battles.html", "battles_page", _battles_page)


def _members_page(campaign: Campaign, number: int):
    members = (
        campaign.memberships.active()
        .select_related("user")
        .order_by("-is_organiser", "joined_at", "pk")
    )
    return Paginator(members, MEMBERS_PAGE).get_page(number)


@require_GET
def campaign_members(request: HttpRequest, pk: int) -> HttpResponse:
    """Every member of the campaign, organisers first, then in the order they joined."""
    return _paged(request, pk, "league/campaign_members.html", "members_page", _members_page)
