"""export_campaign and import_campaign: a round trip through an empty database restores the
same rosters, balances and ledgers, and everything else of the campaign (a game under way in
the battle helper, captives and their offers, corrections): exported again, it is the same
document. Every model is in a campaign's backup or declared outside it, with its reason."""

import json

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db.models import Sum
from django.urls import reverse
from django.utils import timezone

from battles.captives import exchange, ransom
from battles.helper import end, moves
from battles.helper.start import start_game
from battles.models import (
    Battle,
    Captive,
    ChallengeAnswer,
    DiceRoll,
    Fighter,
    FixtureSide,
    GameEvent,
    PostBattleSequence,
    StepAction,
    StepRecord,
)
from campaign.models import Campaign, CampaignEvent, Membership
from core.errors import RuleViolation
from league.backup import (
    NOT_CAMPAIGN_DATA,
    campaign_models,
    dumps,
    export_campaign,
    import_campaign,
)
from tests.factories import PASSWORD
from tests.helpers import fought, mustered_duel, play_to, sequence_of
from warbands import corrections
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
        "fixtures": sorted(FixtureSide.objects.values_list(
            "fixture_id", "fixture__round__number", "fixture__battle_id", "warband__name")),
        "challenges": sorted(ChallengeAnswer.objects.values_list(
            "challenge_id", "challenge__status", "challenge__fixture_id", "warband__name",
            "answer")),
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


def test_every_model_is_in_a_campaigns_backup_or_declared_outside_it_with_a_reason():
    """A model whose rows belong to a campaign names its campaign (``CAMPAIGN_PATH``) and is
    then backed up; any other is declared in ``league.backup.NOT_CAMPAIGN_DATA`` with why."""
    exported = {model._meta.label for model, _ in campaign_models()}
    every = {model._meta.label for model in apps.get_models()}

    neither = every - exported - set(NOT_CAMPAIGN_DATA)
    assert not neither, (
        "give these models a CAMPAIGN_PATH (their rows are then in a campaign's backup) or "
        f"declare them in league.backup.NOT_CAMPAIGN_DATA with a reason: {sorted(neither)}"
    )
    assert set(NOT_CAMPAIGN_DATA) <= every, "NOT_CAMPAIGN_DATA names models that are gone"
    assert all(len(reason) > 20 for reason in NOT_CAMPAIGN_DATA.values())
    assert {"battles.Game", "battles.GameSide", "battles.Fighter", "battles.GameEvent",
            "battles.Captive", "warbands.Correction"} <= exported  # fmt: skip


def league_in_play() -> dict:
    """The Reavers and the Scourge after a battle: the Reavers' sequence at step 3, a hero of
    each held by the other with a ransom asked and an exchange offered, a correction by hand;
    and a second game under way in the battle helper: a fighter knocked down, shards picked
    up, a note, the next phase."""
    duel = mustered_duel()
    reavers, scourge = duel["reavers"], duel["scourge"]
    battle = fought(duel)
    play_to(sequence_of(battle, reavers), 3, reavers.owner)
    held = []
    for warrior, captor in ((reavers.warriors.get(name="Brandt"), scourge),
                            (scourge.warriors.get(name="Brandt"), reavers)):  # fmt: skip
        warrior.status = "captured"
        warrior.save(update_fields=["status"])
        held.append(Captive.objects.create(warrior=warrior, captor=captor, battle=battle))
    ransom.set_ransom(held[0], actor=scourge.owner, ransom=25, into=scourge.containers.first())
    exchange.offer_exchange(held[0], actor=scourge.owner, for_captive=held[1])
    captain = reavers.warriors.get(is_leader=True)
    corrections.add_injury(captain, actor=reavers.owner, name="Old scar", reason="forgotten")

    game = start_game(
        actor=reavers.owner, campaign=duel["campaign"], scenario_key="skirmish",
        warband_ids=[reavers.pk, scourge.pk],
    )  # fmt: skip
    fighters = Fighter.objects.filter(game__battle=game, side__participant__warband=reavers)
    first, second = fighters[0], fighters[1]
    moves.set_state(game.pk, first.pk, "knocked_down", actor=reavers.owner)
    moves.pick_up(game.pk, second.pk, loot="wyrdstone", amount=2, actor=reavers.owner)
    moves.note(game.pk, "The well is guarded", actor=reavers.owner)
    moves.next_phase(game.pk, actor=reavers.owner)
    return {"campaign": duel["campaign"].pk, "game": game.pk, "reavers": reavers.pk,
            "owner": reavers.owner.username}  # fmt: skip


def as_read(document: dict) -> dict:
    """The document as its file reads, without the time it was written."""
    read = json.loads(dumps(document))
    read.pop("exported_at")
    return read


def test_a_game_under_way_survives_a_round_trip_and_is_then_finished(reference_data, client):
    """Export, import into an empty database, export again: the same document, the game under
    way included (with its sides, fighters and events); its page answers, and the game is
    finished through the helper's services after the restore."""
    league = league_in_play()
    first = as_read(export_campaign(Campaign.objects.get(pk=league["campaign"])))
    for label in ("battles.Game", "battles.GameSide", "battles.Fighter", "battles.GameEvent",
                  "battles.Captive", "warbands.Correction"):  # fmt: skip
        assert first["counts"][label] > 0, label

    call_command("flush", interactive=False, verbosity=0)
    load_reference_data(apps)
    import_campaign(json.loads(json.dumps(first)))

    assert as_read(export_campaign(Campaign.objects.get(pk=league["campaign"]))) == first
    owner = get_user_model().objects.get(username=league["owner"])
    client.force_login(owner)
    page = client.get(reverse("play_page", args=[league["game"]]))
    assert page.status_code == 200 and "The well is guarded" in page.content.decode()
    assert GameEvent.objects.filter(game__battle=league["game"]).count() == len(
        [row for row in first["objects"] if row["model"] == "battles.gameevent"]
    )

    end.end_game(league["game"], actor=owner, winner_id=league["reavers"])

    battle = Battle.objects.get(pk=league["game"])
    assert battle.status != Battle.Status.PLAYING and battle.game.is_over
    assert battle.participants.get(warband=league["reavers"]).result == "won"


@pytest.mark.django_db
def test_a_restore_takes_only_what_a_backup_holds(duel):
    """An account is made from its name alone, with no staff rights whatever the document
    says; a document that holds rows of another kind (here a session) is refused."""
    document = as_read(export_campaign(duel["campaign"]))
    users = [row for row in document["objects"] if row["model"] == "auth.user"]
    for row in users:
        row["fields"].update(username=f"new-{row['fields']['username']}", is_staff=True,
                             is_superuser=True, email="mallory@example.org")  # fmt: skip
    (campaign,) = [row for row in document["objects"] if row["model"] == "campaign.campaign"]
    campaign = {**campaign, "pk": 999_999,
                "fields": {**campaign["fields"], "join_code": "ELSEWHERE1"}}  # fmt: skip
    document["campaign"]["id"] = 999_999  # a campaign this database does not hold

    import_campaign({**document, "objects": [*users, campaign]})

    made = get_user_model().objects.filter(username__startswith="new-")
    assert made.count() == len(users)
    assert not made.filter(is_staff=True).exists() and not made.filter(is_superuser=True).exists()
    assert not made.exclude(email="").exists()
    assert not any(user.has_usable_password() for user in made)

    document["campaign"]["id"] = 999_998
    intruder = {"model": "sessions.session", "pk": "x" * 32,
                "fields": {"session_data": "", "expire_date": "2030-01-01T00:00:00Z"}}  # fmt: skip
    with pytest.raises(RuleViolation, match=r"sessions\.Session"):
        import_campaign({**document, "objects": [intruder]})


def test_a_moment_keeps_its_microseconds_through_a_backup(reference_data):
    """A timestamp whose milliseconds are 000 but whose microseconds are not comes back the
    same, and writes the same text again (Django's encoder cut it to "….000Z", which read back
    as another moment and wrote "…Z")."""
    campaign = mustered_duel()["campaign"]
    moment = timezone.now().replace(microsecond=456)
    Campaign.objects.filter(pk=campaign.pk).update(created_at=moment)
    document = as_read(export_campaign(Campaign.objects.get(pk=campaign.pk)))

    call_command("flush", interactive=False, verbosity=0)
    load_reference_data(apps)
    import_campaign(json.loads(json.dumps(document)))

    assert Campaign.objects.get(pk=campaign.pk).created_at == moment
    assert as_read(export_campaign(Campaign.objects.get(pk=campaign.pk))) == document
