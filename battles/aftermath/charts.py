"""The charts at hand (``battles.rules.at_hand``) drawn beside the rolls they decide: one
template per chart, fed from the tables the engine reads. Loaded as ``{% load charts_at_hand %}``
(``TEMPLATES``' ``libraries`` in the settings)."""

from __future__ import annotations

from django import template

from battles.rules import at_hand

register = template.Library()


@register.inclusion_tag("battles/charts/_serious_injuries.html")
def serious_injuries_chart(open_: bool = False) -> dict:
    return {"chart": at_hand.serious_injuries(), "open": open_}


@register.inclusion_tag("battles/charts/_hero_advances.html")
def hero_advances_chart(open_: bool = False) -> dict:
    return {"chart": at_hand.hero_advances(), "open": open_}


@register.inclusion_tag("battles/charts/_henchman_advances.html")
def henchman_advances_chart(open_: bool = False) -> dict:
    return {"chart": at_hand.henchman_advances(), "open": open_}


@register.inclusion_tag("battles/charts/_exploration.html")
def exploration_chart(open_: bool = False) -> dict:
    return {
        "shards": at_hand.shards(),
        "multiples": at_hand.multiples(),
        "places": at_hand.places(),
        "sizes": list(at_hand.MULTIPLES.values()),
        "open": open_,
    }
