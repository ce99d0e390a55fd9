"""What a warband's printout (``warbands.print_views``) carries from battles under "Rules at
hand": the scenario's rules while one of its battles waits (being played, reported or
disputed), which the table needs during the game; and, when the player asks for them, the
serious injuries chart and the advance tables, open on a sheet of their own (they decide the
rolls after a game, which the post-battle sequence makes with the same charts beside each
roll, so the roster itself still fits two pages). ``battles.apps`` adds it to the printout
when the app starts."""

from __future__ import annotations

from django.template.loader import render_to_string
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from battles.aftermath import charts as charts_at_hand
from battles.models import Battle

CHARTS = (
    ("battles/charts/_serious_injuries.html", charts_at_hand.serious_injuries_chart),
    ("battles/charts/_hero_advances.html", charts_at_hand.hero_advances_chart),
    ("battles/charts/_henchman_advances.html", charts_at_hand.henchman_advances_chart),
)


def rules_at_hand(warband, *, charts: bool = False) -> list[str]:
    """The parts to print, drawn (one query: the warband's latest battle still waiting);
    ``charts``: the post-battle charts too, after a page break."""
    parts = []
    if charts:
        drawn = "".join(render_to_string(template, chart(open_=True)) for template, chart in CHARTS)
        parts.append(format_html('<div class="charts-sheet">{}</div>', mark_safe(drawn)))
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
