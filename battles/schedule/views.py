"""The campaign's schedule (its rounds, the games agreed by challenges, the challenges) and a
round's page (its games, and for organisers the forms to pair them). Thin views: the first
line is an accessor of ``permissions``; a form is validated, one service called with its
cleaned values; with htmx the answer is the partial the form swaps (``#round-fixtures``,
``#challenges``, ``#new-round``), a refusal the same partial with the messages beside their
fields (422); without htmx a redirect to the page with a message."""

from __future__ import annotations

import datetime

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from battles.schedule import challenges, permissions, queries, services
from battles.schedule.forms import (
    AnswerForm,
    ChallengeForm,
    ClearForm,
    FixtureForm,
    PairForm,
    RoundForm,
)
from campaign.models import Campaign
from campaign.permissions import get_campaign_for_user
from core.errors import RuleViolation
from core.htmx import Refusal, refuse


def _refused(form, refusal: RuleViolation):
    form.add_error(refusal.field if refusal.field in form.fields else None, str(refusal))
    return form


# --- The campaign's schedule ------------------------------------------------------------------


def _new_round(campaign) -> RoundForm:
    """The next number, from today for two weeks."""
    today = timezone.localdate()
    return RoundForm(
        initial={"number": services.next_number(campaign), "starts_on": today,
                 "ends_on": today + datetime.timedelta(days=13)}
    )  # fmt: skip


def _schedule_context(
    request, campaign, *, round_form=None, challenge_form=None, answer_refused=None, done=""
):
    user = request.user
    warbands = services.active_warbands(campaign)
    own = [w for w in warbands if w.owner_id == user.pk]
    others = [w for w in warbands if w.owner_id != user.pk]
    may_plan = permissions.may_plan(user, campaign)
    may_challenge = permissions.may_challenge(user, campaign) and own and others
    items = queries.challenges_of(campaign)
    for challenge in items:
        challenge.waiting_mine = challenge.status == "waiting" and any(
            a.warband.owner_id == user.pk and a.answer == "waiting" for a in challenge.answers.all()
        )
        challenge.mine = challenge.challenger.owner_id == user.pk
    return {
        "campaign": campaign,
        "rounds": queries.rounds_of(campaign),
        "agreed": queries.agreed_fixtures(campaign),
        "challenges": items,
        "may_plan": may_plan,
        "may_challenge": may_challenge,
        "round_form": (round_form or _new_round(campaign)) if may_plan else None,
        "challenge_form": (challenge_form or ChallengeForm(own=own, others=others))
        if may_challenge
        else None,
        "answer_refused": answer_refused,
        "done": done,
    }


@require_GET
def campaign_schedule(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = get_campaign_for_user(request, pk)
    return render(request, "battles/schedule/schedule.html", _schedule_context(request, campaign))


@require_POST
def round_create(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = get_campaign_for_user(request, pk, organiser=True)
    form = RoundForm(request.POST)
    if form.is_valid():
        try:
            made = services.create_round(campaign, actor=request.user, **form.cleaned_data)
        except RuleViolation as refusal:
            _refused(form, refusal)
        else:
            messages.success(request, f"{made} is created: pair its games.")
            url = reverse("round_detail", args=[made.pk])
            return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
    return refuse(
        request, form, partial="battles/schedule/schedule.html#new-round",
        context=lambda: _schedule_context(request, campaign, round_form=form),
        page=reverse("campaign_schedule", args=[campaign.pk]),
    )  # fmt: skip


def _challenges(request, campaign, form=None, *, done: str = "") -> HttpResponse:
    """The challenges after a post: the partial (or, refused, with the form's messages: the
    challenge form's beside their fields, an answer's above the challenges)."""
    page = reverse("campaign_schedule", args=[campaign.pk])
    if form is not None:
        key = "challenge_form" if isinstance(form, ChallengeForm) else "answer_refused"
        return refuse(
            request, form, partial="battles/schedule/schedule.html#challenges",
            context=lambda: _schedule_context(request, campaign, **{key: form}), page=page,
        )  # fmt: skip
    if not request.htmx:
        messages.success(request, done)
        return redirect(page)
    context = _schedule_context(request, campaign, done=done)
    return render(request, "battles/schedule/schedule.html#challenges", context)


@require_POST
def challenge_create(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = get_campaign_for_user(request, pk, write=True)
    if campaign.challenge_policy == Campaign.Challenges.FORBIDDEN:  # no form is drawn to refuse
        return _challenges(request, campaign, Refusal(challenges.FORBIDDEN))
    warbands = services.active_warbands(campaign)
    form = ChallengeForm(
        request.POST,
        own=[w for w in warbands if w.owner_id == request.user.pk],
        others=[w for w in warbands if w.owner_id != request.user.pk],
    )
    if not form.is_valid():
        return _challenges(request, campaign, form)
    data = form.cleaned_data
    try:
        challenges.issue_challenge(
            campaign, actor=request.user, challenger_id=data["challenger"],
            opponent_ids=data["opponents"], scenario_key=data["scenario_key"],
            planned_on=data["planned_on"],
        )  # fmt: skip
    except RuleViolation as refusal:
        return _challenges(request, campaign, _refused(form, refusal))
    return _challenges(request, campaign, done="Challenge sent: it waits for their answers.")


@require_POST
def challenge_answer(request: HttpRequest, pk: int) -> HttpResponse:
    challenge = permissions.get_challenge_for_user(request, pk)
    permissions.check_answers(request.user, challenge)
    form = AnswerForm(request.POST)
    if not form.is_valid():
        return _challenges(request, challenge.campaign, form)
    accept = form.cleaned_data["answer"] == "accept"
    try:
        answered = challenges.answer_challenge(challenge, actor=request.user, accept=accept)
    except RuleViolation as refusal:
        return _challenges(request, challenge.campaign, _refused(form, refusal))
    done = "Challenge declined." if not accept else (
        "Challenge accepted: the game is planned." if answered.fixture_id
        else "Challenge accepted: it waits for the others' answers."
    )  # fmt: skip
    return _challenges(request, challenge.campaign, done=done)


@require_POST
def challenge_withdraw(request: HttpRequest, pk: int) -> HttpResponse:
    challenge = permissions.get_challenge_for_user(request, pk)
    permissions.check_withdraws(request.user, challenge)
    try:
        challenges.withdraw_challenge(challenge, actor=request.user)
    except RuleViolation as refusal:
        return _challenges(request, challenge.campaign, Refusal(str(refusal)))
    return _challenges(request, challenge.campaign, done="Challenge withdrawn.")


# --- A round ----------------------------------------------------------------------------------


def _round_context(request, round_, *, pair_form=None, fixture_form=None, clear_form=None,
                   done="") -> dict:  # fmt: skip
    fixtures = queries.round_fixtures(round_)
    may_plan = permissions.may_plan(request.user, round_.campaign)
    context = {
        "round": round_, "campaign": round_.campaign, "fixtures": fixtures,
        "may_plan": may_plan, "locked": any(f.battle_id for f in fixtures), "done": done,
    }  # fmt: skip
    if may_plan:
        warbands = services.active_warbands(round_.campaign)
        context.update(
            pair_form=pair_form or PairForm(warbands=warbands),
            fixture_form=fixture_form or FixtureForm(warbands=warbands),
            clear_form=clear_form or ClearForm(),
        )
    return context


@require_GET
def round_detail(request: HttpRequest, pk: int) -> HttpResponse:
    round_ = permissions.get_round_for_user(request, pk)
    return render(request, "battles/schedule/round.html", _round_context(request, round_))


def _fixtures(request, round_, *, refused=None, done="") -> HttpResponse:
    """The round's games after a post; ``refused``: (the context's name, the bound form)."""
    if refused is not None:
        return refuse(
            request, refused[1], partial="battles/schedule/round.html#round-fixtures",
            context=lambda: _round_context(request, round_, **{refused[0]: refused[1]}),
            page=reverse("round_detail", args=[round_.pk]),
        )  # fmt: skip
    if not request.htmx:
        messages.success(request, done)
        return redirect("round_detail", round_.pk)
    context = _round_context(request, round_, done=done)
    return render(request, "battles/schedule/round.html#round-fixtures", context)


@require_POST
def round_pair(request: HttpRequest, pk: int) -> HttpResponse:
    round_ = permissions.get_round_for_user(request, pk, organiser=True)
    form = PairForm(request.POST, warbands=services.active_warbands(round_.campaign))
    if not form.is_valid():
        return _fixtures(request, round_, refused=("pair_form", form))
    try:
        done = services.pair_round(round_, actor=request.user, **form.cleaned_data)
    except RuleViolation as refusal:
        return _fixtures(request, round_, refused=("pair_form", _refused(form, refusal)))
    return _fixtures(request, round_, done=done)


@require_POST
def round_fixture_add(request: HttpRequest, pk: int) -> HttpResponse:
    round_ = permissions.get_round_for_user(request, pk, organiser=True)
    form = FixtureForm(request.POST, warbands=services.active_warbands(round_.campaign))
    if not form.is_valid():
        return _fixtures(request, round_, refused=("fixture_form", form))
    data = form.cleaned_data
    try:
        services.add_fixture(
            round_, actor=request.user, warband_ids=data["warbands"],
            scenario_key=data["scenario_key"], planned_on=data["planned_on"],
        )  # fmt: skip
    except RuleViolation as refusal:
        return _fixtures(request, round_, refused=("fixture_form", _refused(form, refusal)))
    return _fixtures(request, round_, done="Game added.")


@require_POST
def round_clear(request: HttpRequest, pk: int) -> HttpResponse:
    round_ = permissions.get_round_for_user(request, pk, organiser=True)
    form = ClearForm(request.POST)
    if not form.is_valid():
        return _fixtures(request, round_, refused=("clear_form", form))
    try:
        had = services.clear_round(round_, actor=request.user)
    except RuleViolation as refusal:
        return _fixtures(request, round_, refused=("clear_form", _refused(form, refusal)))
    return _fixtures(request, round_, done=f"{had} game{'s' if had != 1 else ''} deleted.")


@require_http_methods(["GET", "POST"])
def round_delete(request: HttpRequest, pk: int) -> HttpResponse:
    """Asks first (GET), then deletes the round and its games, none of them played."""
    round_ = permissions.get_round_for_user(request, pk, organiser=True)
    if request.method == "GET":
        fixtures = queries.round_fixtures(round_)
        return render(request, "battles/schedule/round_delete.html", {
            "round": round_, "campaign": round_.campaign, "fixtures": fixtures,
            "locked": any(f.battle_id for f in fixtures),
        })  # fmt: skip
    try:
        services.delete_round(round_, actor=request.user)
    except RuleViolation as refusal:
        messages.error(request, str(refusal))
        url = reverse("round_detail", args=[round_.pk])
    else:
        messages.success(request, f"{round_} is deleted.")
        url = reverse("campaign_schedule", args=[round_.campaign_id])
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
