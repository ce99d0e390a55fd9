"""The aftermath of a battle: each warband's post-battle sequence, steps 0 to 10, in the
rulebook's order.

The package, in the order one reads it:

- ``engine``: who may play a sequence, the locked row every change starts from, the check that
  the posted step is the current one, the ``Step`` base class and its ``Context``;
- ``journal``: every change a step makes, so that undo restores it exactly;
- ``undoing``: a step's journal walked backwards, once what it puts back is locked and found
  as the step left it;
- ``treasury_steps``: what the treasury steps (3 to 9) share: paying, receiving, the page's
  view of the secret treasury;
- one module per step: ``carried_items`` (0), ``injuries`` (1), ``experience`` (2),
  ``exploration`` (3), ``wyrdstone`` (4), ``veterans`` (5), ``rare_items`` (6),
  ``dramatis_personae`` (7), ``recruits`` (8), ``reallocation`` (9), ``rating`` (10);
- ``registry``: the steps by number;
- ``start``: the sequences a confirmed battle starts (called by ``battles.report.services``);
- ``services``: what the pages call (prepare, run a task, act, complete, undo); each change
  returns an ``Outcome`` (the sequence as it left it, and the record or task it made), which
  the page draws without reading it again;
- ``reopening``: an organiser reopens an earlier step, once told which later steps that
  undoes first, and why it cannot when later treasury changes depend on it;
- ``forms`` and ``views``: the sequence's page, its steps' forms and the posts they make;
  ``forms.fields`` reads a post's values, ``forms.actions`` holds the steps' forms, each
  offering the choices its page's rows give (``Shown.show``), and ``forms.page`` draws them
  field by field, a refused one again with each message beside its field (a step's rule
  names the field it refused: ``RuleViolation.field``).

A step's actions are declared once, on each side of the line between the services and the
forms: the step's methods marked ``@action`` are its actions, by their names
(``Step.handlers``: the engine dispatches a post to one of them, and refuses any other name),
and ``forms.ACTION_FORMS`` gives the form that reads each, keyed by the method itself (not by a
name or a step number: a renamed or removed action no longer imports). The view cleans a
post with ``forms.action_forms(step)[name]``, and the treasury's board posts each of its forms
that a step reads under the step's action (``forms.board_posts``, from the board's own names
of its forms). The forms table cannot sit on the step class beside its methods: the services
import no form (the views clean the post, the services take cleaned values, from the pages, the
demo and the tests alike), and the forms read the steps, so the step naming its form would
make the two import each other.

This module only re-exports the public API for the callers outside the package
(``from battles import aftermath``); the modules inside import each other directly.
"""

from battles.aftermath.permissions import TREASURY_STEPS, may_act, secret_dice
from battles.aftermath.registry import handler
from battles.aftermath.reopening import ConfirmReopening, LaterStep, ReopenRefused, reopen_step
from battles.aftermath.services import (
    Outcome,
    act,
    complete_step,
    live_records,
    prepare,
    run_task,
    started,
    undo_last_step,
    waiting_for,
)
from battles.aftermath.start import sequences_for

__all__ = [
    "TREASURY_STEPS",
    "ConfirmReopening",
    "LaterStep",
    "Outcome",
    "ReopenRefused",
    "act",
    "complete_step",
    "handler",
    "live_records",
    "may_act",
    "prepare",
    "reopen_step",
    "run_task",
    "secret_dice",
    "sequences_for",
    "started",
    "undo_last_step",
    "waiting_for",
]
