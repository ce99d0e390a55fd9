"""Forms take only the fields they list (posting ``owner``, ``gold_crowns`` or another
warband's ids changes nothing), and names full of HTML are escaped wherever they are shown,
attributes included."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.factories import UserFactory
from tests.helpers import battle_of, fingerprint, fought, play_to, sequence_of
from warbands.models import Warband

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


def test_signing_up_cannot_make_a_staff_account(client):
    client.post(
        reverse("signup"),
        {"username": "mallory", "password1": "long-enough-pass-9", "password2":
         "long-enough-pass-9", "is_staff": "on", "is_superuser": "on"},
    )  # fmt: skip
    mallory = get_user_model().objects.get(username="mallory")
    assert not mallory.is_staff and not mallory.is_superuser


def test_renaming_a_warband_changes_its_name_and_nothing_else(client, duel):
    reavers, scourge = duel["reavers"], duel["scourge"]
    client.force_login(reavers.owner)
    client.post(
        reverse("warband_rename", args=[reavers.pk]),
        {"name": "Reavers of Reikland", "owner": scourge.owner.pk, "gold_crowns": 5000,
         "status": "draft", "campaign": 999, "warband_type": 3},
    )  # fmt: skip
    reavers.refresh_from_db()
    assert reavers.name == "Reavers of Reikland"
    assert (reavers.owner, reavers.status, reavers.gold_crowns) == (
        duel["reavers"].owner, "active", 0,
    )  # fmt: skip
    assert reavers.campaign == duel["campaign"]


def test_campaign_settings_take_only_their_fields(client, duel):
    campaign = duel["campaign"]
    client.force_login(duel["organiser"])
    client.post(
        reverse("campaign_settings", args=[campaign.pk]),
        {"name": "Renamed", "description": "", "start_date": "2026-11-01",
         "max_warbands_per_player": 1, "status": "archived", "join_code": "MINE",
         "created_by": duel["bystander"].pk},
    )  # fmt: skip
    campaign.refresh_from_db()
    assert campaign.name == "Renamed"
    assert campaign.status != "archived" and campaign.join_code != "MINE"


def test_another_warbands_container_in_a_treasury_form_changes_nothing(client, duel):
    reavers, scourge = duel["reavers"], duel["scourge"]
    mine = reavers.containers.get(kind="treasure_chest")
    theirs = scourge.containers.get(kind="treasure_chest")
    client.force_login(reavers.owner)
    before = fingerprint()

    for source, target in ((theirs, mine), (mine, theirs)):
        response = client.post(
            reverse("treasury_move", args=[reavers.pk]),
            {"source": source.pk, "target": target.pk, "gold": 10, "wyrdstone": 0},
            headers=HTMX,
        )
        assert response.status_code == 422
    response = client.post(
        reverse("treasury_equip", args=[scourge.pk]), {"stored_item": 1, "warrior": 1}
    )
    assert response.status_code == 403
    for name, data in (
        ("treasury_sell", {"container": theirs.pk, "proceeds_to": mine.pk}),
        ("treasury_place", {"container": theirs.pk}),
        ("treasury_move_item", {"stored_item": 1, "target": theirs.pk}),
    ):
        response = client.post(reverse(name, args=[reavers.pk]), data, headers=HTMX)
        assert response.status_code == 422, name
    assert fingerprint() == before


def test_a_key_of_non_ascii_digits_in_a_treasury_form_is_refused_not_a_server_error(client, duel):
    """ "²" and "١" are digits to ``str.isdigit`` but no key: the form refuses them (422)."""
    reavers = duel["reavers"]
    mine = reavers.containers.get(kind="treasure_chest")
    client.force_login(reavers.owner)
    before = fingerprint()

    for key in ("²", "١"):
        response = client.post(
            reverse("treasury_move", args=[reavers.pk]),
            {"source": key, "target": mine.pk, "gold": 1, "wyrdstone": 0},
            headers=HTMX,
        )
        assert response.status_code == 422
    assert fingerprint() == before


def test_another_warbands_container_in_a_sequence_form_changes_nothing(client, duel):
    """Step 9 posts the treasury page's forms: another warband's container is no choice of
    theirs, whichever field names it (a "pay from" too), and is refused beside it."""
    reavers, scourge = duel["reavers"], duel["scourge"]
    sequence = play_to(sequence_of(battle_of(duel), reavers), 9, reavers.owner)
    theirs = scourge.containers.get(kind="treasure_chest")
    mine = reavers.containers.get(kind="treasure_chest")
    client.force_login(reavers.owner)
    before = fingerprint()

    for data in (
        {"action": "move", "source": theirs.pk, "target": mine.pk, "gold": 10},
        {"action": "move", "source": mine.pk, "target": theirs.pk, "gold": 10},
        {"action": "sell_container", "container": theirs.pk, "proceeds_to": mine.pk},
        {"action": "buy_container", "kind": "backpack", "pay_from": theirs.pk, "warband": 2},
    ):
        response = client.post(reverse("sequence_act", args=[sequence.pk]), {"step": 9, **data},
                                headers=HTMX)  # fmt: skip
        assert response.status_code == 422
        assert "Choose one of your containers." in response.content.decode()
    assert fingerprint() == before


SCRIPT = "<script>alert('xss')</script>"
ATTRIBUTE = '"><img src=x onerror=alert(1)>'


def test_names_with_html_are_escaped_in_pages_and_htmx_attributes(client, duel):
    reavers = duel["reavers"]
    Warband.objects.filter(pk=reavers.pk).update(name=SCRIPT)
    captain = reavers.warriors.get(is_leader=True)
    captain.name = ATTRIBUTE
    captain.save(update_fields=["name"])
    get_user_model().objects.filter(pk=reavers.owner_id).update(first_name=SCRIPT)
    battle = fought(duel)
    sequence = sequence_of(battle, reavers)

    pages = {}
    for user in (reavers.owner, duel["scourge"].owner, duel["organiser"]):
        client.force_login(user)
        for name, args in (
            ("dashboard", []), ("campaign_detail", [duel["campaign"].pk]),
            ("campaign_feed", [duel["campaign"].pk]), ("warband_roster", [reavers.pk]),
            ("warband_treasury", [reavers.pk]), ("battle_detail", [battle.pk]),
            ("battle_side", [battle.pk, reavers.pk]), ("sequence_detail", [sequence.pk]),
        ):  # fmt: skip
            response = client.get(reverse(name, args=args))
            pages[f"{user.username} {name}"] = response.content.decode()
        export = client.get(reverse("warband_export", args=[reavers.pk]))
        assert export["Content-Type"].startswith("application/json")  # never read as HTML
        assert export["X-Content-Type-Options"] == "nosniff"
    for where, body in pages.items():
        assert SCRIPT not in body, where
        assert ATTRIBUTE not in body and "<img src=x" not in body, where
    assert any("&lt;script&gt;" in body for body in pages.values())
    assert any("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;" in body for body in pages.values())


def test_a_user_named_with_html_is_escaped(client, duel):
    UserFactory(username="<b>bold</b>")
    client.force_login(duel["organiser"])
    body = client.get(reverse("campaign_settings", args=[duel["campaign"].pk])).content.decode()
    assert "<b>bold</b>" not in body
