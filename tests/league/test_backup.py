"""export_campaign and import_campaign: a round trip through an empty database restores the
same rosters, balances and ledgers."""

import json

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db.models import Sum
from django.urls import reverse

from battles.models import Battle, DiceRoll, PostBattleSequence, StepAction, StepRecord
from campaign.models import Campaign, CampaignEvent, Membership
from league.backup import dumps, export_campaign
from tests.factories import PASSWORD
from warbands.models import LedgerEntry, StorageContainer, Warband, Warrior
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
        "records": sorted(StepRecord.objects.values_list("pk", "step", "changes")),
        "journals": [(r.pk, r.journal()) for r in StepRecord.objects.order_by("pk")],
        "summaries": list(StepAction.objects.order_by("pk").values_list("record", "summary")),
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


def as_format_1(document: dict) -> dict:
    """A backup as format 1 wrote it: each step's journal and summary on its record."""
    actions = [row for row in document["objects"] if row["model"] == "battles.stepaction"]
    objects = []
    for row in document["objects"]:
        if row["model"] == "battles.stepaction":
            continue
        if row["model"] == "battles.steprecord":
            own = [a["fields"] for a in actions if a["fields"]["record"] == row["pk"]]
            fields = {k: v for k, v in row["fields"].items() if k != "changes"}
            fields["journal"] = [op for a in own for op in a["journal"]]
            fields["summary"] = "\n".join(a["summary"] for a in own if a["summary"])
            row = {**row, "fields": fields}
        objects.append(row)
    return {**document, "format": "mordheim-campaign/1", "objects": objects}


def test_a_backup_of_the_first_format_restores_its_steps_journals_and_summaries(
    reference_data, settings, tmp_path
):
    settings.DEBUG = True
    call_command("seed_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    campaign = Campaign.objects.get()
    before = signature()
    assert any(journal for _, journal in before["journals"])  # the demo played some steps
    backup = tmp_path / "league.json"
    call_command("export_campaign", campaign.pk, output=str(backup), stderr=open("/dev/null", "w"))  # noqa: SIM115
    old = tmp_path / "old.json"
    old.write_text(json.dumps(as_format_1(json.loads(backup.read_text()))))

    call_command("flush", interactive=False, verbosity=0)
    load_reference_data(apps)
    call_command("import_campaign", str(old), stdout=open("/dev/null", "w"))  # noqa: SIM115

    after = signature()
    # Each record's actions became one: the same journal and the same lines, in order.
    assert after["journals"] == before["journals"]
    assert after["records"] == before["records"]
    joined = {}
    for record, summary in before["summaries"]:
        joined[record] = "\n".join(filter(None, [joined.get(record), summary]))
    assert dict(after["summaries"]) == joined
    assert {k: v for k, v in after.items() if k != "summaries"} == {
        k: v for k, v in before.items() if k != "summaries"
    }


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


def users_of(document: dict) -> list[dict]:
    return [row["fields"] for row in document["objects"] if row["model"] == "auth.user"]


@pytest.mark.django_db
def test_a_backup_holds_no_password_e_mail_or_log_in_time_and_only_its_owner_reads_it(
    client, duel, tmp_path
):
    owner = duel["reavers"].owner
    owner.email = "gerhardt@example.org"
    owner.save()
    client.force_login(owner)  # sets last_login
    backup = tmp_path / "league.json"
    backup.write_text("an older backup")
    backup.chmod(0o644)  # a file others could read is replaced, and becomes private

    call_command("export_campaign", duel["campaign"].pk, output=str(backup),
                 stderr=open("/dev/null", "w"))  # noqa: SIM115  # fmt: skip

    assert backup.stat().st_mode & 0o777 == 0o600
    text = backup.read_text()
    users = users_of(json.loads(text))
    assert {user["username"] for user in users} >= {owner.username, duel["organiser"].username}
    assert all(set(user) == {"username", "first_name", "last_name", "is_active", "date_joined"}
               for user in users)  # fmt: skip
    assert owner.password not in text and "gerhardt@example.org" not in text


def test_an_imported_account_has_no_usable_password_even_from_an_old_backup(
    reference_data, duel, tmp_path, client
):
    owner = duel["reavers"].owner
    document = json.loads(dumps(export_campaign(duel["campaign"])))
    for fields in users_of(document):  # as backups were written before: hash, e-mail, log-in
        if fields["username"] == owner.username:
            fields.update(password=owner.password, email="gerhardt@example.org",
                          last_login="2026-01-01T10:00:00Z")  # fmt: skip
    backup = tmp_path / "old.json"
    backup.write_text(json.dumps(document))

    call_command("flush", interactive=False, verbosity=0)
    load_reference_data(apps)
    call_command("import_campaign", str(backup), stdout=open("/dev/null", "w"))  # noqa: SIM115

    restored = get_user_model().objects.get(username=owner.username)
    assert not restored.has_usable_password()
    assert (restored.email, restored.last_login) == ("", None)
    assert not restored.check_password(PASSWORD)
    answer = client.post(reverse("login"), {"username": owner.username, "password": PASSWORD})
    assert answer.status_code == 200 and "_auth_user_id" not in client.session  # refused
    assert Warband.objects.get(name="Reavers").owner == restored
