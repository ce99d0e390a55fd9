"""The treasury page through the test client: htmx swaps, refusals, the ledger filter."""

import uuid

import pytest
from django.urls import reverse

from tests.factories import hide_secrets, mustered_warband
from tests.sharing import per_test, shared_per_module
from warbands import treasury
from warbands.models import LedgerEntry
from warbands.treasury.board import TreasuryBoard

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


def hiding_warband():
    """A mustered warband with the distinctive treasure of ``hide_secrets``."""
    warband = mustered_warband()
    hide_secrets(warband)
    return warband


@pytest.fixture(scope="module")
def _hiding_warband_built(request, django_db_setup, django_db_blocker):
    yield from shared_per_module(request, django_db_blocker, hiding_warband)


@pytest.fixture
def warband(_hiding_warband_built, db, client):
    """``hiding_warband``, built once for the module, its owner logged in; each test starts
    from it as built."""
    warband = per_test(_hiding_warband_built, hiding_warband)
    client.force_login(warband.owner)
    return warband


def chest_and_sack(warband):
    return (
        warband.containers.get(kind="treasure_chest"),
        warband.containers.filter(kind="large_sack", gold_crowns=27).get(),
    )


def test_the_owner_sees_every_container_with_its_fill_and_the_ledger(client, warband):
    page = client.get(reverse("warband_treasury", args=[warband.pk])).content.decode()

    assert page.count('class="container-card"') == 5
    assert '<span data-testid="gold">37</span> / 100' in page
    assert "Elven cloak" in page
    assert "Starting treasury" in page
    assert '<dd data-testid="total-gold">' in page


def test_moving_gold_with_htmx_swaps_only_the_two_cards_and_the_move_forms_token(client, warband):
    chest, sack = chest_and_sack(warband)
    others = warband.containers.exclude(pk__in=[chest.pk, sack.pk]).filter(status="held")

    response = client.post(
        reverse("treasury_move", args=[warband.pk]),
        {"source": chest.pk, "target": sack.pk, "gold": 20, "wyrdstone": ""},
        headers=HTMX,
    )

    assert response.status_code == 200
    assert response["HX-Reswap"] == "none"  # the board stays; only the parts below change
    assert response["HX-Trigger"] == "ledger-changed"  # the ledger reloads itself
    body = response.content.decode()
    assert f'<article class="container-card" id="container-{chest.pk}" hx-swap-oob="true">' in body
    assert f'<article class="container-card" id="container-{sack.pk}" hx-swap-oob="true">' in body
    assert '<span data-testid="gold">17</span> / 100' in body
    assert '<span data-testid="gold">47</span> / 50' in body
    assert body.count('class="container-card"') == 2
    assert all(f'id="container-{other.pk}"' not in body for other in others)
    # The move form's lists stay; its one-time token is replaced by a fresh one.
    assert body.count('name="form_token"') == 1
    assert 'id="treasury-move-token" hx-swap-oob="true">' in body
    assert 'id="treasury-sell"' not in body  # no container became empty or stopped being so
    assert '<div id="treasury-error" hx-swap-oob="true"></div>' in body  # an old refusal goes
    sack.refresh_from_db()
    assert sack.gold_crowns == 47


def test_a_move_that_empties_a_container_offers_it_for_sale(client, warband):
    chest, sack = chest_and_sack(warband)

    body = client.post(
        reverse("treasury_move", args=[warband.pk]),
        {"source": sack.pk, "target": chest.pk, "gold": 27},
        headers=HTMX,
    ).content.decode()

    sell = body.split('<div id="treasury-sell" hx-swap-oob="true">')[1].split("</form>")[0]
    assert f'<option value="{sack.pk}">' in sell.split('name="container"')[1].split("</select>")[0]


def test_the_ledger_reloads_itself_after_a_move_with_its_filter(client, warband):
    page = client.get(reverse("warband_treasury", args=[warband.pk])).content.decode()
    ledger = page.split('<section id="ledger"')[1].split(">")[0]

    assert 'hx-trigger="ledger-changed from:body"' in ledger
    assert 'hx-include="#ledger form"' in ledger
    assert f'hx-get="{reverse("warband_treasury", args=[warband.pk])}"' in ledger


def test_a_move_out_of_the_unstored_pile_redraws_the_board(client, warband):
    pile = treasury.loose_pile(warband)
    treasury.add_treasure(pile, gold=3, reason="income")
    chest, _ = chest_and_sack(warband)

    response = client.post(
        reverse("treasury_move", args=[warband.pk]),
        {"source": pile.pk, "target": chest.pk, "gold": 3},
        headers=HTMX,
    )

    body = response.content.decode()
    assert body.lstrip().startswith('<div id="treasury-board">')  # the warning goes with it
    assert "lost at the end of the next post-battle sequence" not in body
    assert "HX-Reswap" not in response


def test_a_move_posted_twice_moves_once_and_answers_the_same_swap(client, warband):
    chest, sack = chest_and_sack(warband)
    data = {"source": chest.pk, "target": sack.pk, "gold": 5, "form_token": str(uuid.uuid4())}
    url = reverse("treasury_move", args=[warband.pk])

    first = client.post(url, data, headers=HTMX)
    second = client.post(url, data, headers=HTMX)

    sack.refresh_from_db()
    assert sack.gold_crowns == 32
    assert second.content == first.content
    assert second["HX-Reswap"] == "none"  # else the replay would blank the board
    assert second["HX-Trigger"] == "ledger-changed"


def test_a_refused_move_shows_the_reason_and_changes_nothing(client, warband):
    chest, sack = chest_and_sack(warband)

    response = client.post(
        reverse("treasury_move", args=[warband.pk]),
        {"source": chest.pk, "target": sack.pk, "gold": 30},
        headers=HTMX,
    )

    assert response.status_code == 422
    told = "Only 50 gc fit in the Large Sack 4 (that would make 57). Room left: Treasure Chest 93"
    assert told in response.content.decode()
    assert treasury.ledger_mismatches() == []
    sack.refresh_from_db()
    assert sack.gold_crowns == 27


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"gold": "lots"}, "Enter a whole number"),
        ({"gold": "-5"}, "greater than or equal to 0"),
        ({"gold": "9999999"}, "less than or equal to"),
    ],
)
def test_bad_amounts_get_a_message(client, warband, data, message):
    chest, sack = chest_and_sack(warband)
    before = LedgerEntry.objects.count()

    response = client.post(
        reverse("treasury_move", args=[warband.pk]),
        {"source": chest.pk, "target": sack.pk, **data},
        headers=HTMX,
    )

    assert response.status_code == 422
    assert message in response.content.decode()
    assert LedgerEntry.objects.count() == before


def test_another_warbands_container_is_not_a_valid_choice(client, warband):
    other = mustered_warband(campaign=warband.campaign)
    chest, _ = chest_and_sack(warband)

    response = client.post(
        reverse("treasury_move", args=[warband.pk]),
        {"source": chest.pk, "target": other.containers.get(kind="treasure_chest").pk, "gold": 1},
        headers=HTMX,
    )

    assert response.status_code == 422
    assert "Choose one of your containers." in response.content.decode()


def test_without_htmx_a_move_redirects_back_to_the_treasury(client, warband):
    chest, sack = chest_and_sack(warband)

    response = client.post(
        reverse("treasury_move", args=[warband.pk]),
        {"source": chest.pk, "target": sack.pk, "gold": 1},
    )

    assert response["Location"] == reverse("warband_treasury", args=[warband.pk])


def test_storing_and_equipping_through_the_page(client, warband):
    captain = warband.warriors.get(is_leader=True)
    chest, _ = chest_and_sack(warband)
    sword = captain.items.get(item__key="sword")

    client.post(
        reverse("treasury_store", args=[warband.pk]),
        {"owned": sword.pk, "target": chest.pk},
        headers=HTMX,
    )
    stored = chest.stored_items.get(item__key="sword")
    response = client.post(
        reverse("treasury_equip", args=[warband.pk]),
        {"stored_item": stored.pk, "warrior": captain.pk},
        headers=HTMX,
    )

    assert response.status_code == 200
    assert captain.items.filter(item__key="sword").exists()
    assert not chest.stored_items.filter(item__key="sword").exists()


def test_the_ledger_filter_swaps_only_the_ledger(client, warband):
    response = client.get(
        reverse("warband_treasury", args=[warband.pk]),
        {"reason": "starting_treasury"},
        headers={**HTMX, "HX-Target": "ledger"},
    )

    body = response.content.decode()
    assert body.lstrip().startswith('<section id="ledger"')
    assert (
        body.count("<tr>")
        == 1 + LedgerEntry.objects.filter(warband=warband, reason="starting_treasury").count()
    )
    assert "Income" not in body.split("<tbody>")[1]


def test_unstored_treasure_is_shown_with_a_warning(client, warband):
    treasury.add_treasure(treasury.loose_pile(warband), gold=9, reason="income")

    page = client.get(reverse("warband_treasury", args=[warband.pk])).content.decode()

    assert "Not in a container" in page
    assert "lost at the end of the next post-battle sequence" in page


def test_the_roster_shows_its_owner_the_unstored_treasure_it_counts(client, warband):
    """The roster's treasury total includes the pile; the owner is told what is in it, and
    anybody else sees neither the line nor its contents."""
    pile = treasury.loose_pile(warband)
    treasury.add_treasure(pile, gold=9, wyrdstone=2, reason="income")
    roster = reverse("warband_roster", args=[warband.pk])

    page = client.get(roster).content.decode()

    line = page.split('data-testid="pile">')[1].split("</p>")[0]
    assert line.startswith("Not in a container: 9 gc, 2 wyrdstone.")
    assert "lost at the end of the next post-battle sequence" in line
    total = treasury.totals(warband)
    assert f'<dd data-testid="treasury-gold">{total["gold"]} gc</dd>' in page

    opponent = mustered_warband(campaign=warband.campaign).owner
    client.force_login(opponent)
    page = client.get(roster).content.decode()
    assert 'data-testid="pile"' not in page and "Not in a container" not in page


def test_an_empty_pile_gives_no_warning_and_is_no_source(client, warband):
    pile = treasury.loose_pile(warband)  # a post-battle step made it; everything is stored

    page = client.get(reverse("warband_treasury", args=[warband.pk])).content.decode()

    assert "lost at the end of the next post-battle sequence" not in page
    sources = page.split('<select name="source" required>')[1].split("</select>")[0]
    assert f'<option value="{pile.pk}">' not in sources
    assert sources.count("<option") == warband.containers.exclude(kind="loose").count()


def test_the_move_form_does_not_start_from_and_to_the_same_container(client, warband):
    page = client.get(reverse("warband_treasury", args=[warband.pk])).content.decode()
    form = page.split('name="source"')[1].split("</form>")[0]
    first_source = form.split('<option value="')[1].split('"')[0]
    chosen_target = form.split('name="target"')[1].split(" selected>")[0].rsplit('value="', 1)[1]
    assert chosen_target.rstrip('"') != first_source


def test_naming_a_container_through_the_page_redraws_the_board(client, warband):
    chest, sack = chest_and_sack(warband)
    url = reverse("treasury_name", args=[warband.pk])

    named = client.post(
        url,
        {"container": sack.pk, "label": "Tithes", "form_token": str(uuid.uuid4())},
        headers=HTMX,
    )

    assert named.status_code == 200
    body = named.content.decode()
    assert "<h3>Large Sack “Tithes”" in body  # its card
    assert f'<option value="{sack.pk}">Large Sack “Tithes”</option>' in body  # the forms' lists
    refused = client.post(url, {"container": chest.pk, "label": "tithes"}, headers=HTMX)
    assert refused.status_code == 422
    assert "The Large Sack “Tithes” already has that name." in refused.content.decode()
    chest.refresh_from_db()
    assert chest.label == ""
    too_long = client.post(url, {"container": sack.pk, "label": "x" * 61}, headers=HTMX)
    assert too_long.status_code == 422 and "at most 60 characters" in too_long.content.decode()


def test_nobody_else_may_name_a_container(client, warband):
    chest, _ = chest_and_sack(warband)
    other = mustered_warband(campaign=warband.campaign)
    client.force_login(other.owner)

    theirs = client.post(
        reverse("treasury_name", args=[warband.pk]), {"container": chest.pk, "label": "Ours"}
    )
    mine_with_their_chest = client.post(
        reverse("treasury_name", args=[other.pk]),
        {"container": chest.pk, "label": "Ours"},
        headers=HTMX,
    )

    assert theirs.status_code == 403
    assert mine_with_their_chest.status_code == 422
    chest.refresh_from_db()
    assert chest.label == ""


def test_the_page_grows_by_a_card_per_container_not_by_a_list_per_card(client, warband):
    """Each card shows only its own contents; the lists of containers are in the page's forms,
    drawn once. So every container adds about the same to the page, however many there are
    (the forms of each card once listed every container: the page grew with their square)."""
    chest = warband.containers.get(kind="treasure_chest")
    url = reverse("warband_treasury", args=[warband.pk])
    sizes = {}
    for total in (5, 10, 20):
        while warband.containers.filter(status="held").exclude(kind="loose").count() < total:
            sack = treasury.buy_container(
                warband, "large_sack", actor=warband.owner, pay_from=chest
            )
            treasury.add_item(sack, item=None, name="Holy relic", reason=LedgerEntry.Reason.INCOME)
        sizes[total] = len(client.get(url).content)

    per_card_5_to_10 = (sizes[10] - sizes[5]) / 5
    per_card_10_to_20 = (sizes[20] - sizes[10]) / 10
    assert per_card_10_to_20 < 1.1 * per_card_5_to_10, sizes
    assert sizes[20] < 40_000, sizes


def test_a_purchase_answers_with_the_board_and_the_ledger_reloads_itself(client, warband):
    chest, _ = chest_and_sack(warband)

    response = client.post(
        reverse("treasury_buy", args=[warband.pk]),
        {"kind": "backpack", "pay_from": chest.pk},
        headers=HTMX,
    )
    refused = client.post(
        reverse("treasury_buy", args=[warband.pk]),
        {"kind": "backpack", "pay_from": "999999"},  # no container of the warband
        headers=HTMX,
    )

    body = response.content.decode()
    assert response.status_code == 200 and body.lstrip().startswith('<div id="treasury-board">')
    assert 'id="ledger"' not in body  # not part of the board: it reloads on the event
    assert response["HX-Trigger"] == "ledger-changed"
    assert refused.status_code == 422 and "HX-Trigger" not in refused
    page = client.get(reverse("warband_treasury", args=[warband.pk])).content.decode()
    assert page.index('id="treasury-board"') < page.index('<section id="ledger"')


# A longer number is a longer address than any page needs: refused before the view reads it
# (core.middleware, tests/core/test_input_refusals.py).
@pytest.mark.parametrize("page", ["999999999999999999999", "9" * 1_500, "-3", "x", "2.5"])
def test_a_ledger_page_that_does_not_exist_shows_a_page_that_does(client, warband, page):
    url = reverse("warband_treasury", args=[warband.pk])
    first = client.get(url, headers={**HTMX, "HX-Target": "ledger"}).content.decode()

    response = client.get(url, {"page": page}, headers={**HTMX, "HX-Target": "ledger"})

    assert response.status_code == 200  # the last page past the end, else the first: one here
    assert response.content.decode() == first
    assert client.get(url, {"page": page}).status_code == 200


def test_a_ledger_page_past_the_end_however_far_shows_the_last_page(client, warband):
    for _ in range(30):  # more than a page of 30 rows
        treasury.add_treasure(treasury.loose_pile(warband), gold=1, reason="income")
    url = reverse("warband_treasury", args=[warband.pk])
    ledger = {**HTMX, "HX-Target": "ledger"}

    last = client.get(url, {"page": 2}, headers=ledger).content.decode()
    far = client.get(url, {"page": "999999999999999999999"}, headers=ledger).content.decode()

    assert far == last != client.get(url, headers=ledger).content.decode()
    assert "Starting treasury" in last  # the oldest rows


def test_a_ledger_page_holds_its_own_rows_and_counts_the_whole_ledger(rf, warband):
    for _ in range(35):  # more than a page of 30 rows
        treasury.add_treasure(treasury.loose_pile(warband), gold=1, reason="income")
    newest_first = list(LedgerEntry.objects.filter(warband=warband).values_list("pk", flat=True))

    def page(**query):
        request = rf.get("/", query)
        request.user = warband.owner
        return TreasuryBoard(warband.owner, warband, request=request).ledger[1]

    first, second = page(), page(page=2)

    assert first.paginator.count == second.paginator.count == len(newest_first)
    assert first.paginator.num_pages == second.paginator.num_pages == 2
    assert [row.pk for row in first] == newest_first[:30]
    assert [row.pk for row in second] == newest_first[30:]
    assert (first.has_previous(), first.has_next()) == (False, True)
    assert (second.has_previous(), second.has_next()) == (True, False)
