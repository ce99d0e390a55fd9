"""Two different posts on one request or one warrior, fired at once (``tests.race.harness``):
two organisers approving the same request, an approval against the asker's withdrawal, an
approval against the owner's post-battle step changing the same warrior, a correction taking
an item away against its sale in step 8. Whatever the order, each applies in turn: never
twice, never on a stale read, no answer a 500, and the conservation audit agrees."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import MembershipFactory
from tests.helpers import at, gold, mustered_duel, warriors
from tests.race.harness import Shot, fire_together
from warbands import corrections, treasury
from warbands.models import Correction, Warrior, WarriorItem

pytestmark = pytest.mark.django_db(transaction=True)
Status = Correction.Status


def asked(warband, experience: int = 12) -> Correction:
    """The owner asks for Brandt's experience to be ``experience``."""
    return corrections.set_experience(
        warriors(warband)[1], actor=warband.owner, experience=experience, reason="asked"
    )


def decide(user, correction, **data) -> Shot:
    return Shot(
        user,
        reverse("correction_decide", args=[correction.warband_id, correction.pk]),
        {"decision": "approve", **data},
        applied=int,
    )


def withdraw(user, correction) -> Shot:
    url = reverse("correction_withdraw", args=[correction.warband_id, correction.pk])
    return Shot(user, url, {}, applied=int)


def experience(warband) -> int:
    return Warrior.objects.get(pk=warriors(warband)[1].pk).experience


def no_server_error(*volleys) -> None:
    statuses = [status for volley in volleys for status in volley]
    assert all(status < 500 for status in statuses), statuses


def test_two_organisers_approving_at_once_apply_the_request_once(reference_data):
    duel = mustered_duel()
    reavers = duel["reavers"]
    other = MembershipFactory(campaign=duel["campaign"], is_organiser=True).user
    request = asked(reavers)

    first, second = fire_together((decide(duel["organiser"], request), 2),
                                  (decide(other, request), 2))  # fmt: skip

    no_server_error(first, second)
    assert sorted(first + second) == [200, 422, 422, 422]
    request.refresh_from_db()
    assert request.status == Status.APPLIED
    assert experience(reavers) == 12
    assert not treasury.conservation_problems()


def test_approving_and_refusing_at_once_do_one_of_them(reference_data):
    duel = mustered_duel()
    reavers = duel["reavers"]
    other = MembershipFactory(campaign=duel["campaign"], is_organiser=True).user
    request = asked(reavers)

    approved, refused = fire_together(
        (decide(duel["organiser"], request), 2),
        (decide(other, request, decision="refuse", reason="No"), 2),
    )

    no_server_error(approved, refused)
    assert sorted(approved + refused).count(200) == 1
    request.refresh_from_db()
    assert experience(reavers) == (12 if request.status == Status.APPLIED else 8)
    assert request.status in (Status.APPLIED, Status.REFUSED)


def test_approving_while_the_player_withdraws_does_one_of_them(reference_data):
    duel = mustered_duel()
    reavers = duel["reavers"]
    request = asked(reavers)

    approved, withdrawn = fire_together((decide(duel["organiser"], request), 2),
                                        (withdraw(reavers.owner, request), 2))  # fmt: skip

    no_server_error(approved, withdrawn)
    assert (approved + withdrawn).count(200) == 1
    request.refresh_from_db()
    if request.status == Status.APPLIED:
        assert approved.count(200) == 1 and experience(reavers) == 12
    else:
        assert request.status == Status.WITHDRAWN
        assert withdrawn.count(200) == 1 and experience(reavers) == 8


def test_approving_while_step_2_awards_experience_applies_in_turn(reference_data):
    """The approval sets 8 → 12 only while Brandt still has 8; the award adds to what he has
    under the warriors' row locks. Approval first: 12 plus the award. Award first: the
    request lapses (his experience moved), and he keeps 8 plus the award."""
    sequence, reavers = at(mustered_duel(), 2)
    organiser = reavers.campaign.memberships.get(is_organiser=True).user
    request = asked(reavers)
    award = Shot(reavers.owner, reverse("sequence_act", args=[sequence.pk]),
                 {"step": 2, "action": "award"}, applied=int)  # fmt: skip

    approved, awarded = fire_together((decide(organiser, request), 1), (award, 1))

    no_server_error(approved, awarded)
    assert approved == awarded == [200]
    request.refresh_from_db()
    sequence.refresh_from_db()
    gained = experience(reavers) - (12 if request.status == Status.APPLIED else 8)
    assert sequence.state["experience_awarded"]
    assert gained == sum(
        line["after"] - line["before"]
        for line in sequence.state["experience_lines"]
        if line["name"] == "Brandt"
    ), (request.status, request.decision)
    if request.status == Status.LAPSED:
        assert request.decision.startswith("Brandt's experience is")
    else:
        assert request.status == Status.APPLIED


def test_taking_an_item_away_while_step_8_sells_it_does_one_of_them(reference_data):
    """A correction takes Brandt's axe away (it applies at once) while the owner sells it in
    step 8: the axe goes once, and gold comes in only if the sale took it."""
    sequence, reavers = at(mustered_duel(), 8)
    axe = warriors(reavers)[1].items.get(item__key="axe")
    before = gold(reavers)
    taken = Shot(
        reavers.owner,
        reverse("warband_correct", args=[reavers.pk]),
        {"kind": "item_removed", "owned": axe.pk, "reason": "x"},
        applied=int,
    )
    sold = Shot(reavers.owner, reverse("sequence_act", args=[sequence.pk]),
                {"step": 8, "action": "sell", "what": f"owned:{axe.pk}", "into": "pile"},
                applied=int)  # fmt: skip

    removed, sales = fire_together((taken, 2), (sold, 2))

    no_server_error(removed, sales)
    assert (removed + sales).count(200) == 1
    assert not WarriorItem.objects.filter(pk=axe.pk).exists()
    recorded = Correction.objects.filter(warband=reavers, kind="item_removed").count()
    assert gold(reavers) == before + (0 if recorded else 2)  # an axe sells for 2 gc
    assert recorded == removed.count(200)
    assert not treasury.conservation_problems()
