"""The player's and the organiser's guides: two pages of plain text that
anybody may read, logged in or not, so that a join link's visitor can learn what a join code
is before he has an account. Each section has a fixed id; the pages where a question arises
link to it (``/guide/#rout-order``), and tests/league/test_guides.py checks every such link."""

from __future__ import annotations

from django.contrib.auth.decorators import login_not_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from warbands import dramatis_personae, hired_swords


@login_not_required
@require_GET
def guide_player(request: HttpRequest) -> HttpResponse:
    """Joining, mustering, reporting, the battle helper, the post-battle steps, the treasury,
    what the organiser can and cannot do, the account, and the terms the report uses."""
    return render(request, "league/guide_player.html")


@login_not_required
@require_GET
def guide_organiser(request: HttpRequest) -> HttpResponse:
    """Starting a campaign, inviting players, its options, battles and corrections, and what
    an organiser can and cannot do to a player."""
    return render(request, "league/guide_organiser.html")


@login_not_required
@require_GET
def guide_hired_swords(request: HttpRequest) -> HttpResponse:
    """The hired swords and the dramatis personae of the catalogue: fee, upkeep, rating and
    who may hire each (the reference data, no warband's)."""
    return render(
        request,
        "league/guide_hired_swords.html",
        {"swords": list(hired_swords.catalogue()), "personae": list(dramatis_personae.personae())},
    )
