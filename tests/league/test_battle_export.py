"""A campaign's battle history as CSV, for its organisers, with nothing
secret in it and no cell a spreadsheet would run as a formula."""

import csv
import datetime
import io

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from battles.models import Participant
from battles.report import services as battle_services
from battles.rules import ReportedResult
from campaign.models import Campaign
from league import exports
from tests.factories import UserFactory, change_secrets, hide_secrets, record
from tests.secrets import assert_unchanged_by_secrets, contains_value
from warbands.models import Warband

pytestmark = pytest.mark.django_db


def export_url(campaign) -> str:
    return reverse("battle_export", args=[campaign.pk])


def read_csv(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))


@pytest.fixture
def history(duel):
    """Two battles of the duel: a confirmed one the Scourge lost routing, and a later one
    reported and waiting for confirmation."""
    reavers, scourge = duel["reavers"], duel["scourge"]
    first = record(
        duel["campaign"],
        duel["organiser"],
        [(reavers, "won", False), (scourge, "lost", True)],
        scenario="Street Fight",
        fought_on=datetime.date(2026, 10, 4),
    )
    second = battle_services.report_battle(
        actor=reavers.owner,
        campaign=duel["campaign"],
        scenario="Wyrdstone Hunt",
        fought_on=datetime.date(2026, 11, 8),
        results=[ReportedResult(reavers.pk, "draw"), ReportedResult(scourge.pk, "draw")],
    )
    return {**duel, "battles": [first, second]}


def rating(battle, warband) -> str:
    return str(Participant.objects.get(battle=battle, warband=warband).rating_before)


def test_the_export_has_a_row_per_warband_in_each_battle_oldest_first(client, history):
    reavers, scourge = history["reavers"], history["scourge"]
    first, second = history["battles"]
    client.force_login(history["organiser"])

    response = client.get(export_url(history["campaign"]))

    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv"
    assert response["Content-Disposition"] == 'attachment; filename="siege-battles.csv"'
    kind = reavers.warband_type.name
    assert read_csv(response) == [
        list(exports.HEADER),
        [str(first.pk), "2026-10-04", "Street Fight", "Confirmed", "Reavers", kind,
         reavers.owner.username, "Won", "no", "", rating(first, reavers)],
        [str(first.pk), "2026-10-04", "Street Fight", "Confirmed", "Scourge", kind,
         scourge.owner.username, "Lost", "yes", "1", rating(first, scourge)],
        [str(second.pk), "2026-11-08", "Wyrdstone Hunt", "Waiting for confirmation",
         "Reavers", kind, reavers.owner.username, "Draw", "no", "", rating(second, reavers)],
        [str(second.pk), "2026-11-08", "Wyrdstone Hunt", "Waiting for confirmation",
         "Scourge", kind, scourge.owner.username, "Draw", "no", "", rating(second, scourge)],
    ]  # fmt: skip
    assert int(rating(first, reavers)) > 0


def test_a_campaign_without_battles_exports_the_header_only(client, duel):
    client.force_login(duel["organiser"])

    assert read_csv(client.get(export_url(duel["campaign"]))) == [list(exports.HEADER)]


@pytest.mark.parametrize(
    ("role", "status"),
    [("stranger", 404), ("owner", 403), ("opponent", 403), ("bystander", 403),
     ("organiser", 200)],
)  # fmt: skip
def test_only_the_organisers_export_the_battles(client, history, role, status):
    user = {
        "stranger": UserFactory(),
        "owner": history["reavers"].owner,
        "opponent": history["scourge"].owner,
        "bystander": history["bystander"],
        "organiser": history["organiser"],
    }[role]
    client.force_login(user)

    response = client.get(export_url(history["campaign"]))

    assert response.status_code == status
    assert ("Street Fight" in response.content.decode()) == (status == 200)


def test_an_anonymous_visitor_is_sent_to_log_in(client, history):
    response = client.get(export_url(history["campaign"]))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse(settings.LOGIN_URL))


@pytest.mark.parametrize("status", [Campaign.Status.CLOSED, Campaign.Status.ARCHIVED])
def test_the_history_of_a_closed_campaign_can_still_be_exported(client, history, status):
    Campaign.objects.filter(pk=history["campaign"].pk).update(status=status)
    client.force_login(history["organiser"])

    response = client.get(export_url(history["campaign"]))

    assert response.status_code == 200
    assert len(read_csv(response)) == 5


def test_the_campaign_page_links_the_export_for_organisers_only(client, history):
    url = export_url(history["campaign"])
    page = reverse("campaign_detail", args=[history["campaign"].pk])

    client.force_login(history["organiser"])
    assert url in client.get(page).content.decode()
    client.force_login(history["reavers"].owner)
    assert url not in client.get(page).content.decode()


def test_the_export_holds_no_secret(client, history):
    """Nothing of either treasury: not the values ``hide_secrets`` plants, and the file does
    not change when the treasuries do (``tests/secrets.py``)."""
    secrets = hide_secrets(history["reavers"]) + hide_secrets(history["scourge"])
    client.force_login(history["organiser"])

    def fetch() -> str:
        return client.get(export_url(history["campaign"])).content.decode("utf-8-sig")

    body = fetch()
    for secret in secrets:
        assert not contains_value(body, secret), secret
    assert_unchanged_by_secrets(fetch, lambda: change_secrets(history["reavers"]))
    assert_unchanged_by_secrets(fetch, lambda: change_secrets(history["scourge"]))


def test_user_typed_cells_never_start_a_formula(client, history):
    reavers, scourge = history["reavers"], history["scourge"]
    Warband.objects.filter(pk=reavers.pk).update(name='=HYPERLINK("http://evil","x")')
    Warband.objects.filter(pk=scourge.pk).update(name="-2+3")
    type(scourge.owner).objects.filter(pk=scourge.owner.pk).update(username="@sum")
    record(
        history["campaign"],
        history["organiser"],
        [(reavers, "won", False), (scourge, "lost", False)],
        scenario="+cmd|' /C calc'!A0",
        fought_on=datetime.date(2026, 12, 1),  # the last rows
    )
    client.force_login(history["organiser"])

    rows = read_csv(client.get(export_url(history["campaign"])))

    last = rows[-2:]
    assert [row[2] for row in last] == ["'+cmd|' /C calc'!A0"] * 2
    assert [row[4] for row in last] == ['\'=HYPERLINK("http://evil","x")', "'-2+3"]
    assert last[1][6] == "'@sum"
    for row in rows[1:]:
        assert not any(cell.startswith(("=", "+", "-", "@")) for cell in row), row


@pytest.mark.parametrize(
    ("value", "cell"),
    [("=1+1", "'=1+1"), ("+1", "'+1"), ("-1", "'-1"), ("@A1", "'@A1"), ("\t=1", "'\t=1"),
     ("Street Fight", "Street Fight"), ("a=b", "a=b"), (12, "12"), ("", "")],
)  # fmt: skip
def test_safe_cell_quotes_a_formula_and_nothing_else(value, cell):
    assert exports.safe_cell(value) == cell


@pytest.mark.parametrize(
    ("name", "filename"),
    [("Siege", "siege-battles.csv"),
     ('Mordheim "1999"; rm -rf /', "mordheim-1999-rm-rf-battles.csv"),
     ("Über Ärger", "uber-arger-battles.csv"), ("???", "campaign-battles.csv")],
)  # fmt: skip
def test_the_filename_is_plain_ascii(name, filename):
    assert exports.filename(Campaign(name=name)) == filename


def test_the_export_costs_the_same_queries_for_one_battle_or_five(client, duel):
    reavers, scourge = duel["reavers"], duel["scourge"]
    client.force_login(duel["organiser"])

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(export_url(duel["campaign"])).status_code == 200
        return len(captured)

    def battle() -> None:
        record(
            duel["campaign"], duel["organiser"], [(reavers, "won", False), (scourge, "lost", True)]
        )

    battle()
    one = queries()
    for _ in range(4):
        battle()
    assert queries() == one
