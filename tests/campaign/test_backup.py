"""export_campaign and import_campaign: a round trip through an empty database restores the
same rosters, balances and ledgers."""

import json

import pytest
from django.apps import apps
from django.core.management import CommandError, call_command
from django.db.models import Sum

from battles.models import Battle, DiceRoll, PostBattleSequence, StepRecord
from campaign.models import Campaign, CampaignEvent, Membership
from warbands.models import LedgerEntry, StorageContainer, Warrior
from warbands.reference import load_reference_data
from warbands.treasury import ledger_mismatches


def signature() -> dict:
    """Everything a restore must bring back the same (the demo has one campaign)."""
    warriors = Warrior.objects.select_related("warband", "warrior_type").order_by("pk")
    return {
        "members": sorted(Membership.objects.values_list("user__username", "is_organiser")),
        "warriors": [
            (w.pk, w.warband.name, w.name, w.warrior_type.key, w.status, w.experience,
             w.group_size, tuple(w.profile.as_dict().values()),
             tuple(sorted(w.items.values_list("item__key", flat=True))),
             tuple(sorted(w.skills.values_list("skill__key", flat=True))),
             tuple(sorted(w.injuries.values_list("name", flat=True))))
            for w in warriors
        ],
        "containers": sorted(
            StorageContainer.objects.values_list(
                "pk", "warband__name", "kind", "status", "gold_crowns", "wyrdstone", "item_count"
            )
        ),
        "stored": sorted(
            StorageContainer.objects.values_list("pk", "stored_items__name").exclude(
                stored_items__name=None
            )
        ),
        "ledger": sorted(
            LedgerEntry.objects.values("container", "kind").annotate(total=Sum("amount"))
            .values_list("container", "kind", "total")
        ),
        "ledger_rows": LedgerEntry.objects.count(),
        "battles": Battle.objects.count(),
        "dice": DiceRoll.objects.count(),
        "sequences": sorted(PostBattleSequence.objects.values_list("pk", "current_step")),
        "records": StepRecord.objects.count(),
        "events": CampaignEvent.objects.count(),
    }  # fmt: skip


def test_a_campaign_survives_a_round_trip_through_an_empty_database(
    reference_data, settings, tmp_path
):
    settings.DEBUG = True
    call_command("seed_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    campaign = Campaign.objects.get()
    backup = tmp_path / "league.json"
    before = signature()
    call_command("export_campaign", campaign.pk, output=str(backup), stderr=open("/dev/null", "w"))  # noqa: SIM115
    document = json.loads(backup.read_text())
    assert document["counts"]["warbands.LedgerEntry"] == before["ledger_rows"]

    call_command("flush", interactive=False, verbosity=0)  # an empty database...
    load_reference_data(apps)  # ...with the warband lists its migrations load
    assert not Warrior.objects.exists() and not LedgerEntry.objects.exists()
    call_command("import_campaign", str(backup), stdout=open("/dev/null", "w"))  # noqa: SIM115

    assert signature() == before
    assert not ledger_mismatches()
    call_command("check_ledgers", stdout=open("/dev/null", "w"))  # noqa: SIM115
    # New rows get new ids, past the restored ones.
    assert Campaign.objects.create(name="Next").pk > campaign.pk
    with pytest.raises(CommandError, match="exists already"):
        call_command("import_campaign", str(backup))


@pytest.mark.django_db
def test_a_file_that_is_not_a_backup_is_refused(tmp_path):
    wrong = tmp_path / "wrong.json"
    wrong.write_text('{"format": "something else"}')
    with pytest.raises(CommandError, match="Not a campaign backup"):
        call_command("import_campaign", str(wrong))
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("import_campaign", str(tmp_path / "missing.json"))
    with pytest.raises(CommandError, match="No campaign"):
        call_command("export_campaign", 999)
