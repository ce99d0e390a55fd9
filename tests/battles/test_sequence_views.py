"""The post-battle sequence page through the test client: htmx swaps, refusals, who may see
and do what, the secret treasury steps and query counts."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from battles import aftermath as sequences
from battles.models import DiceRoll, PostBattleSequence
from tests.factories import SECRET_ITEM, change_secrets, hide_secrets, hire
from tests.helpers import (
    act,
    at_step,
    battle_of,
    chest,
    fought,
    play_to,
    roll,
    sack_with_room,
    sequence_of,
    warriors,
)
from tests.secrets import assert_unchanged_by_secrets, contains_value
from warbands import treasury
from warbands.models import LedgerEntry, Skill, StorageContainer, StoredItem, Warband, WarriorSkill

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


def page(client, sequence, user):
    client.force_login(user)
    return client.get(reverse("sequence_detail", args=[sequence.pk]))


def post(client, name, sequence, data, user=None):
    if user is not None:
        client.force_login(user)
    return client.post(reverse(name, args=[sequence.pk]), data, headers=HTMX)


def test_the_owner_plays_a_step_and_gets_the_next_one_back(client, duel):
    reavers = duel["reavers"]
    sequence = sequence_of(fought(duel), reavers)
    client.force_login(reavers.owner)

    response = post(client, "sequence_complete", sequence, {"step": 0})

    assert response.status_code == 200
    assert "Step 1: Injuries" in response.content.decode()
    assert '<div id="step-panel"' in response.content.decode()


class TestAtStep4:
    """The Reavers at step 4, played once for the class."""

    AT_STEP = 4

    def test_a_step_posted_twice_applies_once_and_says_so(self, reavers_at, client, duel):
        reavers = duel["reavers"]
        sequence, _ = reavers_at
        client.force_login(reavers.owner)

        first = post(client, "sequence_complete", sequence, {"step": 4})
        second = post(client, "sequence_complete", sequence, {"step": 4})

        assert first.status_code == 200 and second.status_code == 422
        assert "already done: nothing changed" in second.content.decode()
        sequence.refresh_from_db()
        assert sequence.current_step == 5
        assert sequence.records.filter(step=4, undone_at__isnull=True).count() == 1

    def test_bad_input_is_refused_with_its_reason_and_changes_nothing(
        self, reavers_at, client, duel
    ):
        reavers = duel["reavers"]
        sequence, _ = reavers_at
        before = LedgerEntry.objects.count()
        client.force_login(reavers.owner)

        response = post(
            client, "sequence_act", sequence,
            {"step": 4, "action": "sell", "shards": "lots", "into": "pile"},
        )  # fmt: skip

        assert response.status_code == 422
        assert "Shards to sell: give a whole number." in response.content.decode()
        assert LedgerEntry.objects.count() == before
        response = post(client, "sequence_act", sequence, {"step": "four", "action": "sell"})
        assert response.status_code == 422 and "out of date" in response.content.decode()

    def test_who_may_open_and_play_a_sequence(self, reavers_at, client, duel, django_user_model):
        sequence, _ = reavers_at
        stranger = django_user_model.objects.create_user("stranger", password="x" * 12)

        assert page(client, sequence, stranger).status_code == 404
        assert page(client, sequence, duel["bystander"]).status_code == 403
        assert page(client, sequence, duel["scourge"].owner).status_code == 403
        assert page(client, sequence, duel["organiser"]).status_code == 200
        for user in (duel["scourge"].owner, duel["organiser"]):
            response = post(client, "sequence_complete", sequence, {"step": 4}, user)
            assert response.status_code == 403
        sequence.refresh_from_db()
        assert sequence.current_step == 4


class TestAtStep9:
    """The Reavers at step 9, played once for the class."""

    AT_STEP = 9

    def test_an_action_of_the_step_answers_with_the_step_alone(self, reavers_at, client, duel):
        """An action changes nothing in the list of steps: its answer is the step's part only,
        swapped in place of the page's (HX-Retarget), and a second post of the same form gets the
        same answer without moving the gold again."""
        reavers = duel["reavers"]
        sequence, _ = reavers_at
        boxes = sorted(
            (c for c in treasury.held_containers(reavers) if c.kind != "loose"),
            key=lambda c: c.gold_crowns,
        )
        rich, other = boxes[-1], boxes[0]
        client.force_login(reavers.owner)
        data = {"step": 9, "action": "move", "source": rich.pk, "target": other.pk, "gold": 1,
                "wyrdstone": 0, "form_token": "6f1b2a52-3c1e-4f7e-9a51-0d6c3f1e2b7a"}  # fmt: skip

        first = post(client, "sequence_act", sequence, data)
        again = post(client, "sequence_act", sequence, data)

        assert first.status_code == again.status_code == 200
        for response in (first, again):
            assert (response["HX-Retarget"], response["HX-Reswap"]) == ("#step-body", "outerHTML")
        html = first.content.decode()
        assert (
            html.lstrip().startswith('<section id="step-body"') and 'aria-label="Steps"' not in html
        )
        assert f'<option value="{rich.pk}">' in html and "Step 9:" in html
        assert "Undo step 8" not in html  # the step has started: the earlier one stays done
        assert again.content == first.content and again["X-Replayed"] == "1"
        moved = LedgerEntry.objects.filter(container=other, reason="transfer", amount=1).count()
        assert moved == 1

    def test_undo_from_two_tabs_undoes_one_step(self, reavers_at, client, duel):
        reavers = duel["reavers"]
        sequence, _ = reavers_at
        client.force_login(reavers.owner)
        page = client.get(reverse("sequence_detail", args=[sequence.pk])).content.decode()
        assert "Undo step 8" in page

        first = post(client, "sequence_undo", sequence, {"step": 8})
        second = post(client, "sequence_undo", sequence, {"step": 8})

        assert first.status_code == 200 and second.status_code == 422
        assert "not the last step done any more" in second.content.decode()
        sequence.refresh_from_db()
        assert sequence.current_step == 8


@pytest.mark.parametrize("step", [3, 4, 5, 6, 7, 8, 9, 10])
def test_every_treasury_step_renders_for_its_owner(client, duel, step):
    reavers = duel["reavers"]
    sequence = play_to(sequence_of(battle_of(duel), reavers), step, reavers.owner)

    response = page(client, sequence, reavers.owner)

    assert response.status_code == 200
    text = response.content.decode()
    assert f"Step {step}:" in text
    if step < 10:
        assert "Your treasury:" in text


def options_of(html, name):
    """(value, label) of each option of the select called ``name``: one per form that has it."""
    selects = re.findall(rf'<select name="{name}"[^>]*>(.*?)</select>', html, re.S)
    assert selects, f"no select {name!r}"
    return [re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)</option>', s) for s in selects]


def test_every_list_of_containers_names_the_hero_who_carries_a_pouch(client, duel):
    reavers = duel["reavers"]
    captain, _, _ = warriors(reavers)
    chest = reavers.containers.get(kind="treasure_chest")
    pouch = treasury.buy_container(
        reavers, "pouch", actor=reavers.owner, pay_from=chest, holder=captain
    )
    treasury.move_treasure(chest, pouch, actor=reavers.owner, gold=6)
    shown = f"{pouch} of {captain.name} (6 gc)"
    sequence = play_to(sequence_of(battle_of(duel), reavers), 6, reavers.owner)
    sequences.prepare(sequence)
    rarity = sequence.tasks.filter(step=6, kind="rarity", warrior=captain).get()
    roll(sequence, rarity, [4, 3], reavers.owner)

    step_6 = page(client, sequence, reavers.owner).content.decode()
    assert (f"container:{pouch.pk}", f"the {shown}") in options_of(step_6, "to")[0]
    assert (str(pouch.pk), shown) in options_of(step_6, "pay_from")[0]
    chest.refresh_from_db()
    chest_gold = f"{chest} ({chest.contents_label})"
    assert (str(chest.pk), chest_gold) in options_of(step_6, "pay_from")[0]

    sequence = play_to(sequence, 8, reavers.owner)
    step_8 = page(client, sequence, reavers.owner).content.decode()
    assert (str(pouch.pk), shown) in options_of(step_8, "into")[0]
    for pay_from in options_of(step_8, "pay_from"):
        assert (str(pouch.pk), shown) in pay_from
        assert pay_from[0] == ("", "Any container with enough (or several together)")
        assert all(label != "(empty)" and "(empty)" not in label for _, label in pay_from)


def test_an_organiser_follows_the_treasury_steps_by_name_only(client, duel):
    reavers = duel["reavers"]
    hide_secrets(reavers)
    sequence = play_to(sequence_of(battle_of(duel), reavers), 9, reavers.owner)

    text = page(client, sequence, duel["organiser"]).content.decode()
    assert "is secret: only" in text
    assert SECRET_ITEM not in text and "Your treasury" not in text
    assert "Stored" not in text  # the summaries of the treasury steps are hidden too
    assert_unchanged_by_secrets(
        lambda: page(client, sequence, duel["organiser"]).content.decode(),
        lambda: change_secrets(reavers),
    )
    campaign = duel["campaign"]
    campaign.organiser_sees_secrets = True
    campaign.save()
    text = page(client, sequence, duel["organiser"]).content.decode()
    assert SECRET_ITEM in text and "Your treasury" in text
    assert "<form" not in text.split('id="step-heading"')[1].split("Reopen an earlier step")[0]


def test_the_opponent_sees_that_treasury_rolls_were_made_but_not_what_they_found(client, duel):
    reavers, scourge = duel["reavers"], duel["scourge"]
    battle = battle_of(duel)
    sequence = play_to(sequence_of(battle, reavers), 3, reavers.owner)
    sequences_page = reverse("battle_detail", args=[battle.pk])
    client.force_login(reavers.owner)
    client.get(reverse("sequence_detail", args=[sequence.pk]))  # the page lists the rolls
    task = sequence.tasks.get(step=3, kind="exploration")
    post_task = reverse("sequence_task", args=[sequence.pk, task.pk])
    client.post(post_task, {"step": 3, "dice": "6 6 2"}, headers=HTMX)
    location = sequence.tasks.get(step=3, kind="location")
    client.post(reverse("sequence_task", args=[sequence.pk, location.pk]),
                {"step": 3, "dice": "5"}, headers=HTMX)  # fmt: skip
    assert treasury.loose_pile(reavers).gold_crowns == 5

    own = client.get(sequences_page).content.decode()
    assert "Ruined Hovels" in own and "Exploration dice" in own

    client.force_login(scourge.owner)
    theirs = client.get(sequences_page).content.decode()
    assert "A roll in a secret step of the post-battle sequence" in theirs
    assert "Ruined Hovels" not in theirs and "Exploration dice" not in theirs
    assert "wyrdstone shards" not in theirs
    hide_secrets(reavers)
    assert_unchanged_by_secrets(
        lambda: client.get(sequences_page).content.decode(), lambda: change_secrets(reavers)
    )


def test_the_treasury_ledger_filters_by_battle(client, duel):
    reavers = duel["reavers"]
    battle = battle_of(duel)
    play_to(sequence_of(battle, reavers), 4, reavers.owner)  # exploring found 2 shards
    client.force_login(reavers.owner)
    url = reverse("warband_treasury", args=[reavers.pk])

    filtered = client.get(url, {"battle": battle.pk}).content.decode()
    everything = client.get(url).content.decode()

    assert "after Skirmish, step 3" in filtered
    assert "Starting treasury" in everything and "Starting treasury</td>" not in filtered
    assert LedgerEntry.objects.filter(battle=battle, step=3).exists()


def _queries(client, sequence, user) -> int:
    client.force_login(user)
    url = reverse("sequence_detail", args=[sequence.pk])
    client.get(url)  # warm caches (sessions, content types)
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


@pytest.mark.parametrize("step", [8, 9])
def test_the_page_does_not_query_more_for_a_bigger_roster(client, duel, step):
    reavers = duel["reavers"]
    battle = battle_of(duel)
    sequence = play_to(sequence_of(battle, reavers), step, reavers.owner)
    small = _queries(client, sequence, reavers.owner)

    for name in ("Ansel", "Bruno"):
        _draft_hire(reavers, name)
    sequence = PostBattleSequence.objects.get(pk=sequence.pk)

    assert _queries(client, sequence, reavers.owner) == small


def _draft_hire(warband, name):
    """Add a warrior with equipment straight to the roster (the purse is topped up)."""

    Warband.objects.filter(pk=warband.pk).update(status="draft", gold_crowns=200)
    warband.refresh_from_db()
    hire(warband, "warrior", models=2, items=["spear", "dagger"], name=name)
    Warband.objects.filter(pk=warband.pk).update(status="active", gold_crowns=0)
    warband.refresh_from_db()


def test_rolls_made_before_a_question_say_what_they_decided_once_it_is_answered(client, duel):

    reavers = duel["reavers"]
    champion = reavers.warriors.get(name="Brandt")
    WarriorSkill.objects.create(warrior=champion, skill=Skill.objects.get(key="wyrdstone_hunter"))
    sequence = play_to(sequence_of(battle_of(duel), reavers), 3, reavers.owner)
    client.force_login(reavers.owner)
    client.get(reverse("sequence_detail", args=[sequence.pk]))
    task = sequence.tasks.get(step=3, kind="exploration")
    url = reverse("sequence_task", args=[sequence.pk, task.pk])

    asked = client.post(url, {"step": 3, "dice": "1 2 3"}, headers=HTMX).content.decode()
    assert "Wyrdstone Hunter (Brandt): re-roll one die?" in asked
    assert DiceRoll.objects.get(purpose="Exploration dice").result.endswith(
        f"waiting for an answer (task {task.pk})"
    )
    client.post(url, {"step": 3, "answer": "0"}, headers=HTMX)  # the re-roll: asked for next
    client.post(url, {"step": 3, "dice": "6"}, headers=HTMX)

    results = list(DiceRoll.objects.filter(battle=sequence.participant.battle, secret=True)
                   .values_list("purpose", "result"))  # fmt: skip
    assert [purpose for purpose, _ in results] == [
        "Exploration dice", "Exploration: re-roll (Wyrdstone Hunter (Brandt))",
    ]  # fmt: skip
    assert all("Dice 6 2 3 = 11; Wyrdstone Hunter (Brandt): re-rolled 1 into 6" in r
               for _, r in results)  # fmt: skip


# --- A refused reopening names no secret ---------------------------------------------------


def _reopen_refused_by_a_full_chest(duel):
    """Step 9 moved 7 gc out of the Reavers' chest; since then the owner filled it again to
    its 100 gc: reopening step 9 would put the 7 gc back, which the chest cannot hold."""
    reavers = duel["reavers"]
    sequence, owner = at_step(duel, 9)
    box, sack = chest(reavers), sack_with_room(reavers)
    assert box.gold_crowns == 100
    act(sequence, "move", owner, source=box.pk, target=sack.pk, gold=7)
    sequences.complete_step(sequence, actor=owner, step=9)
    treasury.move_treasure(sack_with_room(reavers), chest(reavers), actor=owner, gold=7)
    return sequence, "Only 100 gc fit in the Treasure Chest (that would make 107)"


def _reopen_refused_by_an_item_moved_on(duel):
    """Step 9 put the captain's sword into a large sack the owner named "Wqzt Cache"; since
    then the champion took it: reopening step 9 would take the sword out of the sack."""
    reavers = duel["reavers"]
    captain, champion, _ = warriors(reavers)
    sequence, owner = at_step(duel, 9)
    sack = sack_with_room(reavers)
    StorageContainer.objects.filter(pk=sack.pk).update(label="Wqzt Cache")
    act(sequence, "unequip", owner, owned=captain.items.get(item__key="sword").pk, target=sack.pk)
    sequences.complete_step(sequence, actor=owner, step=9)
    stored = StoredItem.objects.get(container=sack, item__key="sword")
    treasury.equip_stored_item(stored, champion, actor=owner)
    return sequence, "Wqzt Cache"


ADDRESSES_AND_IDS = re.compile(r'\s(?:id|for|href|action|hx-[a-z]+|aria-[a-z]+)="[^"]*"')


@pytest.mark.parametrize(
    "scene", [_reopen_refused_by_a_full_chest, _reopen_refused_by_an_item_moved_on]
)
def test_a_refused_reopening_tells_an_organiser_no_secret(client, duel, scene):
    sequence, secret = scene(duel)
    before = list(LedgerEntry.objects.values_list("pk", flat=True))

    response = post(
        client,
        "sequence_reopen",
        sequence,
        {"step": 9, "current": 10, "reason": "Misread"},
        duel["organiser"],
    )

    body = response.content.decode()
    assert response.status_code == 422
    assert "That step cannot be reopened: later treasury changes depend on it." in body
    assert secret not in body
    # Nor the amount, which may only appear as a row's id in an address or an element's id.
    assert not contains_value(ADDRESSES_AND_IDS.sub("", body), 107)
    assert list(LedgerEntry.objects.values_list("pk", flat=True)) == before
    sequence.refresh_from_db()
    assert sequence.current_step == 10

    campaign = duel["campaign"]  # once the campaign lets organisers see inside, it says why
    campaign.organiser_sees_secrets = True
    campaign.save()
    response = post(
        client, "sequence_reopen", sequence, {"step": 9, "current": 10, "reason": "Misread"}
    )
    assert response.status_code == 422 and secret in response.content.decode()


WRITES = ("INSERT", "UPDATE", "DELETE")


def test_drawing_a_step_never_writes_its_rolls_are_listed_as_it_becomes_current(client, duel):
    """Steps 1 and 3 roll dice: their rolls are listed when the step before is completed, so
    the page of each step only reads, whoever draws it and however often."""
    reavers = duel["reavers"]
    sequence = sequence_of(battle_of(duel, champion_out=True), reavers)
    client.force_login(reavers.owner)
    post(client, "sequence_complete", sequence, {"step": 0})
    assert sequence.tasks.filter(step=1, void=False).exists()  # listed by completing step 0

    for _ in range(2):
        with CaptureQueriesContext(connection) as seen:
            response = client.get(reverse("sequence_detail", args=[sequence.pk]))
        assert response.status_code == 200
        assert "serious injury" in response.content.decode()
        assert [q["sql"] for q in seen.captured_queries if q["sql"].startswith(WRITES)] == []

    sequence = play_to(sequence, 3, reavers.owner)
    exploration = sequence.tasks.filter(step=3, void=False)
    assert list(exploration.values_list("kind", flat=True)) == ["exploration"]
    with CaptureQueriesContext(connection) as seen:
        response = client.get(reverse("sequence_detail", args=[sequence.pk]))
    assert "Exploration:" in response.content.decode()
    assert [q["sql"] for q in seen.captured_queries if q["sql"].startswith(WRITES)] == []


def test_undoing_a_step_lists_the_next_ones_rolls_again_from_the_roster_as_it_is(client, duel):
    """Undo voids the rolls of the step that was current (none of them rolled yet): reached
    again, it lists them from the roster as the redone step left it."""
    reavers = duel["reavers"]
    sequence = play_to(sequence_of(battle_of(duel), reavers), 3, reavers.owner)
    listed = list(sequence.tasks.filter(step=3, void=False).values_list("pk", flat=True))
    assert listed

    sequences.undo_last_step(sequence, actor=reavers.owner, step=2)

    assert not sequence.tasks.filter(step=3, void=False).exists()
    sequence.refresh_from_db()
    sequences.act(sequence, actor=reavers.owner, step=2, action="award")
    sequences.complete_step(sequence, actor=reavers.owner, step=2)
    relisted = list(sequence.tasks.filter(step=3, void=False).values_list("pk", flat=True))
    assert relisted and not set(relisted) & set(listed)
