"""After the game, at a glance: step 10 shows the rating before and after,
step 2's gains stay on screen once awarded, each purchase of steps 6 and 8 gives a receipt
line naming where the money came from (to the owner only), and step 6 names no other list's
rarity bonus.

The Reavers (Reikland) muster with Captain Adler (sword), Brandt the champion (axe) and three
Stadtwache (spears); 277 gc sit in the chest (100) and four large sacks (50, 50, 50, 27).
"""

import pytest
from django.urls import reverse

from battles import aftermath as sequences
from battles.aftermath.rare_items import rarity_modifiers
from tests.helpers import act, at_step, chest, play_to, roll, warriors
from warbands import services as warband_services
from warbands import treasury
from warbands.models import Item, WarbandType

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


def page(client, sequence, user) -> str:
    client.force_login(user)
    response = client.get(reverse("sequence_detail", args=[sequence.pk]))
    assert response.status_code == 200
    return response.content.decode()


def smallest_sack(warband):
    return warband.containers.filter(kind="large_sack").order_by("gold_crowns", "pk").first()


# --- Step 8: receipts ----------------------------------------------------------------------


class TestAtStep8:
    """The Reavers at step 8, played once for the class."""

    AT_STEP = 8

    def test_a_step_8_purchase_gives_a_receipt_naming_the_container_paid_from(
        self, reavers_at, client, duel
    ):
        reavers = duel["reavers"]
        _, brandt, _ = warriors(reavers)
        sequence, owner = reavers_at
        sword = Item.objects.get(key="sword").name

        act(sequence, "buy", owner, warrior=brandt.pk, item="sword", pay_from=chest(reavers).pk)

        line = f"Bought {sword} for Brandt: 10 gc from the Treasure Chest."
        assert sequences.handler(8).page_context(sequence, owner)["receipts"] == [line]
        assert line in page(client, sequence, owner)

    def test_hires_buys_for_a_group_and_sales_each_give_a_line_in_order(self, reavers_at, duel):
        reavers = duel["reavers"]
        _, _, guards = warriors(reavers)
        sequence, owner = reavers_at
        warrior_type = reavers.warband_type.warrior_types.get(key="warrior")
        shield = Item.objects.get(key="shield").name
        spear = Item.objects.get(key="spear").name
        box = chest(reavers).pk

        act(sequence, "hire", owner, warrior_type=warrior_type.pk, name="Guards", group_size=2,
            pay_from=box)  # fmt: skip
        act(sequence, "buy", owner, warrior=guards.pk, item="shield", pay_from=box)
        owned = guards.items.get(item__key="spear")
        act(sequence, "sell", owner, what=f"owned:{owned.pk}", into=box)

        cost = warrior_type.cost * 2
        assert sequence.state["receipts"]["8"] == [
            f"Hired Guards ({warrior_type.name} ×2): {cost} gc from the Treasure Chest.",
            f"Bought {shield} ×3 for Stadtwache: 15 gc from the Treasure Chest.",
            f"Sold {spear} of Stadtwache: {Item.objects.get(key='spear').sale_price * 3} gc into "
            "the Treasure Chest.",
        ]

    def test_the_receipt_comes_back_with_the_htmx_swap(self, reavers_at, client, duel):
        reavers = duel["reavers"]
        _, brandt, _ = warriors(reavers)
        sequence, owner = reavers_at
        client.force_login(owner)

        response = client.post(
            reverse("sequence_act", args=[sequence.pk]),
            {"step": 8, "action": "buy", "warrior": brandt.pk, "item": "sword",
             "pay_from": chest(reavers).pk},
            headers=HTMX,
        )  # fmt: skip

        assert response.status_code == 200
        assert response["HX-Retarget"] == "#step-body"
        body = response.content.decode()
        assert 'data-testid="receipts"' in body
        assert "for Brandt: 10 gc from the Treasure Chest." in body

    def test_undoing_step_8_takes_its_receipts_back(self, reavers_at, duel):
        reavers = duel["reavers"]
        _, brandt, _ = warriors(reavers)
        sequence, owner = reavers_at
        act(sequence, "buy", owner, warrior=brandt.pk, item="sword", pay_from=chest(reavers).pk)
        sequences.complete_step(sequence, actor=owner, step=8)

        sequences.undo_last_step(sequence, actor=owner, step=8)

        sequence.refresh_from_db()
        assert sequence.current_step == 8
        assert sequences.handler(8).page_context(sequence, owner)["receipts"] == []

    def test_nobody_but_the_owner_sees_a_receipt(self, reavers_at, client, duel):
        """The opponent follows the sequence on the battle page, the organiser (who may not see
        the treasury) on the sequence page: neither reads what was bought from which container."""
        reavers = duel["reavers"]
        _, brandt, _ = warriors(reavers)
        sequence, owner = reavers_at
        act(sequence, "buy", owner, warrior=brandt.pk, item="sword", pay_from=chest(reavers).pk)
        battle = sequence.participant.battle

        client.force_login(duel["scourge"].owner)
        opponent = client.get(reverse("battle_detail", args=[battle.pk])).content.decode()
        organiser = page(client, sequence, duel["organiser"])

        for shown in (opponent, organiser):
            assert "from the Treasure Chest" not in shown
            assert "receipts" not in shown
        assert "Step 8" in organiser  # he follows it, by name only


def test_a_price_paid_from_two_containers_names_both(duel):
    reavers = duel["reavers"]
    captain, _, _ = warriors(reavers)
    sack = smallest_sack(reavers)  # 27 gc
    treasury.add_treasure(sack, gold=4 - sack.gold_crowns, reason="income")
    sequence, owner = at_step(duel, 8)
    first = (
        reavers.containers.filter(status="held").exclude(kind="loose").exclude(pk=sack.pk)
    ).order_by("pk")[0]

    act(sequence, "buy", owner, warrior=captain.pk, item="sword", pay_from=sack.pk)

    sword = Item.objects.get(key="sword").name
    assert sequence.state["receipts"]["8"] == [
        f"Bought {sword} for Captain Adler: 10 gc: 4 from the {sack}, 6 from the {first}."
    ]


# --- Step 6: receipts and rarity modifiers -------------------------------------------------


def test_a_rare_item_bought_gives_a_receipt(client, duel):
    reavers = duel["reavers"]
    captain, _, _ = warriors(reavers)
    sequence, owner = at_step(duel, 6, champion_out=True)
    sequences.prepare(sequence)
    task = sequence.tasks.get(step=6, kind="rarity")
    roll(sequence, task, [4, 3], owner)  # 7: a lucky charm (10 gc)

    act(sequence, "buy_rare", owner, task=task.pk, goods="item:lucky_charm",
        to=f"warrior:{captain.pk}", pay_from=chest(reavers).pk)  # fmt: skip

    charm = Item.objects.get(key="lucky_charm").name
    line = f"Bought {charm} for Captain Adler: 10 gc from the Treasure Chest."
    shown = page(client, sequence, owner)
    assert line in shown
    assert shown.index(line) > shown.index("Captain Adler&#x27;s rarity roll")


def test_step_6_lists_only_the_warbands_own_rarity_bonus(client, duel):
    sequence, owner = at_step(duel, 6)

    shown = page(client, sequence, owner)

    assert "rolls 2D6 (Streetwise +2, kept gems +1)" in shown
    assert "Marienburg" not in shown


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("marienburg", ["Streetwise +2", "Marienburg Mercenaries +1", "kept gems +1"]),
        ("skaven", ["Streetwise +2", "kept gems +1"]),
        ("reikland", ["Streetwise +2", "kept gems +1"]),
    ],
)
def test_rarity_modifiers_name_the_lists_own_bonus_only(key, expected):
    assert rarity_modifiers(WarbandType.objects.get(key=key)) == expected


# --- Step 10: the rating before and after --------------------------------------------------


class TestAtStep10:
    """The Reavers at step 10, played once for the class."""

    AT_STEP = 10

    def test_step_10_shows_the_rating_before_the_battle_and_now(self, reavers_at, client, duel):
        reavers = duel["reavers"]
        sequence, owner = reavers_at
        before = sequence.participant.rating_before
        now = warband_services.ratings_of([reavers])[reavers.pk]
        assert now > before  # the experience of step 2 counts

        shown = page(client, sequence, owner)

        assert 'data-testid="rating-change"' in shown
        assert f"<td>{before}</td><td>{now}</td><td>+{now - before}</td>" in shown

    def test_finishing_step_10_keeps_both_ratings_in_its_summary(self, reavers_at, duel):
        reavers = duel["reavers"]
        sequence, owner = reavers_at
        before = sequence.participant.rating_before

        sequences.complete_step(sequence, actor=owner, step=10)

        now = warband_services.ratings_of([reavers])[reavers.pk]
        summary = sequences.live_records(sequence).get(step=10).summary
        assert summary == f"Rating {now}. Before the battle: {before}."


# --- Step 2: the gains stay on screen -------------------------------------------------------


def gains_shown(sequence) -> list[str]:
    return [
        f"{gain['name']}: {gain['before']} → {gain['after']}"
        for gain in sequence.state["experience_lines"]
    ]


def test_step_2s_gains_stay_on_screen_in_the_later_steps(client, duel):
    reavers = duel["reavers"]
    sequence, owner = at_step(duel, 3)
    lines = gains_shown(sequence)
    assert lines[0] == "Captain Adler: 20 → 22"  # survived, led the winners

    shown = page(client, sequence, owner)

    assert 'data-testid="experience-kept"' in shown
    for line in lines:
        assert line in shown
    assert "+1 survived" in shown

    play_to(sequence, 11, reavers.owner)  # the sequence complete
    shown = page(client, sequence, owner)
    assert sequence.is_complete and all(line in shown for line in lines)


def test_the_organiser_sees_the_gains_too_but_not_before_they_are_awarded(client, duel):
    sequence, owner = at_step(duel, 2)
    assert 'data-testid="experience-kept"' not in page(client, sequence, duel["organiser"])

    sequences.act(sequence, actor=owner, step=2, action="award")
    for task in sequence.tasks.filter(step=2, void=False, done=False):
        roll(sequence, task, [3, 4, 1], owner, answers={})
    sequence.refresh_from_db()
    sequences.complete_step(sequence, actor=owner, step=2)

    shown = page(client, sequence, duel["organiser"])
    assert 'data-testid="experience-kept"' in shown
    assert gains_shown(sequence)[0] in shown
