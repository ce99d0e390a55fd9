"""Bad input everywhere: every form the app draws (found by reading the pages, so a new form is
covered without being listed) is posted with random, negative, huge, non-numeric and unicode
values by hypothesis, the entered-dice fields included. The answer is always a success or a
4xx with a message, never a server error, and a refusal changes nothing.
"""

from __future__ import annotations

import datetime
import functools
import uuid
from html.parser import HTMLParser

import pytest
from django.db import transaction
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from battles import aftermath as sequences
from battles.models import SequenceTask
from battles.report import services
from battles.rules import ReportedResult
from battles.schedule import challenges
from battles.schedule import services as schedule
from core.dice import ScriptedDice
from tests.factories import WarbandFactory, hire
from tests.helpers import battle_of, fingerprint, fought, play_to, sequence_of
from warbands import treasury
from warbands.models import Item

pytestmark = pytest.mark.django_db
TODAY = datetime.date(2026, 5, 1)
EXAMPLES = 12
HTMX = {"HX-Request": "true"}
SKIPPED = ("/accounts/", "/admin/")
NASTY = [
    "",
    " ",
    "-1",
    "0",
    "-0",
    "1e9",
    "99999999999999999999",
    "NaN",
    "inf",
    "３",
    "١٢",
    "½",
    "1; DROP TABLE warbands_warband",
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "\u202e",
    "null",
    "[]",
    "{}",
    "0x10",
    "7 7 7",
    "6,6,6,6,6,6,6,6,6,6,6,6,6,6,6,6,6,6,6,6,6,6,6,6,6",
    "a" * 500,
]


class Forms(HTMLParser):
    """The POST forms of a page: action and fields (name: first value)."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[tuple[str, dict[str, str]]] = []
        self._fields: dict[str, str] | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form" and (attrs.get("method") or "").lower() == "post":
            self._fields = {}
            self.forms.append((attrs.get("action") or "", self._fields))
        elif self._fields is not None and tag in ("input", "select", "textarea", "button"):
            name = attrs.get("name")
            if name and name not in ("csrfmiddlewaretoken", "form_token"):
                self._fields.setdefault(name, attrs.get("value") or "")

    def handle_endtag(self, tag):
        if tag == "form":
            self._fields = None


def values_for(original: str):
    return st.one_of(
        st.just(original),
        st.sampled_from(NASTY),
        st.integers(min_value=-(10**12), max_value=10**12).map(str),
        st.text(max_size=40),
    )


class _Undo(Exception):
    pass


def post_and_undo(client, action: str, data: dict[str, str], before: str) -> str | None:
    """Post in a savepoint rolled back afterwards; return what went wrong, if anything.
    ``before``: the database's fingerprint before the post."""
    problem = None
    try:
        with transaction.atomic():
            response = client.post(action, {**data, "form_token": str(uuid.uuid4())}, headers=HTMX)
            if response.status_code >= 500:
                problem = f"{response.status_code} for {action} {data!r}"
            elif 400 <= response.status_code < 500:
                if fingerprint() != before:
                    problem = f"refused ({response.status_code}) but changed: {action} {data!r}"
                if response.status_code == 422 and not response.content.strip():
                    problem = f"a refusal without a message: {action} {data!r}"
            raise _Undo
    except _Undo:
        pass
    return problem


def fuzz(client, action: str, fields: dict[str, str]) -> list[str]:
    problems: list[str] = []
    strategy = st.fixed_dictionaries({name: values_for(value) for name, value in fields.items()})
    # Every post is rolled back, so each starts from the database as it is now. (``run`` keeps
    # its source: hypothesis derives the derandomized examples from it.)
    post_once = functools.partial(post_and_undo, before=fingerprint())

    @settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(strategy)
    def run(data):
        problem = post_once(client, action, data)
        if problem:
            problems.append(problem)

    run()
    return problems


def pages(duel):
    """(user, page) pairs that between them draw every kind of form, each set up so that its
    conditional forms show (items to equip, treasure to store, rolls to buy with, questions)."""

    reavers, scourge, organiser = duel["reavers"], duel["scourge"], duel["organiser"]
    owner, campaign = reavers.owner, duel["campaign"]
    draft = WarbandFactory(campaign=campaign, owner=duel["bystander"])
    hire(draft, "mercenary_captain", items=["sword"], name="Adler")
    chest = reavers.containers.get(kind="treasure_chest")
    treasury.add_item(chest, item=Item.objects.get(key="sword"), reason="income")
    treasury.add_treasure(treasury.loose_pile(reavers), gold=7, reason="income")
    battle = battle_of(duel)
    sequence = sequence_of(battle, reavers)
    undeclared = fought(duel, carried=False)
    yield duel["bystander"], reverse("warband_muster", args=[draft.pk])
    yield duel["bystander"], reverse("warband_hire_sword", args=[draft.pk])
    yield owner, reverse("warband_treasury", args=[reavers.pk])
    yield owner, reverse("warband_rename", args=[reavers.pk])
    yield owner, reverse("warrior_rename", args=[reavers.warriors.first().pk])
    yield owner, reverse("battle_report", args=[campaign.pk])
    yield owner, reverse("battle_declare", args=[undeclared.pk, reavers.pk])
    yield organiser, reverse("campaign_settings", args=[campaign.pk])
    yield organiser, reverse("battle_record", args=[campaign.pk])
    yield organiser, reverse("fortune_table", args=[campaign.pk])
    # The schedule: a round paired, and a challenge waiting for the owner's answer.
    round_ = schedule.create_round(campaign, actor=organiser, number=1, starts_on=TODAY,
                                   ends_on=TODAY)  # fmt: skip
    schedule.pair_round(round_, actor=organiser, method="closest")
    yield organiser, reverse("round_detail", args=[round_.pk])
    yield organiser, reverse("campaign_schedule", args=[campaign.pk])
    challenges.issue_challenge(campaign, actor=scourge.owner, challenger_id=scourge.pk,
                               opponent_ids=[reavers.pk])  # fmt: skip
    yield owner, reverse("campaign_schedule", args=[campaign.pk])
    yield scourge.owner, reverse("campaign_schedule", args=[campaign.pk])
    yield owner, reverse("battle_detail", args=[battle.pk])
    pending = battle_services_report(duel)
    yield owner, reverse("battle_side", args=[pending.pk, reavers.pk])
    yield scourge.owner, reverse("battle_detail", args=[pending.pk])
    for step in (1, 2, 3, 4, 5, 6, 7, 8, 9, 10):
        play_to(sequence, step, owner)
        sequences.prepare(sequence)
        task = sequence.tasks.filter(step=step, void=False, done=False).first()
        if step in (5, 6) and task is not None:  # a roll to buy veterans and rare items with
            sequences.run_task(sequence, task, actor=owner, step=step, dice=ScriptedDice([6, 6]))
        yield owner, reverse("sequence_detail", args=[sequence.pk])
        if step == 7:  # the catalogue of hired swords, drawn when asked
            yield owner, reverse("sequence_detail", args=[sequence.pk]) + "?catalogue=swords"
    yield organiser, reverse("sequence_detail", args=[sequence.pk])
    # A question waiting for its answer: the Well asks which hero goes down.
    theirs = play_to(sequence_of(battle, scourge), 3, scourge.owner)
    sequences.prepare(theirs)
    exploration = theirs.tasks.get(step=3, kind="exploration")
    sequences.run_task(theirs, exploration, actor=scourge.owner, step=3,
                       dice=ScriptedDice([1, 1]))  # fmt: skip
    well = SequenceTask.objects.get(sequence=theirs, kind="location")
    sequences.run_task(theirs, well, actor=scourge.owner, step=3, dice=ScriptedDice([]))
    yield scourge.owner, reverse("sequence_detail", args=[theirs.pk])


def battle_services_report(duel):
    return services.report_battle(
        actor=duel["reavers"].owner, campaign=duel["campaign"], scenario="Ambush",
        results=[ReportedResult(duel["reavers"].pk, "won"),
                 ReportedResult(duel["scourge"].pk, "lost", True, 1)],
    )  # fmt: skip


def test_no_form_answers_bad_input_with_a_server_error(client, duel):
    problems: list[str] = []
    covered: set[str] = set()
    for user, page in pages(duel):
        client.force_login(user)
        parser = Forms()
        parser.feed(client.get(page).content.decode())
        for action, fields in parser.forms:
            key = f"{action} {sorted(fields)} {fields.get('action', '')}"
            if not action or action.startswith(SKIPPED) or key in covered:
                continue
            covered.add(key)
            problems += fuzz(client, action, fields)
    assert not problems, "\n".join(problems[:20])
    assert len(covered) >= 50, f"only {len(covered)} forms found"
