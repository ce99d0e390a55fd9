"""A campaign's backup keeps its corrections as they stand: the requests waiting, the ones
decided (by whom, and why), and where each item a correction added came from, on the warrior,
in a container and in the ledger, so that the restored campaign still sells it for nothing and
still passes the audit."""

import pytest
from django.apps import apps
from django.core.management import call_command

from league.backup import export_campaign, import_campaign
from tests.helpers import chest, mustered_duel, warriors
from warbands import corrections, treasury
from warbands.models import Correction, Item, LedgerEntry, StoredItem, WarriorItem
from warbands.reference import load_reference_data


def provenance() -> dict:
    return {
        "corrections": sorted(
            Correction.objects.values_list(
                "pk", "status", "kind", "actor__username", "decided_by__username", "decision",
                "breaks", "item__key", "value", "before",
            )
        ),
        "carried": sorted(WarriorItem.objects.values_list("pk", "correction")),
        "stored": sorted(StoredItem.objects.values_list("pk", "correction")),
        "ledger": sorted(LedgerEntry.objects.values_list("pk", "correction")),
    }  # fmt: skip


@pytest.mark.django_db(transaction=True)
def test_corrections_and_the_provenance_of_their_items_survive_a_round_trip(reference_data):
    duel = mustered_duel()
    reavers, organiser = duel["reavers"], duel["organiser"]
    captain, champion, guards = warriors(reavers)
    rifle = Item.objects.get(key="hochland_long_rifle")
    given = corrections.add_item(guards, actor=reavers.owner, item=rifle, reason="asked")
    corrections.approve(given, actor=organiser)
    treasury.store_warrior_item(guards.items.get(correction=given), chest(reavers),
                                actor=reavers.owner)  # fmt: skip
    corrections.add_item(champion, actor=organiser, item=Item.objects.get(key="halberd"),
                         reason="ruled")  # fmt: skip
    refused = corrections.set_experience(captain, actor=reavers.owner, experience=40, reason="x")
    corrections.refuse(refused, actor=organiser, reason="No")
    corrections.set_experience(champion, actor=reavers.owner, experience=30, reason="waiting")
    document = export_campaign(duel["campaign"])
    before = provenance()

    call_command("flush", interactive=False, verbosity=0)
    load_reference_data(apps)
    import_campaign(document)

    assert provenance() == before
    assert StoredItem.objects.filter(correction__isnull=False).count() == 3  # the three models
    assert Correction.objects.filter(status="pending").count() == 1
    assert not treasury.conservation_problems()
