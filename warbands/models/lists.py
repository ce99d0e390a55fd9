"""The warband lists as a player browses them to choose one: what each grade means, each
list's summary, and the reads of the new-warband page."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from django.db import models
from django.db.models import OuterRef, Subquery

# What each of the community's grades means for a player choosing a list, in our own words:
# the badge's tooltip and the note under each grade's heading (``WarbandType.Grade``).
GRADE_NOTES = {
    "1a": "An official list, allowed in nearly every campaign.",
    "1b": "Written outside the official set and tested in play by the community; ask your "
    "organiser whether the campaign allows it.",
    "1c": "An experimental list, still being tried out and perhaps unbalanced; ask your "
    "organiser before choosing it.",
}


SUMMARIES = Path(__file__).resolve().parent.parent / "data" / "list_summaries.json"


@cache
def summaries() -> dict[str, str]:
    return json.loads(SUMMARIES.read_text(encoding="utf-8"))


def list_summary(key: str) -> str:
    """What a list is and how it plays, in a sentence of our own, for a player choosing one
    (``warbands/data/list_summaries.json``, read once per process: text for the page, not
    rules, so it is kept beside the data rather than loaded into the database); "" for a list
    made in the admin, which has none."""
    return summaries().get(key, "")


class WarbandTypeQuerySet(models.QuerySet):
    def named_like(self, text: str) -> WarbandTypeQuerySet:
        """The lists whose name holds ``text``, whatever its case; every list for ""."""
        return self.filter(name__icontains=text) if text else self

    def with_leader(self) -> WarbandTypeQuerySet:
        """Each list with its leader's name and cost (``leader_name``, ``leader_cost``: the
        price of entry), in the same query however many lists there are."""
        warrior_type = self.model._meta.get_field("warrior_types").related_model
        leader = warrior_type.objects.filter(warband_type=OuterRef("pk"), is_leader=True)
        leader = leader.order_by("order", "pk")
        return self.annotate(
            leader_name=Subquery(leader.values("name")[:1]),
            leader_cost=Subquery(leader.values("cost")[:1]),
        )
