"""Corrections by hand (``warbands.corrections``) through the page: each kind changes what it
says (at once when it only takes away, once an organiser approves it otherwise) and records
who, when, from what to what and why; a refusal changes nothing; only the owner and the
organisers open the page or read the record. The request flow itself (refusals, withdrawals,
lapses, an organiser's own warband) is in ``test_correction_requests``."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign.models import Campaign, CampaignEvent
from core.errors import RuleViolation
from tests.factories import WarbandFactory, hire
from tests.helpers import fingerprint, message_beside, warriors
from tests.test_bad_input import Forms, fuzz
from warbands import corrections
from warbands.models import (
    Correction,
    Injury,
    Item,
    LedgerEntry,
    Skill,
    Spell,
    Warrior,
    WarriorItem,
    WarriorSkill,
    WarriorSpell,
)

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


def page_of(warband) -> str:
    return reverse("warband_corrections", args=[warband.pk])


def correct(client, warband, user=None, **data):
    if user is not None:
        client.force_login(user)
    return client.post(reverse("warband_correct", args=[warband.pk]), data, headers=HTMX)


def decide(client, correction, user, **data):
    """``user`` posts the decision form of ``correction`` (approve, unless ``data`` says)."""
    client.force_login(user)
    url = reverse("correction_decide", args=[correction.warband_id, correction.pk])
    return client.post(url, {"decision": "approve", **data}, headers=HTMX)


def brandt(duel) -> Warrior:
    return warriors(duel["reavers"])[1]


# --- Each kind of correction ---------------------------------------------------------------


def _experience(duel):
    champion = brandt(duel)
    data = {"kind": "experience", "warrior": champion.pk, "experience": 12}
    return data, lambda: Warrior.objects.get(pk=champion.pk).experience == 12, ("8", "12")


def _characteristic(duel):
    champion = brandt(duel)
    data = {"kind": "characteristic", "warrior": champion.pk, "characteristic": "WS", "value": 5}
    return data, lambda: Warrior.objects.get(pk=champion.pk).WS == 5, ("4", "5")


def _characteristic_lowered(duel):
    champion = brandt(duel)
    data = {"kind": "characteristic", "warrior": champion.pk, "characteristic": "WS", "value": 3}
    return data, lambda: Warrior.objects.get(pk=champion.pk).WS == 3, ("4", "3")


def _injury_added(duel):
    champion = brandt(duel)
    data = {"kind": "injury_added", "warrior": champion.pk, "name": "Leg wound", "effect": "-1 M"}
    return data, lambda: champion.injuries.filter(name="Leg wound").exists(), (
        "", "Leg wound (-1 M)",
    )  # fmt: skip


def _injury_removed(duel):
    injury = Injury.objects.create(warrior=brandt(duel), name="Madness", effect="Stupidity")
    data = {"kind": "injury_removed", "injury": injury.pk}
    gone = lambda: not Injury.objects.filter(pk=injury.pk).exists()  # noqa: E731
    return data, gone, ("Madness (Stupidity)", "")


def _skill_added(duel):
    skill = Skill.objects.get(skill_list__key="combat", key="strike_to_injure")
    data = {"kind": "skill_added", "warrior": brandt(duel).pk, "skill": skill.pk}
    known = lambda: WarriorSkill.objects.filter(warrior=brandt(duel), skill=skill).exists()  # noqa: E731
    return data, known, ("", skill.name)


def _skill_removed(duel):
    skill = Skill.objects.get(skill_list__key="combat", key="strike_to_injure")
    known = WarriorSkill.objects.create(warrior=brandt(duel), skill=skill)
    data = {"kind": "skill_removed", "known": known.pk}
    gone = lambda: not WarriorSkill.objects.filter(pk=known.pk).exists()  # noqa: E731
    return data, gone, (skill.name, "")


def _spell_added(duel):
    spell = Spell.objects.order_by("pk").first()
    data = {"kind": "spell_added", "warrior": brandt(duel).pk, "spell": spell.pk}
    known = lambda: WarriorSpell.objects.filter(warrior=brandt(duel), spell=spell).exists()  # noqa: E731
    return data, known, ("", spell.name)


def _spell_removed(duel):
    spell = Spell.objects.order_by("pk").first()
    known = WarriorSpell.objects.create(warrior=brandt(duel), spell=spell)
    data = {"kind": "spell_removed", "known": known.pk}
    gone = lambda: not WarriorSpell.objects.filter(pk=known.pk).exists()  # noqa: E731
    return data, gone, (spell.name, "")


def _item_added(duel):
    halberd = Item.objects.get(key="halberd")
    data = {"kind": "item_added", "warrior": brandt(duel).pk, "item": halberd.pk}
    carried = lambda: brandt(duel).items.filter(item=halberd, price_paid=0).exists()  # noqa: E731
    return data, carried, ("", "Halberd")


def _item_removed(duel):
    owned = brandt(duel).items.get(item__key="axe")
    data = {"kind": "item_removed", "owned": owned.pk}
    gone = lambda: not WarriorItem.objects.filter(pk=owned.pk).exists()  # noqa: E731
    return data, gone, ("Axe", "")


# Those that could give the warband something wait for an organiser; the others apply at once.
GIVES = [
    _experience, _characteristic, _injury_added, _injury_removed, _skill_added, _spell_added,
    _item_added,
]  # fmt: skip
TAKES_AWAY = [_characteristic_lowered, _skill_removed, _spell_removed, _item_removed]


@pytest.mark.parametrize("kind", GIVES, ids=lambda kind: kind.__name__.strip("_"))
def test_a_correction_that_gives_waits_for_an_organiser_then_applies(client, duel, kind):
    reavers, organiser = duel["reavers"], duel["organiser"]
    data, applied, (old, new) = kind(duel)
    ledger = LedgerEntry.objects.count()

    asked = correct(client, reavers, reavers.owner, reason="  Typed  wrong at the table ", **data)

    assert asked.status_code == 200, asked.content.decode()
    assert not applied()
    correction = Correction.objects.get(warband=reavers)
    assert correction.status == Correction.Status.PENDING
    assert "Asked: Brandt:" in asked.content.decode()
    assert "Typed wrong at the table" in asked.content.decode()  # the request, in the board

    approved = decide(client, correction, organiser)

    assert approved.status_code == 200, approved.content.decode()
    assert applied()
    correction.refresh_from_db()
    assert correction.status == Correction.Status.APPLIED
    assert correction.kind == data["kind"]
    assert (correction.old_value, correction.new_value) == (old, new)
    assert (correction.actor, correction.decided_by) == (reavers.owner, organiser)
    assert correction.reason == "Typed wrong at the table"
    assert correction.warrior_name == "Brandt"
    assert LedgerEntry.objects.count() == ledger  # nothing paid, nothing refunded
    body = approved.content.decode()
    assert body.strip().startswith('<div id="corrections-board">')
    assert "Approved and applied: Brandt:" in body
    assert f"Applied, approved by {organiser.username}" in body


@pytest.mark.parametrize("kind", TAKES_AWAY, ids=lambda kind: kind.__name__.strip("_"))
def test_a_correction_that_only_takes_away_applies_at_once(client, duel, kind):
    reavers = duel["reavers"]
    data, applied, (old, new) = kind(duel)
    ledger = LedgerEntry.objects.count()

    response = correct(
        client, reavers, reavers.owner, reason="  Typed  wrong at the table ", **data
    )

    assert response.status_code == 200, response.content.decode()
    assert applied()
    correction = Correction.objects.get(warband=reavers)
    assert correction.status == Correction.Status.APPLIED
    assert correction.kind == data["kind"]
    assert (correction.old_value, correction.new_value) == (old, new)
    assert correction.actor == reavers.owner
    assert correction.reason == "Typed wrong at the table"
    assert correction.warrior_name == "Brandt"
    assert LedgerEntry.objects.count() == ledger  # nothing paid, nothing refunded
    body = response.content.decode()
    assert body.strip().startswith('<div id="corrections-board">')
    assert "Recorded: Brandt:" in body
    assert "Typed wrong at the table" in body  # the history, in the swapped board


def test_the_history_says_who_when_from_what_to_what_and_why_newest_first(client, duel):
    reavers = duel["reavers"]
    champion = brandt(duel)
    corrections.set_experience(champion, actor=reavers.owner, experience=10, reason="First")
    corrections.set_characteristic(
        champion, actor=duel["organiser"], characteristic="BS", value=4, reason="Second"
    )
    client.force_login(reavers.owner)

    page = client.get(page_of(reavers)).content.decode()

    body = page[page.index('id="corrections-history"') :]
    assert body.index("Second") < body.index("First")
    assert "<td>Ballistic Skill (BS)</td><td>3 → 4</td><td>Second</td>" in body
    assert '<td>Experience</td><td>8 → 10</td><td>First</td><td data-testid="state">Waiting' in body
    assert f"<td>{duel['organiser'].username}</td><td>Brandt</td>" in body
    assert "These corrections bypass the rules." in page


def test_the_history_starts_empty(client, duel):
    client.force_login(duel["reavers"].owner)

    body = client.get(page_of(duel["reavers"])).content.decode()

    assert "No corrections yet" in body


def test_a_correction_tells_the_feed_what_it_changed_but_not_why(duel):
    reavers = duel["reavers"]

    corrections.set_experience(
        brandt(duel), actor=duel["organiser"], experience=31, reason="Zqxw ruling"
    )

    line = CampaignEvent.objects.filter(warband=reavers).latest("pk").message
    organiser = duel["organiser"].username
    assert line == f"{organiser} corrected Reavers by hand (Brandt: experience 8 → 31)."
    assert "Zqxw" not in line


def test_a_request_says_nothing_in_the_feed_until_it_applies(duel):
    reavers = duel["reavers"]
    events = CampaignEvent.objects.count()

    corrections.set_experience(brandt(duel), actor=reavers.owner, experience=31, reason="x")

    assert CampaignEvent.objects.count() == events


# --- Refusals --------------------------------------------------------------------------------


# Each refused post's message, beside its field ("id_<kind>_<field>") or, for what the service
# refused or a kind the page does not know, above the form or the board (None).
@pytest.mark.parametrize(
    "data, field, message",
    [
        ({"kind": "experience", "experience": 12}, "id_experience_reason",
         "Say why: every correction is recorded"),
        ({"kind": "experience", "experience": 12, "reason": "   "}, "id_experience_reason",
         "Say why"),
        ({"kind": "experience", "experience": -3, "reason": "x"}, "id_experience_experience",
         "Ensure"),
        ({"kind": "characteristic", "characteristic": "XX", "value": 3, "reason": "x"},
         "id_characteristic_characteristic", "Select a valid choice"),
        ({"kind": "characteristic", "characteristic": "WS", "value": 11, "reason": "x"},
         "id_characteristic_value", "Ensure"),
        ({"kind": "teleport", "reason": "x"}, None, "Choose what to correct."),
        ({"reason": "x"}, None, "Choose what to correct."),
        ({"kind": "experience", "experience": 8, "reason": "x"}, None, "has 8 experience already"),
        ({"kind": "injury_added", "name": " ", "reason": "x"}, "id_injury_added_name",
         "This field is required"),
    ],
)  # fmt: skip
def test_bad_input_is_refused_with_its_reason_and_changes_nothing(
    client, duel, data, field, message
):
    reavers = duel["reavers"]
    data = {"warrior": brandt(duel).pk, **data}
    client.force_login(reavers.owner)
    before = fingerprint()

    response = correct(client, reavers, **data)
    html = response.content.decode()

    assert response.status_code == 422
    assert message in (message_beside(html, field) if field else html)
    assert fingerprint() == before


def test_another_warbands_rows_are_not_choices(client, duel):
    reavers, scourge = duel["reavers"], duel["scourge"]
    theirs = scourge.warriors.first()
    owned = WarriorItem.objects.filter(warrior__warband=scourge).first()
    client.force_login(reavers.owner)
    before = fingerprint()

    first = correct(client, reavers, kind="experience", warrior=theirs.pk,
                    experience=30, reason="x")  # fmt: skip
    second = correct(client, reavers, kind="item_removed", owned=owned.pk, reason="x")

    assert first.status_code == second.status_code == 422
    assert message_beside(first.content.decode(), "id_experience_warrior").startswith(
        "That warrior is not this warband&#x27;s any more"
    )
    assert message_beside(second.content.decode(), "id_item_removed_owned").startswith(
        "That item carried is not"
    )
    assert fingerprint() == before


def test_a_refused_post_keeps_what_was_typed(client, duel):
    reavers = duel["reavers"]

    response = correct(client, reavers, reavers.owner, kind="injury_added", warrior=brandt(duel).pk,
                       name="Old battle wound", reason="")  # fmt: skip

    assert response.status_code == 422
    assert 'value="Old battle wound"' in response.content.decode()


def test_an_item_removed_twice_is_removed_once(client, duel):
    reavers = duel["reavers"]
    owned = brandt(duel).items.get(item__key="axe")

    first = correct(client, reavers, reavers.owner, kind="item_removed", owned=owned.pk, reason="x")
    with pytest.raises(RuleViolation, match="no longer carried: nothing changed"):
        corrections.remove_item(owned, actor=reavers.owner, reason="again")

    assert first.status_code == 200
    assert Correction.objects.filter(warband=reavers).count() == 1


def test_a_warband_being_mustered_is_changed_on_its_muster_board(client, duel):
    draft = WarbandFactory(campaign=duel["campaign"], owner=duel["bystander"])
    captain = hire(draft, "mercenary_captain", name="Adler")
    client.force_login(draft.owner)
    before = fingerprint()

    page = client.get(page_of(draft))
    response = correct(client, draft, kind="experience", warrior=captain.pk, experience=30,
                       reason="x")  # fmt: skip

    assert "still being mustered" in page.content.decode()
    assert response.status_code == 422
    assert "still being mustered: change it on its muster board" in response.content.decode()
    assert fingerprint() == before


def test_nothing_is_corrected_once_the_campaign_is_closed(client, duel):
    reavers = duel["reavers"]
    Campaign.objects.filter(pk=duel["campaign"].pk).update(status=Campaign.Status.CLOSED)
    client.force_login(duel["organiser"])

    page = client.get(page_of(reavers))
    response = correct(client, reavers, kind="experience", warrior=brandt(duel).pk,
                       experience=30, reason="x")  # fmt: skip

    assert page.status_code == 200 and "the campaign is closed" in page.content.decode()
    assert response.status_code == 403
    with pytest.raises(Exception, match="closed"):
        corrections.set_experience(brandt(duel), actor=reavers.owner, experience=3, reason="x")


# --- Who may ---------------------------------------------------------------------------------


def test_opponents_and_strangers_neither_correct_nor_read(client, duel):
    reavers = duel["reavers"]
    corrections.set_experience(brandt(duel), actor=reavers.owner, experience=10, reason="Zqxw")
    stranger = WarbandFactory().owner

    for user, status in ((duel["scourge"].owner, 403), (duel["bystander"], 403), (stranger, 404)):
        client.force_login(user)
        before = fingerprint()
        assert client.get(page_of(reavers)).status_code == status
        refused = correct(client, reavers, kind="experience", warrior=brandt(duel).pk,
                          experience=30, reason="x")  # fmt: skip
        assert refused.status_code == status
        assert "Zqxw" not in refused.content.decode()
        if status == 403:
            roster = client.get(reverse("warband_roster", args=[reavers.pk])).content.decode()
            assert "Manual corrections" not in roster and "Zqxw" not in roster
        assert fingerprint() == before
    with pytest.raises(Exception, match="owner or an organiser"):
        corrections.set_experience(
            brandt(duel), actor=duel["scourge"].owner, experience=3, reason="x"
        )


def test_the_organiser_corrects_and_the_owner_reads_it(client, duel):
    reavers, organiser = duel["reavers"], duel["organiser"]
    client.force_login(organiser)
    roster = client.get(reverse("warband_roster", args=[reavers.pk])).content.decode()
    assert 'data-testid="corrections-link"' in roster

    response = correct(client, reavers, kind="characteristic", warrior=brandt(duel).pk,
                       characteristic="A", value=2, reason="Ruled at the league night")  # fmt: skip

    assert response.status_code == 200
    assert Warrior.objects.get(pk=brandt(duel).pk).A == 2
    assert Correction.objects.get().actor == organiser
    client.force_login(reavers.owner)
    assert "Ruled at the league night" in client.get(page_of(reavers)).content.decode()


def test_without_htmx_a_correction_comes_back_to_the_page_with_a_message(client, duel):
    reavers = duel["reavers"]
    client.force_login(reavers.owner)
    url = reverse("warband_correct", args=[reavers.pk])

    done = client.post(url, {"kind": "experience", "warrior": brandt(duel).pk,
                             "experience": 9, "reason": "x"}, follow=True)  # fmt: skip
    refused = client.post(url, {"kind": "experience", "warrior": brandt(duel).pk,
                                "experience": 7}, follow=True)  # fmt: skip

    assert done.redirect_chain[-1][0] == page_of(reavers)
    assert "Asked: Brandt: Experience 8 → 9. It waits for an organiser" in done.content.decode()
    assert "Say why" in refused.content.decode()


# --- Cost and robustness ---------------------------------------------------------------------


def _queries(client, url) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def test_the_pages_queries_do_not_grow_with_the_history(client, duel):
    reavers, organiser = duel["reavers"], duel["organiser"]
    champion = brandt(duel)
    client.force_login(reavers.owner)
    corrections.set_experience(champion, actor=organiser, experience=9, reason="one")
    corrections.set_characteristic(champion, actor=reavers.owner, characteristic="I",
                                   value=5, reason="asked")  # fmt: skip
    short = _queries(client, page_of(reavers))

    for experience in range(10, 70):  # more than a page of history
        corrections.set_experience(champion, actor=organiser, experience=experience, reason="n")
    for value in range(6, 10):  # more requests waiting
        corrections.set_characteristic(champion, actor=reavers.owner, characteristic="I",
                                       value=value, reason="asked")  # fmt: skip
    Injury.objects.create(warrior=champion, name="Scar")
    long = _queries(client, page_of(reavers))

    assert long == short <= 15
    assert _queries(client, page_of(reavers) + "?page=2") == short


def test_no_form_of_the_page_answers_bad_input_with_a_server_error(client, duel):
    reavers = duel["reavers"]
    Injury.objects.create(warrior=brandt(duel), name="Scar")
    WarriorSpell.objects.create(warrior=brandt(duel), spell=Spell.objects.first())
    corrections.set_experience(brandt(duel), actor=reavers.owner, experience=9, reason="x")
    problems, forms = [], 0
    for user in (reavers.owner, duel["organiser"]):  # the owner withdraws, the organiser decides
        client.force_login(user)
        parser = Forms()
        parser.feed(client.get(page_of(reavers)).content.decode())
        forms += len(parser.forms)
        problems += [
            problem for action, fields in parser.forms for problem in fuzz(client, action, fields)
        ]

    assert forms == 11 + 12  # ten kinds; withdraw (the owner) or approve and refuse
    assert not problems, "\n".join(problems[:10])
