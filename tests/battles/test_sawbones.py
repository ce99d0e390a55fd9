"""Sawbones (optional rules, Town Cryer 8), played when the campaign's house rules say so: in
step 6 a hero sees a physician about one lasting injury instead of his rarity roll, pays 20 gc
and rolls 2D6 on the limb or brain surgery table. The tables entry by entry against the text,
then each kind of outcome through the step with scripted dice, and the refusals."""

import re
from pathlib import Path

import pytest
from django.urls import reverse

from battles import aftermath as sequences
from battles.models import SequenceTask
from battles.rules import sawbones as rules
from campaign.models import CampaignEvent
from core.dice import ScriptedDice
from core.errors import RuleViolation
from tests.helpers import act, at_step, gold, warriors
from tests.race.sequence_races import leave_gold
from tests.sharing import per_test, read_again, shared_per_module
from warbands import treasury
from warbands.models import HouseRules, Injury, Warrior

pytestmark = pytest.mark.django_db
RULES = Path(__file__).resolve().parents[3] / "shared/rules/reference"
TEXT = RULES / "03-campaigns-magic-optional-rules.md"


def table_rows(title: str) -> dict[str, str]:
    """The rows of one surgery table of the Sawbones text: its 2D6 band → its result."""
    section = TEXT.read_text(encoding="utf-8").split("## Optional Rules — Sawbones", 1)[1]
    table = section.split(f"### {title}", 1)[1].split("###", 1)[0]
    return dict(re.findall(r"^\| (\d+(?:-\d+)?) \| (.+?) \|$", table, re.MULTILINE))


# The text's band, a few words of its result, and what the app makes of each total in it.
LIMB = [
    ("2-3", "Someone fetch a priest", "dead"),
    ("4", "This has got to come off", "amputated"),
    ("5-6", "must miss the next battle", "miss"),
    ("7-8", "No luck", "nothing"),
    ("9-10", "He must, however, miss the next battle", "cured, miss"),
    ("11-12", "complete success", "cured"),
]
BRAIN = [
    ("2-3", "Someone fetch a priest", "dead"),
    ("4-5", "now subject to Stupidity", "stupid"),
    ("6", "causes Fear", "unhinged"),
    ("7-8", "must miss the next battle", "miss"),
    ("9-10", "He must, however, miss the next battle", "cured, miss"),
    ("11-12", "complete success", "cured"),
]


def kind(outcome: rules.Outcome) -> str:
    parts = [name for name in ("dead", "amputated", "stupid", "unhinged", "cured")
             if getattr(outcome, name)]  # fmt: skip
    if outcome.miss_games:
        parts.append("miss")
    return ", ".join(parts) or "nothing"


@pytest.mark.skipif(not TEXT.is_file(), reason="the rule texts (../shared/rules) are not here")
@pytest.mark.parametrize(
    ("title", "table", "surgery"),
    [("limb surgery table", LIMB, rules.limb_surgery),
     ("brain surgery table", BRAIN, rules.brain_surgery)],
)  # fmt: skip
def test_each_band_of_each_table_is_the_texts(title, table, surgery):
    rows = table_rows(title)
    assert list(rows) == [band for band, _, _ in table]
    for band, words, expected in table:
        assert words in rows[band], (band, rows[band])
        low, _, high = band.partition("-")
        for total in range(int(low), int(high or low) + 1):
            assert kind(surgery(total)) == expected, (title, total)


@pytest.mark.parametrize(
    ("injury", "table"),
    [("Leg wound", "limb"), ("Smashed leg", "limb"), ("Hand injury", "limb"),
     ("Madness", "brain"), ("Nervous condition", "brain"), ("Chest wound", None),
     ("Blinded in one eye", None), ("Old battle wound", None), ("Deep wound", None)],
)  # fmt: skip
def test_which_surgeon_treats_which_injury(injury, table):
    assert rules.table_for(injury) == table


# --- Through step 6 -----------------------------------------------------------------------------


def build_clinic(duel):
    """The Reavers at step 6 of a campaign that plays Sawbones; Brandt (the champion) with a
    leg wound that cost him a point of Movement."""
    HouseRules.objects.create(campaign=duel["campaign"], sawbones=True)
    _, brandt, _ = warriors(duel["reavers"])
    brandt.M = 3
    brandt.save(update_fields=["M"])
    wound = Injury.objects.create(warrior=brandt, name="Leg wound", effect="Leg wound: -1 Movement")
    sequence, owner = at_step(duel, 6)
    sequences.prepare(sequence)
    return sequence, owner, brandt, wound


@pytest.fixture(scope="class")
def _clinic_built(request, _duel_built, django_db_blocker):
    """``build_clinic``, once for the tests of the class: each runs in a savepoint rolled back
    after it."""
    yield from shared_per_module(
        request, django_db_blocker, lambda: build_clinic(read_again(_duel_built))
    )


@pytest.fixture
def clinic(_clinic_built, duel):
    """``build_clinic``: (sequence, owner, Brandt, his wound), read again for each test."""
    return per_test(_clinic_built, lambda: build_clinic(duel))


def visit(sequence, owner, hero, injury, faces):
    return act(sequence, "treat", owner, faces, hero=hero.pk, injury=injury.pk, pay_from="")


class TestClinic:
    """The tests of the clinic, built once for the class."""

    def test_a_healed_leg_gives_back_its_point_and_costs_20_gc_and_the_rarity_roll(
        self, clinic, duel
    ):
        sequence, owner, brandt, wound = clinic
        before = gold(duel["reavers"])
        said = visit(sequence, owner, brandt, wound, [6, 5])
        assert "limb surgery: 2D6 11, healed completely" in said
        brandt.refresh_from_db()
        assert brandt.M == 4 and not brandt.injuries.exists() and brandt.games_to_miss == 0
        assert gold(duel["reavers"]) == before - 20
        search = SequenceTask.objects.get(sequence=sequence, step=6, warrior=brandt)
        assert search.void
        assert not treasury.conservation_problems()

    def test_healed_but_resting_misses_the_next_battle(self, clinic):
        sequence, owner, brandt, wound = clinic
        visit(sequence, owner, brandt, wound, [5, 4])
        brandt.refresh_from_db()
        assert (brandt.M, brandt.games_to_miss) == (4, 1) and not brandt.injuries.exists()

    def test_the_leg_comes_off_and_movement_is_halved(self, clinic):
        sequence, owner, brandt, wound = clinic
        visit(sequence, owner, brandt, wound, [2, 2])
        brandt.refresh_from_db()
        assert brandt.M == 2  # the wound's point given back, then 4 halved
        assert list(brandt.injuries.values_list("name", flat=True)) == ["Lost leg"]

    def test_death_on_the_table_leaves_his_gear_to_the_warband(self, clinic, duel):
        sequence, owner, brandt, wound = clinic
        gear = list(brandt.items.values_list("item__key", flat=True))
        visit(sequence, owner, brandt, wound, [1, 2])
        brandt.refresh_from_db()
        assert brandt.status == Warrior.Status.DEAD and not brandt.items.exists()
        pile = treasury.loose_pile(duel["reavers"])
        assert sorted(pile.stored_items.values_list("item__key", flat=True)) == sorted(gear)
        assert CampaignEvent.objects.filter(
            message__contains="died under the surgeon's knife"
        ).exists()
        assert not treasury.conservation_problems()

    def test_nerves_treated_badly_leave_him_unhinged(self, clinic):
        sequence, owner, brandt, _ = clinic
        nerves = Injury.objects.create(
            warrior=brandt, name="Nervous condition", effect="Nervous condition: -1 Initiative"
        )
        was = brandt.I
        visit(sequence, owner, brandt, nerves, [3, 3])
        brandt.refresh_from_db()
        now = brandt.I
        assert now == max(1, was - 1)
        assert set(brandt.injuries.values_list("name", flat=True)) == {
            "Leg wound",
            "Nervous condition",
            "Unhinged",
        }

    @pytest.mark.parametrize(
        ("setup", "message"),
        [
            ("no_house_rule", "do not play the Sawbones rule"),
            ("searched", "has looked for rare items already"),
            ("chest_wound", "No surgeon treats a chest wound"),
            ("twice", "has seen a physician in this sequence already"),
            ("poor", "costs 20 gc but the treasury holds only"),
        ],
    )
    def test_a_visit_refused_changes_nothing(self, clinic, duel, setup, message):
        sequence, owner, brandt, wound = clinic
        injury = wound
        if setup == "no_house_rule":
            HouseRules.objects.filter(campaign=duel["campaign"]).update(sawbones=False)
        elif setup == "searched":
            task = SequenceTask.objects.get(sequence=sequence, step=6, warrior=brandt)
            sequences.run_task(sequence, task, actor=owner, step=6, dice=ScriptedDice([1, 1]))
        elif setup == "chest_wound":
            injury = Injury.objects.create(
                warrior=brandt, name="Chest wound", effect="-1 Toughness"
            )
        elif setup == "twice":
            visit(sequence, owner, brandt, wound, [4, 4])  # no luck
        elif setup == "poor":
            leave_gold(duel["reavers"], 19)
        sequence.refresh_from_db()
        brandt.refresh_from_db()
        before = (
            gold(duel["reavers"]),
            brandt.M,
            sorted(brandt.injuries.values_list("pk", flat=True)),
        )
        with pytest.raises(RuleViolation, match=message):
            visit(sequence, owner, brandt, injury, [6, 6])
        brandt.refresh_from_db()
        after = (
            gold(duel["reavers"]),
            brandt.M,
            sorted(brandt.injuries.values_list("pk", flat=True)),
        )
        assert after == before

    def test_undoing_step_6_puts_the_visit_back(self, clinic, duel):
        sequence, owner, brandt, wound = clinic
        visit(sequence, owner, brandt, wound, [6, 6])
        sequences.complete_step(sequence, actor=owner, step=6)
        sequence.refresh_from_db()
        sequences.undo_last_step(sequence, actor=owner)
        brandt.refresh_from_db()
        assert brandt.M == 3 and brandt.injuries.filter(name="Leg wound").exists()

    def test_the_step_page_offers_the_physician_to_the_owner_and_posts_a_visit(
        self, client, clinic, duel
    ):
        sequence, owner, brandt, wound = clinic
        client.force_login(owner)
        url = reverse("sequence_detail", args=[sequence.pk])
        page = client.get(url).content.decode()
        assert "See the physician" in page and "Leg wound: -1 Movement" in page
        answer = client.post(
            reverse("sequence_act", args=[sequence.pk]),
            {"step": 6, "action": "treat", "hero": brandt.pk, "injury": wound.pk, "pay_from": "",
             "dice": "6 6"},
        )  # fmt: skip
        assert answer.status_code < 400
        brandt.refresh_from_db()
        assert brandt.M == 4
        page = client.get(url).content.decode()
        assert "2D6 12, healed completely" in page and "See the physician" not in page


def test_a_campaign_without_sawbones_shows_no_physician(client, duel):
    _, brandt, _ = warriors(duel["reavers"])
    Injury.objects.create(warrior=brandt, name="Leg wound", effect="Leg wound: -1 Movement")
    sequence, owner = at_step(duel, 6)
    client.force_login(owner)
    page = client.get(reverse("sequence_detail", args=[sequence.pk])).content.decode()
    assert "See the physician" not in page and 'data-testid="sawbones"' not in page
