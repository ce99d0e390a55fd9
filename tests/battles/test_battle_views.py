"""Battle pages through the test client: the report form, htmx swaps, permissions, secrets."""

import pytest
from django.urls import reverse

from battles.aftermath import carried_items
from battles.models import Battle, CarriedItemAtEnd
from battles.report import services
from tests.factories import SECRET_ITEM, UserFactory, change_secrets, hide_secrets, mustered_warband
from tests.helpers import every_side_entered, reported
from tests.secrets import assert_unchanged_by_secrets

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


def test_reporting_through_the_form_then_the_warriors(client, duel):
    reavers, scourge = duel["reavers"], duel["scourge"]
    client.force_login(reavers.owner)

    response = client.post(
        reverse("battle_report", args=[duel["campaign"].pk]),
        {
            "scenario": "Street Fight",
            "fought_on": "2026-11-20",
            "fortune_table": "d66",
            f"w{reavers.pk}-took_part": "on",
            f"w{reavers.pk}-result": "won",
            f"w{scourge.pk}-took_part": "on",
            f"w{scourge.pk}-result": "lost",
            f"w{scourge.pk}-routed": "on",
        },
    )

    battle = Battle.objects.get()
    assert (battle.scenario, battle.scenario_key) == ("Street Fight", "")  # typed: "other"
    side = reverse("battle_side", args=[battle.pk, reavers.pk])
    assert response["Location"] == side
    captain = reavers.warriors.get(is_leader=True)
    page = client.get(side).content.decode()
    assert f'name="o{captain.pk}-ooa"' in page
    assert f'name="o{scourge.warriors.get(is_leader=True).pk}-ooa"' not in page  # their side
    client.post(
        side,
        {f"o{captain.pk}-took_part": "on", f"o{captain.pk}-enemies": "2",
         f"o{captain.pk}-experience": "1"},
    )  # fmt: skip
    outcome = battle.participants.get(warband=reavers).outcomes.get(warrior=captain)
    assert (outcome.enemies_out_of_action, outcome.scenario_experience) == (2, 1)


def test_bad_numbers_in_the_warriors_form_change_nothing(client, duel):
    battle = reported(duel)
    captain = duel["reavers"].warriors.get(is_leader=True)
    client.force_login(duel["reavers"].owner)

    response = client.post(
        reverse("battle_side", args=[battle.pk, duel["reavers"].pk]),
        {f"o{captain.pk}-took_part": "on", f"o{captain.pk}-enemies": "many"},
    )

    assert response.status_code == 422
    assert not battle.participants.get(warband=duel["reavers"]).outcomes.exists()


def test_confirming_with_htmx_swaps_the_battle_board(client, duel):
    battle = every_side_entered(reported(duel))
    client.force_login(duel["scourge"].owner)

    response = client.post(
        reverse("battle_respond", args=[battle.pk]), {"agree": "yes"}, headers=HTMX
    )

    assert response.status_code == 200
    body = response.content.decode()
    assert body.lstrip().startswith('<div id="battle-board">')
    assert '<mark data-testid="battle-status">Confirmed</mark>' in body
    assert "Step 0: carried items" in body


def test_a_dispute_without_a_reason_is_refused_in_place(client, duel):
    battle = reported(duel)
    client.force_login(duel["scourge"].owner)

    response = client.post(
        reverse("battle_respond", args=[battle.pk]), {"agree": "no"}, headers=HTMX
    )

    assert response.status_code == 422
    assert "Say what is wrong" in response.content.decode()
    battle.refresh_from_db()
    assert battle.status == "reported"


def test_entered_dice_are_checked(client, duel):
    battle = reported(duel)
    client.force_login(duel["reavers"].owner)

    response = client.post(
        reverse("battle_fortune_markers", args=[battle.pk]), {"dice": "9"}, headers=HTMX
    )

    assert response.status_code == 422
    assert "9 is not a possible roll of a D6" in response.content.decode()
    battle.refresh_from_db()
    assert battle.fortune_markers is None
    assert not battle.dice_rolls.exists()


def test_server_rolls_are_logged_for_everybody_to_see(client, duel):
    battle = reported(duel)
    client.force_login(duel["reavers"].owner)

    client.post(reverse("battle_fortune_markers", args=[battle.pk]), {"dice": ""}, headers=HTMX)

    roll = battle.dice_rolls.get(purpose__contains="markers")
    assert (roll.source, roll.rolled_by, roll.sides) == ("server", duel["reavers"].owner, 6)
    assert roll.result.endswith("random fortune markers")
    client.force_login(duel["bystander"])
    page = client.get(reverse("battle_detail", args=[battle.pk])).content.decode()
    assert roll.purpose in page and "rolled by the server" in page


def test_declaring_and_recovering_through_the_pages(client, duel):
    battle = reported(duel)
    every_side_entered(battle)
    services.respond(battle, actor=duel["scourge"].owner, agree=True)
    reavers, scourge = duel["reavers"], duel["scourge"]
    for warband in (reavers, scourge):
        client.force_login(warband.owner)
        data = {"securers": 3, "pitters": 0}
        for item in battle.carried_items.filter(owner=warband):
            state = (
                "uncontrolled" if warband == scourge and item.label == "Treasure Chest" else "own"
            )
            data[f"i{item.pk}-state"] = state
        response = client.post(reverse("battle_declare", args=[battle.pk, warband.pk]), data)
        assert response.status_code == 302
    client.force_login(reavers.owner)
    client.post(reverse("battle_recovery_start", args=[battle.pk]), {"dice": ""}, headers=HTMX)
    chest = battle.carried_items.get(owner=scourge, label="Treasure Chest")

    response = client.post(
        reverse("battle_recover", args=[battle.pk]),
        {"item": chest.pk, "majority": reavers.pk, "dice": "2"},
        headers=HTMX,
    )

    assert response.status_code == 200
    chest.refresh_from_db()
    assert (chest.outcome, chest.secured_by) == ("captured", reavers)
    assert chest.recovery == "D6 2 +1 majority of warriors near it +1 heavy = 4"
    assert battle.dice_rolls.get(purpose__startswith="recovery").result == "Reavers secures it"


def test_the_battle_page_never_shows_what_is_inside_a_container(client, duel):
    scourge = duel["scourge"]
    hide_secrets(scourge)
    battle = reported(duel)
    every_side_entered(battle)
    services.respond(battle, actor=scourge.owner, agree=True)
    url = reverse("battle_detail", args=[battle.pk])

    for user in (duel["reavers"].owner, duel["bystander"], duel["organiser"]):
        client.force_login(user)
        assert SECRET_ITEM not in client.get(url).content.decode()
        assert_unchanged_by_secrets(
            lambda: client.get(url).content.decode(), lambda: change_secrets(scourge)
        )


def test_after_a_capture_only_the_captor_sees_the_contents(client, duel):
    reavers, scourge = duel["reavers"], duel["scourge"]
    hide_secrets(scourge)
    battle = reported(duel)
    every_side_entered(battle)
    services.respond(battle, actor=scourge.owner, agree=True)
    chest = scourge.containers.get(kind="treasure_chest")
    for warband in (reavers, scourge):
        declarations = [
            carried_items.Declaration(
                i.pk,
                "enemy" if i.container_id == chest.pk else "own",
                reavers.pk if i.container_id == chest.pk else None,
            )
            for i in battle.carried_items.filter(owner=warband)
        ]
        carried_items.declare_carried_items(
            battle, warband, actor=warband.owner, declarations=declarations, securers=2
        )

    client.force_login(reavers.owner)
    assert (
        SECRET_ITEM in client.get(reverse("warband_treasury", args=[reavers.pk])).content.decode()
    )
    for user in (scourge.owner, duel["bystander"]):
        client.force_login(user)
        for url in (
            reverse("battle_detail", args=[battle.pk]),
            reverse("warband_roster", args=[reavers.pk]),
            reverse("campaign_feed", args=[duel["campaign"].pk]),
        ):
            assert SECRET_ITEM not in client.get(url).content.decode(), url
    client.force_login(scourge.owner)
    own = client.get(reverse("warband_treasury", args=[scourge.pk])).content.decode()
    assert f"container-{chest.pk}" not in own


# --- Permissions ---------------------------------------------------------------------------


@pytest.fixture
def roles(duel):
    battle = reported(duel)
    return battle, {
        "reporter": duel["reavers"].owner,
        "opponent": duel["scourge"].owner,
        "organiser": duel["organiser"],
        "bystander": duel["bystander"],
        "stranger": mustered_warband().owner,
        "anonymous": None,
    }


@pytest.mark.parametrize(
    ("role", "read", "edit", "respond", "play"),
    [
        ("reporter", 200, 200, 200, 200),
        ("opponent", 200, 403, 200, 200),
        ("organiser", 200, 200, 403, 200),
        ("bystander", 200, 403, 403, 403),
        ("stranger", 404, 404, 404, 404),
        ("anonymous", 302, 302, 302, 302),
    ],
)
def test_battle_urls_by_role(client, roles, role, read, edit, respond, play):
    battle, users = roles
    if users[role]:
        client.force_login(users[role])

    assert client.get(reverse("battle_detail", args=[battle.pk])).status_code == read
    side = reverse("battle_side", args=[battle.pk, battle.participants.first().warband_id])
    assert client.get(side).status_code == edit
    assert client.get(reverse("battle_correct", args=[battle.pk])).status_code == edit
    response = client.post(  # the D3 as a D6; the placement roll-off, as the ratings tie
        reverse("battle_fortune_markers", args=[battle.pk]),
        {"dice": "3", "rolloff": "4 5"},
        headers=HTMX,
    )
    if role == "anonymous":
        assert response["HX-Redirect"].startswith(reverse("login"))
    else:
        assert response.status_code == play, response.content[:300]
    response = client.post(
        reverse("battle_respond", args=[battle.pk]), {"agree": "no", "reason": "x"}
    )
    assert response.status_code == (302 if respond == 200 else respond)


def test_a_stranger_learns_nothing_about_the_battle(client, roles):
    battle, _ = roles
    client.force_login(UserFactory())

    for name in ("battle_detail", "battle_correct"):
        assert client.get(reverse(name, args=[battle.pk])).status_code == 404
    side = reverse("battle_side", args=[battle.pk, battle.participants.first().warband_id])
    assert client.get(side).status_code == 404
    assert CarriedItemAtEnd.objects.count() == 0
