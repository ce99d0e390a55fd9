"""Each step's actions are declared once: its methods marked ``@action`` (``Step.handlers``),
each read by the form ``battles.aftermath.forms.ACTION_FORMS`` keys by that method. From
these the view finds the form, the engine the handler, and the treasury's board the step's
action for each of its forms. An action a step does not declare is refused, saying so, and
changes nothing."""

import pytest
from django.urls import reverse

from battles import aftermath as sequences
from battles.aftermath import forms as step_forms
from battles.aftermath.engine import Step
from battles.aftermath.registry import STEPS
from battles.models import PostBattleSequence
from core.errors import RuleViolation
from tests.helpers import at_step, fingerprint
from warbands.treasury.board import FORMS as BOARD_FORMS

HTMX = {"HX-Request": "true"}


def test_every_step_is_numbered_as_the_sequence_numbers_it():
    assert sorted(STEPS) == [number for number, _name in PostBattleSequence.STEPS]
    assert all(step.number == number for number, step in STEPS.items())


def test_every_declared_action_has_a_form_and_a_handler_and_every_form_an_action():
    declared = {method for step in STEPS.values() for method in step.handlers.values()}
    for number, step in STEPS.items():
        for name, method in step.handlers.items():
            assert callable(method) and method.__name__ == name, (number, name)
            assert getattr(type(step), name) is method, (number, name)  # not shadowed
            assert method in step_forms.ACTION_FORMS, f"step {number}'s {name!r} has no form"
    assert set(step_forms.ACTION_FORMS) == declared, "a form for an action no step declares"


def test_the_steps_declare_the_actions_their_pages_post():
    assert {number: sorted(step.handlers) for number, step in STEPS.items()} == {
        0: [],
        1: [],
        2: ["award"],
        3: ["store"],
        4: ["sell", "store"],
        5: ["add_veterans", "store"],
        6: ["buy_rare", "seek_persona", "store", "treat"],
        7: ["hire_sword", "store", "upkeep"],
        8: ["add_models", "buy", "buy_stash", "hire", "sell", "store"],
        9: ["buy_container", "equip", "move", "move_item", "place", "sell_container", "store",
            "unequip"],
        10: [],
    }  # fmt: skip


def test_a_method_not_marked_as_an_action_is_not_one():
    class Probe(Step):
        number = 2

        def complete(self, ctx, values):  # a step's own method, not an action
            return ""

    assert Probe.handlers == {}
    with pytest.raises(RuleViolation, match="no such action"):
        Probe().act(None, "complete", {}, None)


@pytest.mark.django_db
def test_the_board_posts_each_of_its_forms_the_step_offers_with_the_steps_action(duel):
    """Step 9 offers every form of the treasury's board but naming a container, each posted
    with the step's action that reads it; steps 3 to 8 only storing what lies unstored."""
    sequence, _owner = at_step(duel, 9)
    posts = step_forms.board_posts(sequence)
    assert set(posts) == set(BOARD_FORMS) - {"name"}
    actions = {name: str(post.hidden) for name, post in posts.items()}
    renamed = {"store_item": "unequip", "buy": "buy_container", "sell": "sell_container",
               "store_pile": "store", "move": "move"}  # fmt: skip
    for name, action in renamed.items():
        assert f'name="action" value="{action}"' in actions[name], name
        assert 'name="step" value="9"' in actions[name]
    assert {post.url for post in posts.values()} == {reverse("sequence_act", args=[sequence.pk])}
    sequence.current_step = 4
    assert list(step_forms.board_posts(sequence)) == ["store_pile"]
    sequence.current_step = 10
    assert step_forms.board_posts(sequence) == {}


@pytest.mark.django_db
def test_an_action_the_step_does_not_declare_is_refused_and_changes_nothing(client, duel):
    sequence, owner = at_step(duel, 4)
    client.force_login(owner)
    url = reverse("sequence_act", args=[sequence.pk])
    before = fingerprint()

    for action in ("move", "buy_rare", "page_context", "do_sell", ""):
        response = client.post(url, {"step": 4, "action": action, "shards": 1}, headers=HTMX)
        assert response.status_code == 422, action
        assert "step 4 (Sell wyrdstone) has no such action" in response.content.decode()

    assert fingerprint() == before
    with pytest.raises(RuleViolation, match=r"step 4 \(Sell wyrdstone\) has no such action"):
        sequences.act(sequence, actor=owner, step=4, action="move", values={})
    assert fingerprint() == before
