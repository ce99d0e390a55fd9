"""The rating history chart, drawn on the server as SVG (readable without JavaScript).

Pure geometry: series of (moment, rating) in, coordinates and labels out; the template
draws them. Colours are the Okabe-Ito palette, told apart by most colour-blind readers.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.html import escape
from django.utils.safestring import mark_safe

PALETTE = ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#999999")
WIDTH, HEIGHT = 640, 260
LEFT, RIGHT, TOP, BOTTOM = 44, 150, 12, 28


@dataclass(frozen=True)
class Series:
    name: str
    points: Sequence[tuple[datetime.datetime, int]]

    @property
    def ratings(self) -> str:
        """The ratings, oldest first, for the chart's table ("100 → 112 → 118")."""
        return " → ".join(str(rating) for _, rating in self.points)


@dataclass(frozen=True)
class Line:
    name: str
    colour: str
    points: str  # the polyline's "x,y x,y …"
    dots: tuple[tuple[float, float, int], ...]  # x, y and the rating, for markers and titles
    label_y: float

    @property
    def markers(self) -> str:
        """The dots as SVG circles with their titles, drawn here rather than by a template
        loop: a league of 40 warbands and 300 battles has some 600 of them. The name is
        escaped."""
        colour, name = escape(self.colour), escape(self.name)
        # Numbers, and the two strings escaped above.
        return mark_safe(
            "".join(
                f'<circle cx="{x}" cy="{y}" r="3.5" fill="{colour}">'
                f"<title>{name}: {int(value)}</title></circle>"
                for x, y, value in self.dots
            )
        )


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    lines: tuple[Line, ...]
    y_ticks: tuple[tuple[float, int], ...]
    x_ticks: tuple[tuple[float, str], ...]
    plot_left: int
    plot_right: int
    plot_top: int
    plot_bottom: int


def _nice_step(span: int) -> int:
    for step in (5, 10, 20, 25, 50, 100, 200, 250, 500):
        if span / step <= 6:
            return step
    return 1000


def rating_chart(series: Sequence[Series]) -> Chart | None:
    """None when there is nothing to draw. At most one line per colour of the palette: the
    warbands rated highest at their last point (more lines could not be told apart; the
    page's table lists every warband)."""
    drawn = [s for s in series if s.points]
    if not drawn:
        return None
    if len(drawn) > len(PALETTE):
        highest = sorted(drawn, key=lambda s: -max(s.points)[1])[: len(PALETTE)]
        drawn = [s for s in drawn if s in highest]
    moments = [moment for s in drawn for moment, _ in s.points]
    ratings = [rating for s in drawn for _, rating in s.points]
    start, end = min(moments), max(moments)
    span = (end - start).total_seconds() or 1.0
    low = min(ratings)
    step = _nice_step(max(max(ratings) - low, 1))
    low = (low // step) * step
    high = max(low + step, -(-max(ratings) // step) * step)
    plot_right, plot_bottom = WIDTH - RIGHT, HEIGHT - BOTTOM

    def x(moment: datetime.datetime) -> float:
        if end == start:
            return (LEFT + plot_right) / 2
        return round(LEFT + (moment - start).total_seconds() / span * (plot_right - LEFT), 1)

    def y(rating: int) -> float:
        return round(plot_bottom - (rating - low) / (high - low) * (plot_bottom - TOP), 1)

    lines = []
    for index, s in enumerate(drawn):
        ordered = sorted(s.points)
        dots = tuple((x(moment), y(rating), rating) for moment, rating in ordered)
        lines.append(
            Line(
                name=s.name,
                colour=PALETTE[index % len(PALETTE)],
                points=" ".join(f"{dx},{dy}" for dx, dy, _ in dots),
                dots=dots,
                label_y=dots[-1][1],
            )
        )
    _spread_labels(lines)
    y_ticks = tuple((y(value), value) for value in range(low, high + 1, step))
    x_ticks = ((float(LEFT), f"{start:%d %b}"),) + (
        ((float(plot_right), f"{end:%d %b}"),) if end.date() != start.date() else ()
    )
    return Chart(WIDTH, HEIGHT, tuple(lines), y_ticks, x_ticks, LEFT, plot_right, TOP, plot_bottom)


def _spread_labels(lines: list[Line], gap: float = 13.0) -> None:
    """Move the names at the right end apart so that they do not overlap."""
    order = sorted(range(len(lines)), key=lambda i: lines[i].label_y)
    previous = -gap
    for i in order:
        label_y = max(lines[i].label_y, previous + gap)
        lines[i] = Line(lines[i].name, lines[i].colour, lines[i].points, lines[i].dots, label_y)
        previous = label_y
