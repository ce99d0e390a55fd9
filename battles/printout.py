"""What a warband's printout (``warbands.print_views``) carries from battles under "Rules at
hand": the serious injuries chart and the advance tables always, open on the sheet (they decide
the rolls after every game), and the scenario's rules while one of its battles waits (being
played, reported or disputed). ``battles.apps`` adds it to the printout when the app starts."""

from __future__ import annotations

from django.template.loader import render_to_string

from battles.models import Battle
from battles.templatetags import charts_at_hand

CHARTS = (
    ("battles/charts/_serious_injuries.html", charts_at_hand.serious_injuries_chart),
    ("battles/charts/_hero_advances.html", charts_at_hand.hero_advances_chart),
    ("battles/charts/_henchman_advances.html", charts_at_hand.henchman_advances_chart),
)


def rules_at_hand(warband) -> list[str]:
    """The parts to print, drawn (one query: the warband's latest battle still waiting)."""
    parts = [render_to_string(template, chart(open_=True)) for template, chart in CHARTS]
    waiting = (
        Battle.objects.filter(participants__warband=warband)
        .exclude(status=Battle.Status.CONFIRMED)
        .order_by("-fought_on", "-pk")
        .first()
    )
    if waiting is not None:
        parts.append(
            render_to_string("battles/_scenario_rules.html", {"battle": waiting, "open": True})
        )
    return parts
