"""Captives (serious injury 61, Captured): ransom, exchange, the slavers, the Undead's Zombie and
the Possessed's sacrifice, through the services and the captives page."""

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from battles import aftermath as sequences
from battles.captives import exchange, ransom
from battles.captives import fates as captive_fates
from battles.captives import holding as captives
from battles.dice import recorder
from battles.models import Battle, Captive, DiceRoll
from campaign.models import CampaignEvent
from core.dice import ScriptedDice
from core.errors import RuleViolation
from tests import helpers
from tests.factories import (
    MembershipFactory,
    WarbandFactory,
    change_secrets,
    finish,
    hide_secrets,
    hire,
)
from tests.secrets import assert_unchanged_by_secrets
from tests.test_bad_input import SKIPPED, Forms, fuzz
from warbands import treasury
from warbands.models import LedgerEntry, StorageContainer, WarbandType, Warrior

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


def fought(duel) -> Battle:
    return Battle.objects.create(
        campaign=duel["campaign"], scenario="Skirmish", status=Battle.Status.CONFIRMED
    )


def capture(warrior, captor, battle) -> Captive:
    """``warrior`` held by ``captor`` after ``battle``, as step 1 leaves him."""
    Warrior.objects.filter(pk=warrior.pk).update(status=Warrior.Status.CAPTURED)
    warrior.refresh_from_db()
    return Captive.objects.create(warrior=warrior, captor=captor, battle=battle)


def hero(warband, name):
    return warband.warriors.get(name=name)


def empty_chest(warband) -> StorageContainer:
    """A new, empty treasure chest, paid from the fullest sack."""
    sack = warband.containers.filter(kind="large_sack").order_by("-gold_crowns").first()
    return treasury.buy_container(warband, "treasure_chest", actor=warband.owner, pay_from=sack)


def items_of(warrior) -> list[str]:
    return sorted(warrior.items.values_list("item__name", flat=True))


def stored_names(container) -> list[str]:
    return sorted(container.stored_items.values_list("name", flat=True))


def mustered(duel, type_key: str, hires) -> object:
    """A warband of another list in the duel's campaign: ``hires`` are (type, models, name)."""
    warband = WarbandFactory(
        campaign=duel["campaign"], warband_type=WarbandType.objects.get(key=type_key)
    )
    for type_key_, models, name in hires:
        hire(warband, type_key_, models=models, name=name)
    return finish(warband)


@pytest.fixture
def held(duel):
    """Brandt of the Reavers, with his axe, held by the Scourge."""
    battle = fought(duel)
    return capture(hero(duel["reavers"], "Brandt"), duel["scourge"], battle)


# --- The slavers -----------------------------------------------------------------------------


def test_a_captive_sold_for_a_six_brings_30_gc_into_the_chosen_container(duel, held):
    scourge, reavers = duel["scourge"], duel["reavers"]
    chest = empty_chest(scourge)
    carried = items_of(held.warrior)
    dice = ScriptedDice([6], recorder=recorder(held.battle, warband=scourge, user=scourge.owner))

    said = captive_fates.decide_fate(held, actor=scourge.owner, fate="sold", into=chest, dice=dice)

    chest.refresh_from_db()
    assert chest.gold_crowns == 30
    assert stored_names(chest) == carried
    sale = LedgerEntry.objects.get(container=chest, kind="gold")
    assert (sale.amount, sale.reason, sale.battle_id) == (30, "sale", held.battle_id)
    assert LedgerEntry.objects.filter(container=chest, kind="item", reason="capture").count() == (
        len(carried)
    )
    roll = DiceRoll.objects.get(battle=held.battle)
    assert (roll.faces, roll.warband_id, roll.secret) == ([6], scourge.pk, True)
    assert roll.result == "Brandt sold for 30 gc"
    assert roll.public == "Brandt of Reavers sold to the slavers"
    held.refresh_from_db()
    brandt = hero(reavers, "Brandt")
    assert (held.status, brandt.status, items_of(brandt)) == ("sold", "dead", [])
    assert "30 gc" in said
    event = CampaignEvent.objects.get(message__contains="slavers")
    assert event.message == "Scourge sold Brandt of Reavers to the slavers."
    assert not treasury.conservation_problems()


def test_a_captive_sold_twice_is_sold_once(duel, held):
    scourge = duel["scourge"]
    chest = empty_chest(scourge)
    captive_fates.decide_fate(
        held, actor=scourge.owner, fate="sold", into=chest, dice=ScriptedDice([2])
    )
    with pytest.raises(RuleViolation, match="no longer held captive"):
        captive_fates.decide_fate(
            held, actor=scourge.owner, fate="sold", into=chest, dice=ScriptedDice([5])
        )
    chest.refresh_from_db()
    assert chest.gold_crowns == 10


def test_a_sold_leader_leaves_his_warband_a_new_one(duel):
    reavers, scourge = duel["reavers"], duel["scourge"]
    captain = hero(reavers, "Captain Adler")
    captive = capture(captain, scourge, fought(duel))

    captive_fates.decide_fate(
        captive, actor=scourge.owner, fate="sold", into=empty_chest(scourge), dice=ScriptedDice([1])
    )

    assert hero(reavers, "Brandt").is_leader
    assert not hero(reavers, "Captain Adler").is_leader


def test_what_his_pouch_held_goes_to_the_captor_and_the_pouch_is_lost(duel, held):
    reavers, scourge = duel["reavers"], duel["scourge"]
    sack = reavers.containers.filter(kind="large_sack").order_by("-gold_crowns").first()
    Warrior.objects.filter(pk=held.warrior_id).update(status="active")  # filled before
    pouch = treasury.buy_container(
        reavers, "pouch", actor=reavers.owner, pay_from=sack, holder=held.warrior
    )
    treasury.move_treasure(sack, pouch, actor=reavers.owner, gold=5)
    Warrior.objects.filter(pk=held.warrior_id).update(status="captured")
    with pytest.raises(RuleViolation, match="held captive"):  # his owner cannot empty it
        treasury.move_treasure(pouch, sack, actor=reavers.owner, gold=5)
    chest = empty_chest(scourge)

    captive_fates.decide_fate(
        held, actor=scourge.owner, fate="sold", into=chest, dice=ScriptedDice([1])
    )

    chest.refresh_from_db()
    pouch.refresh_from_db()
    assert chest.gold_crowns == 5 + 5
    assert (pouch.status, pouch.gold_crowns) == ("lost", 0)
    assert not treasury.conservation_problems()


def test_equipment_that_does_not_fit_refuses_the_sale_and_changes_nothing(duel, held):
    scourge = duel["scourge"]
    full = scourge.containers.filter(kind="large_sack").order_by("-gold_crowns").first()
    with pytest.raises(RuleViolation, match="gc"):
        captive_fates.decide_fate(
            held, actor=scourge.owner, fate="sold", into=full, dice=ScriptedDice([6])
        )
    held.refresh_from_db()
    assert held.status == "held"
    assert not DiceRoll.objects.exists()


# --- Ransom and exchange ---------------------------------------------------------------------


def test_a_paid_ransom_moves_the_gold_and_brings_him_home_with_his_items(duel, held):
    reavers, scourge = duel["reavers"], duel["scourge"]
    into = empty_chest(scourge)
    carried = items_of(held.warrior)
    ransom.set_ransom(held, actor=scourge.owner, ransom=40, into=into)
    pay_from = reavers.containers.get(kind="treasure_chest")

    ransom.pay_ransom(held, actor=reavers.owner, pay_from=pay_from, amount=40)

    into.refresh_from_db()
    pay_from.refresh_from_db()
    assert (pay_from.gold_crowns, into.gold_crowns) == (100 - 40, 40)
    paid = LedgerEntry.objects.get(container=pay_from, reason="purchase")
    received = LedgerEntry.objects.get(container=into, reason="income")
    assert (paid.amount, paid.warband_id, received.amount, received.warband_id) == (
        -40, reavers.pk, 40, scourge.pk,
    )  # fmt: skip
    brandt = hero(reavers, "Brandt")
    assert (brandt.status, items_of(brandt)) == ("active", carried)
    held.refresh_from_db()
    assert held.status == "ransomed"
    lines = list(CampaignEvent.objects.filter(battle=held.battle).values_list("message", flat=True))
    assert "Reavers ransomed Brandt back from Scourge." in lines
    assert not any("40" in line for line in lines)
    assert not treasury.conservation_problems()


def test_a_ransom_changed_meanwhile_is_not_paid(duel, held):
    reavers, scourge = duel["reavers"], duel["scourge"]
    ransom.set_ransom(held, actor=scourge.owner, ransom=40, into=empty_chest(scourge))
    ransom.set_ransom(held, actor=scourge.owner, ransom=60, into=empty_chest(scourge))
    with pytest.raises(RuleViolation, match="now 60 gc"):
        ransom.pay_ransom(
            held, actor=reavers.owner, pay_from=reavers.containers.get(kind="treasure_chest"),
            amount=40,
        )  # fmt: skip


def test_a_ransom_is_paid_once(duel, held):
    reavers, scourge = duel["reavers"], duel["scourge"]
    ransom.set_ransom(held, actor=scourge.owner, ransom=40, into=empty_chest(scourge))
    chest = reavers.containers.get(kind="treasure_chest")
    ransom.pay_ransom(held, actor=reavers.owner, pay_from=chest, amount=40)
    with pytest.raises(RuleViolation, match="no longer held captive"):
        ransom.pay_ransom(held, actor=reavers.owner, pay_from=chest, amount=40)
    chest.refresh_from_db()
    assert chest.gold_crowns == 60


def test_only_the_captor_asks_and_only_the_owner_pays(duel, held):
    reavers, scourge = duel["reavers"], duel["scourge"]
    with pytest.raises(PermissionDenied):
        ransom.set_ransom(held, actor=reavers.owner, ransom=1, into=empty_chest(scourge))
    ransom.set_ransom(held, actor=scourge.owner, ransom=5, into=empty_chest(scourge))
    with pytest.raises(PermissionDenied):
        ransom.pay_ransom(held, actor=scourge.owner, pay_from=scourge.containers.first(), amount=5)


def test_an_exchange_accepted_brings_both_heroes_home(duel, held):
    reavers, scourge = duel["reavers"], duel["scourge"]
    theirs = scourge.warriors.get(name="Brandt")
    mine = capture(theirs, reavers, held.battle)
    carried = items_of(held.warrior)
    exchange.offer_exchange(held, actor=scourge.owner, for_captive=mine)

    exchange.accept_exchange(held, actor=reavers.owner, offered=mine.pk)

    held.refresh_from_db()
    mine.refresh_from_db()
    assert (held.status, mine.status) == ("exchanged", "exchanged")
    assert hero(reavers, "Brandt").status == "active"
    assert Warrior.objects.get(pk=theirs.pk).status == "active"
    assert items_of(hero(reavers, "Brandt")) == carried == ["Axe", "Dagger"]


def test_an_exchange_is_only_for_ones_own_warrior_held_by_the_other(duel, held):
    scourge = duel["scourge"]
    other = capture(scourge.warriors.get(name="Brandt"), duel["reavers"], held.battle)
    Captive.objects.filter(pk=other.pk).update(captor=scourge)  # not held by the Reavers
    with pytest.raises(RuleViolation, match="not one of yours"):
        exchange.offer_exchange(held, actor=scourge.owner, for_captive=other)


# --- Undead and Possessed --------------------------------------------------------------------


def test_the_undead_kill_a_captive_and_gain_a_zombie(duel):
    undead = mustered(duel, "undead", [("vampire", 1, "Count"), ("zombie", 2, "Shamblers")])
    captive = capture(hero(duel["reavers"], "Brandt"), undead, fought(duel))
    chest = undead.containers.filter(kind="treasure_chest").first()
    chest = empty_chest(undead) if chest.gold_crowns or chest.item_count else chest

    said = captive_fates.decide_fate(captive, actor=undead.owner, fate="zombie", into=chest)

    assert undead.warriors.get(name="Shamblers").group_size == 3
    assert "Axe" in stored_names(chest)
    assert "Zombie" in said
    assert hero(duel["reavers"], "Brandt").status == "dead"
    assert CampaignEvent.objects.filter(kind="death", message__contains="Zombie").exists()


def test_only_the_undead_raise_zombies(duel, held):
    with pytest.raises(RuleViolation, match="cannot do that"):
        captive_fates.decide_fate(
            held, actor=duel["scourge"].owner, fate="zombie", into=empty_chest(duel["scourge"])
        )


def test_the_possessed_sacrifice_gives_their_leader_one_experience_and_an_advance_due(duel):
    cult = mustered(duel, "cult_of_the_possessed", [("magister", 1, "Vex"), ("brethren", 2, "B")])
    magister = cult.warriors.get(name="Vex")
    Warrior.objects.filter(pk=magister.pk).update(experience=23)
    captive = capture(hero(duel["reavers"], "Brandt"), cult, fought(duel))

    said = captive_fates.decide_fate(
        captive, actor=cult.owner, fate="sacrificed", into=empty_chest(cult)
    )

    magister.refresh_from_db()
    assert magister.experience == 24
    assert "an advance is due" in said
    assert CampaignEvent.objects.filter(kind="advance", message__contains="Vex").exists()
    captive.refresh_from_db()
    assert captive.status == "sacrificed"


# --- The page --------------------------------------------------------------------------------


def page(client, user, warband):
    client.force_login(user)
    return client.get(reverse("warband_captives", args=[warband.pk]))


def test_the_page_shows_each_side_its_part(client, duel, held):
    reavers, scourge = duel["reavers"], duel["scourge"]
    ransom.set_ransom(held, actor=scourge.owner, ransom=45, into=empty_chest(scourge))
    captor = page(client, scourge.owner, scourge).content.decode()
    assert "Brandt" in captor and "45 gc" in captor and "Treasure Chest 2" in captor
    owner = page(client, reavers.owner, reavers).content.decode()
    assert "held by Scourge" in owner and "45 gc" in owner
    assert reverse("captive_pay", args=[reavers.pk, held.pk]) in owner
    assert "Treasure Chest 2" not in owner
    assert page(client, duel["organiser"], scourge).status_code == 200
    assert page(client, duel["bystander"], scourge).status_code == 403


def test_nobody_but_the_captor_learns_his_containers_from_the_page(client, duel, held):
    reavers, scourge = duel["reavers"], duel["scourge"]
    hide_secrets(scourge)
    ransom.set_ransom(
        held, actor=scourge.owner, ransom=45, into=scourge.containers.get(kind="treasure_chest")
    )
    for user, warband in ((reavers.owner, reavers), (duel["organiser"], scourge),
                          (duel["organiser"], reavers)):  # fmt: skip
        client.force_login(user)
        url = reverse("warband_captives", args=[warband.pk])
        assert_unchanged_by_secrets(
            lambda url=url: client.get(url).content.decode(), lambda: change_secrets(scourge)
        )


def test_selling_through_the_page_swaps_the_board(client, duel, held):
    scourge = duel["scourge"]
    chest = empty_chest(scourge)
    client.force_login(scourge.owner)
    url = reverse("captive_fate", args=[scourge.pk, held.pk])

    response = client.post(url, {"fate": "sold", "into": chest.pk, "dice": "6"}, headers=HTMX)

    assert response.status_code == 200
    assert 'id="captives-board"' in response.content.decode()
    assert "for 30 gc" in response.content.decode()
    again = client.post(url, {"fate": "sold", "into": chest.pk, "dice": "6"}, headers=HTMX)
    assert again.status_code == 422
    assert "no longer held captive" in again.content.decode()
    chest.refresh_from_db()
    assert chest.gold_crowns == 30
    assert DiceRoll.objects.get().source == "entered"


def test_paying_through_the_page_without_htmx_goes_back_to_the_page(client, duel, held):
    reavers, scourge = duel["reavers"], duel["scourge"]
    ransom.set_ransom(held, actor=scourge.owner, ransom=30, into=empty_chest(scourge))
    client.force_login(reavers.owner)
    chest = reavers.containers.get(kind="treasure_chest")

    response = client.post(
        reverse("captive_pay", args=[reavers.pk, held.pk]), {"amount": 30, "pay_from": chest.pk}
    )

    assert response.status_code == 302
    assert response["Location"] == reverse("warband_captives", args=[reavers.pk])
    assert hero(reavers, "Brandt").status == "active"


def test_the_opponent_and_strangers_cannot_act(client, duel, held):
    reavers, scourge = duel["reavers"], duel["scourge"]
    chest = empty_chest(scourge)
    data = {"fate": "sold", "into": chest.pk, "dice": "6"}
    url = reverse("captive_fate", args=[scourge.pk, held.pk])
    client.force_login(reavers.owner)
    assert client.post(url, data, headers=HTMX).status_code == 403
    # The captive's own player, through his own warband: the captive is not his to sell.
    mine = reverse("captive_fate", args=[reavers.pk, held.pk])
    assert client.post(mine, data, headers=HTMX).status_code == 404
    stranger = MembershipFactory().user
    client.force_login(stranger)
    assert client.post(url, data, headers=HTMX).status_code == 404
    client.force_login(duel["organiser"])
    assert client.post(url, data, headers=HTMX).status_code == 403
    held.refresh_from_db()
    assert held.status == "held"


def test_a_form_error_comes_back_as_the_board_with_422(client, duel, held):
    scourge = duel["scourge"]
    client.force_login(scourge.owner)
    response = client.post(
        reverse("captive_ransom", args=[scourge.pk, held.pk]), {"ransom": 20}, headers=HTMX
    )
    assert response.status_code == 422
    assert "Choose the container" in response.content.decode()


# --- The step that took him ------------------------------------------------------------------


def test_the_injuries_step_cannot_be_undone_once_its_captive_is_sold(duel):
    reavers, scourge = duel["reavers"], duel["scourge"]
    brandt = hero(reavers, "Brandt")
    battle = helpers.fought(duel, [(brandt, True, 0, 0, scourge.warriors.get(is_leader=True))])
    sequence = helpers.play_to(helpers.sequence_of(battle, reavers), 1, reavers.owner)
    sequences.prepare(sequence)
    helpers.roll(sequence, sequence.tasks.get(step=1), [6, 1], reavers.owner)  # 61, Captured
    sequences.complete_step(sequence, actor=reavers.owner, step=1)
    captive = Captive.objects.get(warrior=brandt)
    captive_fates.decide_fate(
        captive, actor=scourge.owner, fate="sold", into=empty_chest(scourge),
        dice=ScriptedDice([3]),
    )  # fmt: skip

    with pytest.raises(RuleViolation, match="Brandt, taken captive in that step, has been sold"):
        sequences.undo_last_step(sequence, actor=reavers.owner, step=1)

    captive.refresh_from_db()
    assert (captive.status, hero(reavers, "Brandt").status) == ("sold", "dead")


def test_offers_through_the_page_and_the_exchange_accepted(client, duel, held):
    reavers, scourge = duel["reavers"], duel["scourge"]
    theirs = capture(scourge.warriors.get(name="Captain Adler"), reavers, held.battle)
    chest = empty_chest(scourge)
    client.force_login(scourge.owner)

    asked = client.post(
        reverse("captive_ransom", args=[scourge.pk, held.pk]),
        {"ransom": 25, "into": chest.pk},
        headers=HTMX,
    )
    offered = client.post(
        reverse("captive_exchange", args=[scourge.pk, held.pk]),
        {"for_captive": theirs.pk},
        headers=HTMX,
    )

    assert asked.status_code == offered.status_code == 200
    assert "You offer Brandt in exchange for Captain Adler." in offered.content.decode()
    client.force_login(reavers.owner)
    page_html = client.get(reverse("warband_captives", args=[reavers.pk])).content.decode()
    assert "25 gc" in page_html and "Accept the exchange" in page_html
    accept = reverse("captive_accept", args=[reavers.pk, held.pk])
    assert client.post(accept, {"offered": theirs.pk + 1}, headers=HTMX).status_code == 422
    response = client.post(accept, {"offered": theirs.pk}, headers=HTMX)
    assert response.status_code == 200
    assert "Brandt is back; Captain Adler went home." in response.content.decode()
    assert Captive.objects.filter(status="exchanged").count() == 2


def test_no_captives_form_answers_bad_input_with_a_server_error(client, duel, held):
    """Every form of both players' captives pages, posted with bad values (``test_bad_input``):
    a success or a refusal with its message, never a server error; a refusal changes nothing."""
    reavers, scourge = duel["reavers"], duel["scourge"]
    theirs = capture(scourge.warriors.get(name="Captain Adler"), reavers, held.battle)
    ransom.set_ransom(held, actor=scourge.owner, ransom=25, into=empty_chest(scourge))
    exchange.offer_exchange(held, actor=scourge.owner, for_captive=theirs)
    problems, actions = [], set()
    for warband in (scourge, reavers):
        client.force_login(warband.owner)
        parser = Forms()
        parser.feed(client.get(reverse("warband_captives", args=[warband.pk])).content.decode())
        for action, fields in parser.forms:
            if action.startswith(SKIPPED):
                continue
            actions.add(action.split("/")[-2])
            problems += fuzz(client, action, fields)
    assert not problems, "\n".join(problems[:20])
    assert actions == {"ransom", "exchange", "fate", "pay", "accept"}


def test_the_carnival_counts_as_the_possessed_for_its_captives(duel):
    carnival = WarbandFactory(
        campaign=duel["campaign"], warband_type=WarbandType.objects.get(key="carnival_of_chaos")
    )

    assert Captive.Status.SACRIFICED in dict(captives.fates_for(carnival))
    assert Captive.Status.SACRIFICED not in dict(captives.fates_for(duel["reavers"]))
