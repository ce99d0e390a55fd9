"""The download of one's own data (``league.accounts.download``): his treasury in it, never
another player's, whoever asks (an opponent who organises, an organiser who sees secrets),
and a number of queries that does not grow with the battles."""

import datetime
import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaign.models import Campaign, Membership
from tests.factories import mustered_warband, record
from warbands import treasury
from warbands.models import Item, LedgerEntry, StorageContainer

pytestmark = pytest.mark.django_db
URL = "/accounts/download/"


def label_chest(warband, label: str, item: str = "") -> None:
    """A secret of the warband's: its chest's name, and an item stored in it."""
    chest = warband.containers.get(kind="treasure_chest")
    StorageContainer.objects.filter(pk=chest.pk).update(label=label)
    if item:
        treasury.add_item(chest, item=Item.objects.get(key=item), reason=LedgerEntry.Reason.INCOME)


def download(client, user) -> tuple[dict, str]:
    client.force_login(user)
    response = client.get(URL)
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="mordheim-account.json"'
    text = response.content.decode()
    return json.loads(text), text


def test_the_download_holds_his_own_data_and_treasury(client, duel):
    reavers, scourge = duel["reavers"], duel["scourge"]
    label_chest(reavers, "Tithes7RV", "elven_cloak")
    label_chest(scourge, "Hoard9QX", "rope_and_hook")
    record(duel["campaign"], duel["organiser"], [(reavers, "won", False), (scourge, "lost", True)])

    data, text = download(client, reavers.owner)

    assert data["profile"]["username"] == reavers.owner.username
    assert data["notifications"]["e-mails"] == "digest"
    assert data["memberships"] == [
        {
            "campaign": "Siege",
            "campaign_status": "Running",
            "role": "player",
            "active": True,
            "joined": data["memberships"][0]["joined"],
        }
    ]
    [warband] = data["warbands"]
    assert warband["name"] == "Reavers" and len(warband["warriors"]) == 3
    chest = next(c for c in warband["treasury"]["containers"] if c["name"].endswith("“Tithes7RV”"))
    assert chest["items"] == ["Elven cloak"]
    assert any(line["what"] == "Elven cloak" for line in warband["treasury"]["ledger"])
    [battle] = data["battles"]
    assert battle["scenario"] == "Skirmish" and battle["date"] == "2026-11-01"
    assert [(s["warband"], s["result"], s["routed"]) for s in battle["sides"]] == [
        ("Reavers", "Won", False),
        ("Scourge", "Lost", True),
    ]
    assert "Hoard9QX" not in text and "Rope" not in text


@pytest.mark.parametrize("who", ["opponent who organises", "organiser who sees secrets"])
def test_no_other_players_treasury_reaches_an_organisers_download(client, duel, who):
    reavers, scourge, organiser = duel["reavers"], duel["scourge"], duel["organiser"]
    label_chest(reavers, "Tithes7RV", "elven_cloak")
    label_chest(scourge, "Hoard9QX", "rope_and_hook")
    Campaign.objects.filter(pk=duel["campaign"].pk).update(organiser_sees_secrets=True)
    record(duel["campaign"], organiser, [(reavers, "won", False), (scourge, "lost", True)])
    user = scourge.owner if who.startswith("opponent") else organiser
    Membership.objects.filter(user=user).update(is_organiser=True)

    data, text = download(client, user)

    assert "Tithes7RV" not in text and "Elven cloak" not in text
    assert len(data["battles"]) == (1 if user == scourge.owner else 0)
    if user == scourge.owner:
        [warband] = data["warbands"]
        assert "Hoard9QX" in text and warband["treasury"]["ledger"]
    else:
        assert data["warbands"] == [] and data["memberships"][0]["role"] == "organiser"


def test_the_queries_do_not_grow_with_battles_or_warbands(client, duel):
    reavers, scourge, organiser = duel["reavers"], duel["scourge"], duel["organiser"]
    mustered_warband(campaign=duel["campaign"], owner=reavers.owner, name="Outriders")
    client.force_login(reavers.owner)

    def counted() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(URL).status_code == 200
        return len(queries)

    record(duel["campaign"], organiser, [(reavers, "won", False), (scourge, "lost", True)])
    once = counted()
    for day in (2, 3, 4):
        record(
            duel["campaign"],
            organiser,
            [(scourge, "won", False), (reavers, "lost", True)],
            fought_on=datetime.date(2026, 11, day),
        )
    mustered_warband(campaign=Campaign.objects.create(name="Elsewhere"), owner=reavers.owner)

    assert counted() == once <= 16  # one query for each kind of thing the file holds
    assert len(json_of(client)["battles"]) == 4


def json_of(client) -> dict:
    return json.loads(client.get(URL).content)
