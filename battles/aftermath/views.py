"""The post-battle sequence page: all steps with done / current / to come, and the current
step's form as the ``#step-panel`` partial that every post swaps (status 422 with the reason
when refused)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET, require_POST

from battles import aftermath as sequences
from battles import permissions as battle_permissions
from battles.aftermath import forms as step_forms
from battles.aftermath import permissions as aftermath_permissions
from battles.aftermath import task_dice, task_options
from battles.aftermath.forms import CompletionForm
from battles.aftermath.forms import page as page_forms
from battles.dice import dice_for
from battles.models import PostBattleSequence, SequenceTask
from battles.permissions import get_sequence_for_user
from campaign import fragments
from core.dice import DiceError
from core.errors import RuleViolation
from warbands.permissions import can_see_treasury
from warbands.treasury import forms as treasury_forms
from warbands.treasury.forms import TreasuryForm


def sequence_context(
    request: HttpRequest,
    sequence: PostBattleSequence,
    *,
    error: str = "",
    body: bool = False,
    record=None,
    refused=None,
    catalogue: bool = False,
) -> dict:
    """What the page shows. ``body``: only the current step's part (``#step-body``), after an
    action of the step, with ``record``, the step's record as the action left it
    (``Outcome.record``; None: it told none): the other steps' records, which only the list of
    steps shows, are not read. ``refused``: what a refused post sent back, drawn again
    with its messages beside its fields instead of above the step (``_refused``): ("board",
    name, form) of a treasury form the step drew (``TreasuryBoard.forms``), ("step", action,
    form) of one of the step's own, ("task", task's key, (post, message)) of a task's roll,
    ("answer", task's key, (post, message)) of a task's question. ``catalogue``: step 7's
    catalogue of hired swords drawn row by row (``?catalogue=swords``, and after a post from one
    of its rows); else the step links to it (its fifty-odd rows, each a form with the
    containers to pay from, would triple every answer of the step)."""
    step = sequence.current_step
    if body:
        live = {step: record} if record else {}
    else:
        live = {r.step: r for r in sequences.live_records(sequence)}
    records = live
    handler = None if sequence.is_complete else sequences.handler(step)
    tasks = []
    if handler is not None and handler.rolls:  # the other steps never have any
        tasks = list(
            SequenceTask.objects.filter(sequence=sequence, step=step, void=False).select_related(
                "warrior"
            )
        )
    can_act = sequences.may_act(request.user, sequence)
    warband = sequence.participant.warband
    # The treasury steps are secret: an organiser who may not see the warband's treasury
    # follows them by name only (no form, no tasks, no summaries).
    sees_treasury = can_see_treasury(request.user, warband)
    secret_step = step in sequences.TREASURY_STEPS and not sees_treasury
    if not sees_treasury:
        records = {n: r for n, r in records.items() if n not in sequences.TREASURY_STEPS}
    if secret_step:
        tasks = []
    task_dice.label_tasks(sequence, tasks)  # what each task's form types
    refused_at_form = False
    for task in tasks:
        if not task.done and getattr(task, "dice_entry", None) is not None:
            refusal = refused[2] if refused and refused[:2] == ("task", task.pk) else None
            task.roll_form = page_forms.roll_form(task, *(refusal or ()))
            refused_at_form = refused_at_form or bool(refusal)
    task_options.explain_options(tasks)  # a skill's summary beside each choice
    for task in tasks:
        if not task.done and task.question and not task.question.get("dice"):
            refusal = refused[2] if refused and refused[:2] == ("answer", task.pk) else None
            task.answer_form = page_forms.answer_form(task, *(refusal or ()))
            refused_at_form = refused_at_form or bool(refusal)
    context = {
        "sequence": sequence,
        "battle": sequence.participant.battle,
        "warband": warband,
        "steps": [
            (
                number,
                name,
                "done" if number < step else "current" if number == step else "to come",
                records.get(number),
            )
            for number, name in PostBattleSequence.STEPS
        ],
        "tasks": tasks,
        "blockers": handler.blockers(sequence, tasks) if handler and not secret_step else [],
        "can_act": can_act,
        "can_undo": can_act
        and warband.owner_id == request.user.pk
        and step > 1
        and (sequence.is_complete or not sequences.started(sequence, live.get(step))),
        # Reopening: an organiser who did not fight in the battle (``acts_for_players``).
        "is_organiser": battle_permissions.acts_for_players(
            request.user, sequence.participant.battle
        ),
        "error": error,
        # What step 2 gave stays on screen once it is done: the player plays on with it.
        "experience_gained": (sequence.state or {}).get("experience_lines", []) if step > 2 else [],
        "step_template": "battles/aftermath/steps/_secret.html"
        if secret_step
        else f"battles/aftermath/steps/_step_{min(step, 11)}.html",
    }
    context["completion_form"] = CompletionForm()
    if context["is_organiser"]:
        context["reopen_form"] = page_forms.reopen_form(context["steps"])
    if handler is not None and not secret_step:
        posts = step_forms.board_posts(sequence)
        context.update(handler.page_context(sequence, request.user, posts))
        context["completion_form"] = CompletionForm(notes=bool(context.get("notes")))
        kind, name, form = refused or ("", "", None)
        if kind == "board" and "board" in context:
            context["board"].forms.refuse(name, form)
            refused_at_form = True
        actions = step_forms.action_forms(step)
        mine = kind == "step" and name in actions and isinstance(form, actions[name])
        context["step_forms"] = page_forms.StepForms(
            sequence, context, (name, page_forms.refused_at_its_fields(form)) if mine else None
        )
        refused_at_form = refused_at_form or mine
    context["catalogue_open"] = catalogue
    context["refused_at_form"] = refused_at_form
    if handler is not None and not secret_step and getattr(handler, "after_tasks", False):
        context["after_template"] = f"battles/aftermath/steps/_step_{step}_after.html"
    return context


def _panel(
    request: HttpRequest,
    sequence: PostBattleSequence,
    *,
    error: str = "",
    outcome: sequences.Outcome | None = None,
    body: bool = False,
    reopen: dict | None = None,
    refused=None,
) -> HttpResponse:
    """The step panel after a post. ``outcome``: what the service that succeeded left
    (``run_task``, ``act``, ``complete_step``), drawn as it is; without one, ``sequence`` is
    re-read (a refusal, an undo: another tab may have moved it on). ``body``: an action of the step
    (``act``, a task's roll) changes nothing in the list of steps, so only the step's part is
    drawn and swapped (``HX-Retarget``). ``reopen``: a reopening to confirm (``ask``, with
    what was ``posted``) or refused (``refused``), shown in the panel. ``refused``: the
    treasury form refused (``sequence_context``)."""
    if not request.htmx and not (reopen and "ask" in reopen):
        if error:
            messages.error(request, str(reopen["refused"]) if reopen else error)
        return redirect("sequence_detail", sequence.pk)
    if outcome is not None:
        sequence = outcome.sequence
    else:
        sequence.refresh_progress()
    context = sequence_context(
        request,
        sequence,
        error=error,
        body=body,
        record=outcome and outcome.record,
        refused=refused,
        # a post from the catalogue draws it again: the hired sword's row now says he is
        # with the warband, a refused one says why
        catalogue=request.POST.get("catalogue") == "swords",
    )
    context["reopen"] = reopen
    if not request.htmx:  # the confirmation, on a page of its own
        panel = render_to_string(
            "battles/aftermath/sequence.html#step-panel", context, request=request
        )
        return render(request, "battles/aftermath/sequence.html", {**context, "panel": panel})
    response = render(
        request,
        "battles/aftermath/sequence.html#step-body"
        if body
        else "battles/aftermath/sequence.html#step-panel",
        context,
        status=422 if error else 200,
    )
    if body:
        response["HX-Retarget"], response["HX-Reswap"] = "#step-body", "outerHTML"
    return response


@require_GET
def sequence_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The steps and the current step's part, kept under the versions of the battle and the
    warband for this user and browser (``campaign.fragments``: its forms get fresh one-time
    tokens each time); ``?catalogue=swords`` draws step 7's catalogue of hired swords."""
    sequence = get_sequence_for_user(request, pk)
    catalogue = request.GET.get("catalogue") == "swords"
    panel = fragments.kept(
        (sequence.participant.battle, sequence.participant.warband),
        "sequence-panel",
        sequence.pk,
        request.user.pk,
        catalogue,
        request=request,
        draw=lambda: render_to_string(
            "battles/aftermath/sequence.html#step-panel",
            sequence_context(request, sequence, catalogue=catalogue),
            request=request,
        ),
    )
    context = {
        "sequence": sequence,
        "battle": sequence.participant.battle,
        "warband": sequence.participant.warband,
        "panel": panel,
    }
    return render(request, "battles/aftermath/sequence.html", context)


@require_POST
def sequence_task(request: HttpRequest, pk: int, task_pk: int) -> HttpResponse:
    """Roll for a task, or answer its question (``answer``, one of its options: else refused
    beside them)."""
    sequence = get_sequence_for_user(request, pk)
    task = get_object_or_404(SequenceTask, pk=task_pk, sequence=sequence)
    choice = task.question and not task.question.get("dice")  # a further roll: dice only
    try:
        posted = step_forms.clean_posted(request.POST)
        answers = {}
        if choice:
            answer = step_forms.AnswerForm(request.POST, task=task)
            if not answer.is_valid():
                raise step_forms.Refused(answer)
            answers = {task.question["key"]: answer.cleaned_data["answer"]}
        dice = dice_for(
            sequence.participant.battle,
            entered=posted["dice"],
            warband=sequence.participant.warband,
            user=request.user,
            secret=sequence.current_step in sequences.TREASURY_STEPS,
        )
        outcome = sequences.run_task(
            sequence, task, actor=request.user, step=posted["step"], dice=dice, answers=answers
        )
    except (RuleViolation, DiceError) as refusal:  # beside the task's answer or dice field
        form = getattr(refusal, "form", None)
        refused = None
        if choice and (isinstance(refusal, DiceError) or isinstance(form, step_forms.AnswerForm)):
            told = "" if form is not None else str(refusal)  # the form's own, else the dice's
            refused = ("answer", task.pk, (request.POST, told))
        elif isinstance(refusal, DiceError) or _refuses_dice(form):
            refused = ("task", task.pk, (request.POST, _dice_message(form, refusal)))
        return _panel(request, sequence, error=str(refusal), refused=refused)
    return _panel(request, sequence, outcome=outcome, body=True)


def _refuses_dice(form) -> bool:
    """``form``, the post's envelope, refused for its dice alone (typed too long)."""
    return isinstance(form, step_forms.PostedStepForm) and set(form.errors) == {"dice"}


def _dice_message(form, refusal: Exception) -> str:
    return form.errors["dice"][0] if _refuses_dice(form) else str(refusal)


def _refused(request, sequence, posted: dict, values, refusal: Exception):
    """What ``refusal`` refused, for the page to draw again with its messages beside its fields
    (``sequence_context``): the form that did not read (``step_forms.Refused``), the treasury's
    form that the treasury's services refused, or the step's form whose field a rule refused
    (``RuleViolation.field``), with their messages; a form of the treasury's board by the
    board's name of it, else by the step's action. The post's envelope refused (dice typed
    too long) is drawn as the action's form, with the message beside its own field."""
    form = getattr(refusal, "form", None)
    if isinstance(form, step_forms.PostedStepForm) or (
        form is None and getattr(refusal, "field", "")
    ):
        cleaned = form.cleaned_data if form is not None else posted
        posted = {"action": cleaned.get("action")}
        form = step_forms.refused_beside(
            cleaned.get("step"), posted["action"], request.POST, refusal,
            warband=sequence.participant.warband, values=values,
        )  # fmt: skip
    elif form is None and isinstance(values, TreasuryForm) and isinstance(refusal, RuleViolation):
        form = treasury_forms.refused(values, refusal)
    if form is None:
        return None
    name = step_forms.BOARD_NAMES.get(type(form))
    return ("board", name, form) if name else ("step", posted.get("action"), form)


@require_POST
def sequence_act(request: HttpRequest, pk: int) -> HttpResponse:
    """An action of the current step. A form of the treasury reads the warband's things: only
    a user who may play the step has it read."""
    sequence = get_sequence_for_user(request, pk)
    posted, values = {}, None
    try:
        posted = step_forms.clean_posted(request.POST)
        aftermath_permissions.check_acts(request.user, sequence)
        values = step_forms.clean_action(
            posted["step"], posted["action"], request.POST, warband=sequence.participant.warband
        )
        dice = dice_for(
            sequence.participant.battle,
            entered=posted["dice"],
            warband=sequence.participant.warband,
            user=request.user,
            secret=sequences.secret_dice(sequence.current_step, posted["action"]),
        )
        outcome = sequences.act(
            sequence, actor=request.user, step=posted["step"], action=posted["action"],
            values=values, dice=dice,
        )  # fmt: skip
    except (RuleViolation, DiceError) as refusal:
        refused = _refused(request, sequence, posted, values, refusal)
        return _panel(request, sequence, error=str(refusal), refused=refused)
    return _panel(request, sequence, outcome=outcome, body=True)


@require_POST
def sequence_complete(request: HttpRequest, pk: int) -> HttpResponse:
    sequence = get_sequence_for_user(request, pk)
    try:
        posted = step_forms.clean_posted(request.POST)
        outcome = sequences.complete_step(
            sequence,
            actor=request.user,
            step=posted["step"],
            values=step_forms.clean_completion(request.POST),
        )
    except RuleViolation as refusal:
        return _panel(request, sequence, error=str(refusal))
    return _panel(request, sequence, outcome=outcome)


@require_POST
def sequence_undo(request: HttpRequest, pk: int) -> HttpResponse:
    sequence = get_sequence_for_user(request, pk)
    aftermath_permissions.check_undoes(request.user, sequence)
    try:
        posted = step_forms.clean_posted(request.POST)
        sequences.undo_last_step(sequence, actor=request.user, step=posted["step"])
    except RuleViolation as refusal:
        return _panel(request, sequence, error=str(refusal))
    return _panel(request, sequence)


@require_POST
def sequence_reopen(request: HttpRequest, pk: int) -> HttpResponse:
    sequence = get_sequence_for_user(request, pk)
    aftermath_permissions.check_reopens(request.user, sequence)
    posted = {}
    try:
        posted = step_forms.clean_posted(request.POST)
        sequences.reopen_step(
            sequence,
            posted["step"],
            actor=request.user,
            reason=posted["reason"],
            seen=posted["current"],
            confirmed=posted["confirmed"],
        )
    except sequences.ConfirmReopening as ask:  # later steps are undone too: say which first
        return _panel(request, sequence, reopen={"ask": ask, "posted": posted})
    except sequences.ReopenRefused as refusal:
        return _panel(request, sequence, error=refusal.headline, reopen={"refused": refusal})
    except RuleViolation as refusal:
        return _panel(request, sequence, error=str(refusal))
    messages.success(request, "Step reopened.")
    return _panel(request, sequence)
