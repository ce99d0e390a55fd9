"""A muster replayed from a recipe (``tests.muster_copies``, what ``mustered_warband`` gives
after its first) writes the rows the services write: the same warriors, items, containers,
ledger, rating and feed line, pointing to each other the same way."""

import pytest

from tests.factories import CampaignFactory, WarbandFactory, muster_through_services
from tests.muster_copies import WRITTEN, Recipe, rows_of
from warbands import treasury
from warbands.models import Warband

pytestmark = pytest.mark.django_db


def as_written(warband: Warband) -> dict:
    """The warband and its rows with what tells two musters apart taken out: primary keys
    (a pointer to a row of the muster becomes its model and place), the moments, the name,
    owner and campaign."""
    warband.refresh_from_db()
    rows = rows_of(warband)
    place = {(m, row["id"]): (m.__name__, i) for m in WRITTEN for i, row in enumerate(rows[m])}
    own = {("Warband", warband.pk): "warband", ("User", warband.owner_id): "owner",
           ("Campaign", warband.campaign_id): "campaign"}  # fmt: skip

    def plain(model, row):
        out = {}
        for field in model._meta.concrete_fields:
            value = row[field.attname]
            if field.primary_key or field.name in ("created_at", "taken_at"):
                continue
            if field.is_relation and value is not None:
                target = field.related_model
                value = (
                    place.get((target, value))
                    or own.get((target, value))
                    or own.get((target.__name__, value), value)
                )
            elif isinstance(value, str):
                value = value.replace(warband.name, "NAME")
            out[field.name] = value
        return out

    kept = {f.name: getattr(warband, f.attname) for f in Warband._meta.concrete_fields}
    for name in ("id", "version", "campaign", "owner", "name", "created_at"):
        kept.pop(name)
    return {"warband": kept, **{m.__name__: [plain(m, r) for r in rows[m]] for m in WRITTEN}}


def test_a_muster_replayed_writes_what_the_services_write(reference_data):
    campaign = CampaignFactory()
    first = muster_through_services(WarbandFactory(campaign=campaign, name="Alpha"))
    recipe = Recipe.of(first)
    by_services = muster_through_services(WarbandFactory(campaign=campaign, name="Bravo Band"))
    other = CampaignFactory()
    replayed = recipe.replay(WarbandFactory(campaign=other, name="Charlie"))

    written, copied = as_written(by_services), as_written(replayed)
    assert copied == written
    assert len(copied["Warrior"]) == 3 and len(copied["LedgerEntry"]) == 5  # not two empties
    assert "NAME" in copied["CampaignEvent"][0]["message"]
    assert replayed.campaign == other and replayed.is_draft is False
    assert not treasury.conservation_problems()
