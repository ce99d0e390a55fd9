"""Requests of corrections (``warbands.corrections.deciding``): an organiser approves or refuses
them, whoever asked withdraws them while they wait, a request the roster has moved past lapses
instead of applying, an organiser's own warband needs another organiser (or is announced to
every player), and the organisers find what waits for them on their dashboard and settings
page."""

import pytest
from django.urls import reverse

from campaign.models import CampaignEvent, Membership
from core.errors import RuleViolation
from tests.factories import MembershipFactory, UserFactory, mustered_warband
from tests.helpers import fingerprint, warriors
from warbands import corrections
from warbands.models import (
    Correction,
    Injury,
    Item,
    Skill,
    Warband,
    Warrior,
    WarriorItem,
    WarriorSkill,
)

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}
Status = Correction.Status


def brandt(warband) -> Warrior:
    return warriors(warband)[1]


def ask_experience(warband, experience=12, actor=None) -> Correction:
    return corrections.set_experience(
        brandt(warband), actor=actor or warband.owner, experience=experience, reason="Misread"
    )


def post_decision(client, correction, user=None, **data):
    """``user`` (the client's, when None) posts his decision on ``correction``."""
    if user is not None:
        client.force_login(user)
    url = reverse("correction_decide", args=[correction.warband_id, correction.pk])
    return client.post(url, {"decision": "approve", **data}, headers=HTMX)


def post_withdraw(client, correction, user=None):
    if user is not None:
        client.force_login(user)
    url = reverse("correction_withdraw", args=[correction.warband_id, correction.pk])
    return client.post(url, headers=HTMX)


def experience_of(warband) -> int:
    return Warrior.objects.get(pk=brandt(warband).pk).experience


# --- Refused, withdrawn, decided once -------------------------------------------------------


def test_an_organiser_refuses_a_request_saying_why_and_the_player_reads_it(client, duel):
    reavers = duel["reavers"]
    asked = ask_experience(reavers)

    response = post_decision(client, asked, duel["organiser"], decision="refuse",
                             reason="Not what the table saw")  # fmt: skip

    assert response.status_code == 200
    asked.refresh_from_db()
    assert (asked.status, asked.decision) == (Status.REFUSED, "Not what the table saw")
    assert asked.decided_by == duel["organiser"] and asked.decided_at is not None
    assert experience_of(reavers) == 8
    client.force_login(reavers.owner)
    page = client.get(reverse("warband_corrections", args=[reavers.pk])).content.decode()
    assert f"Refused by {duel['organiser'].username}: “Not what the table saw”" in page
    assert "No requests waiting." in page


def test_refusing_needs_a_reason_and_changes_nothing_without_one(client, duel):
    asked = ask_experience(duel["reavers"])
    client.force_login(duel["organiser"])
    before = fingerprint()

    response = post_decision(client, asked, decision="refuse", reason="  ")

    assert response.status_code == 422
    assert "Say why it is refused: the player reads it." in response.content.decode()
    assert fingerprint() == before


def test_the_player_withdraws_his_request_and_nobody_else_does(client, duel):
    reavers = duel["reavers"]
    asked = ask_experience(reavers)

    for user in (duel["organiser"], duel["scourge"].owner):
        client.force_login(user)
        before = fingerprint()
        assert post_withdraw(client, asked).status_code == 403
        assert fingerprint() == before
    response = post_withdraw(client, asked, reavers.owner)

    assert response.status_code == 200
    assert "Withdrawn: Brandt: Experience 8 → 12." in response.content.decode()
    asked.refresh_from_db()
    assert asked.status == Status.WITHDRAWN and asked.decided_by is None
    assert experience_of(reavers) == 8


def test_a_request_is_decided_once(client, duel):
    reavers, organiser = duel["reavers"], duel["organiser"]
    asked = ask_experience(reavers)
    post_decision(client, asked, organiser)

    again = post_decision(client, asked, organiser)
    refused = post_decision(client, asked, organiser, decision="refuse", reason="late")
    withdrawn = post_withdraw(client, asked, reavers.owner)

    for response in (again, refused, withdrawn):
        assert response.status_code == 422
        assert "That request is applied by" in response.content.decode()
    assert experience_of(reavers) == 12
    assert Correction.objects.get(pk=asked.pk).status == Status.APPLIED


def test_players_decide_nothing(client, duel):
    asked = ask_experience(duel["reavers"])

    for user, status in ((duel["reavers"].owner, 403), (duel["scourge"].owner, 403),
                         (duel["bystander"], 403), (UserFactory(), 404)):  # fmt: skip
        client.force_login(user)
        before = fingerprint()
        assert post_decision(client, asked).status_code == status
        assert fingerprint() == before
    with pytest.raises(Exception, match="Only an organiser approves"):
        corrections.approve(asked, actor=duel["reavers"].owner)
    assert Correction.objects.get(pk=asked.pk).status == Status.PENDING


def test_another_warbands_request_is_not_found_through_this_one(client, duel):
    asked = ask_experience(duel["reavers"])
    url = reverse("correction_decide", args=[duel["scourge"].pk, asked.pk])
    client.force_login(duel["organiser"])

    assert client.post(url, {"decision": "approve"}, headers=HTMX).status_code == 404


def test_the_same_request_twice_is_asked_once_and_twenty_at_most(duel):
    reavers = duel["reavers"]
    ask_experience(reavers)

    with pytest.raises(RuleViolation, match=r"asked for this on .*: it waits for an organiser"):
        ask_experience(reavers)
    for experience in range(13, 13 + corrections.MAX_PENDING - 1):
        ask_experience(reavers, experience)
    with pytest.raises(RuleViolation, match="20 requests of Reavers wait for the organisers"):
        ask_experience(reavers, 99)
    assert Correction.objects.filter(warband=reavers).count() == corrections.MAX_PENDING


# --- Applied as asked, or not at all ---------------------------------------------------------


def test_a_request_lapses_when_what_it_changes_has_moved_since(client, duel):
    reavers = duel["reavers"]
    asked = ask_experience(reavers)
    Warrior.objects.filter(pk=brandt(reavers).pk).update(experience=11)  # step 2, say

    response = post_decision(client, asked, duel["organiser"])

    assert response.status_code == 200
    assert "That request no longer applies: Brandt&#x27;s experience is 11 now, not 8" in (
        response.content.decode()
    )
    asked.refresh_from_db()
    assert asked.status == Status.LAPSED
    assert asked.decision == "Brandt's experience is 11 now, not 8 as when it was asked."
    assert experience_of(reavers) == 11


@pytest.mark.parametrize("moved", ["dead", "skill known", "item bought", "injury healed"])
def test_a_request_lapses_when_the_roster_moved_on(duel, moved):
    reavers, organiser = duel["reavers"], duel["organiser"]
    champion = brandt(reavers)
    skill = Skill.objects.get(skill_list__key="combat", key="strike_to_injure")
    halberd = Item.objects.get(key="halberd")
    injury = Injury.objects.create(warrior=champion, name="Madness")
    asked = {
        "dead": lambda: ask_experience(reavers),
        "skill known": lambda: corrections.add_skill(
            champion, actor=reavers.owner, skill=skill, reason="x"),
        "item bought": lambda: corrections.add_item(
            champion, actor=reavers.owner, item=halberd, reason="x"),
        "injury healed": lambda: corrections.remove_injury(injury, actor=reavers.owner, reason="x"),
    }[moved]()  # fmt: skip
    if moved == "dead":
        Warrior.objects.filter(pk=champion.pk).update(status=Warrior.Status.DEAD)
    elif moved == "skill known":
        WarriorSkill.objects.create(warrior=champion, skill=skill)
    elif moved == "item bought":
        WarriorItem.objects.create(warrior=champion, item=halberd, price_paid=10)
    else:
        injury.delete()
    events = CampaignEvent.objects.count()

    decided = corrections.approve(asked, actor=organiser)

    assert decided.status == Status.LAPSED, decided.decision
    assert decided.decision.endswith(".")
    assert CampaignEvent.objects.count() == events  # nothing applied, nothing told
    assert not WarriorItem.objects.filter(correction=asked).exists()
    assert WarriorSkill.objects.filter(warrior=champion).count() == (moved == "skill known")


def test_a_warband_that_no_longer_plays_applies_no_request(duel):
    reavers = duel["reavers"]
    asked = ask_experience(reavers)
    Warband.objects.filter(pk=reavers.pk).update(status=Warband.Status.DISBANDED)

    decided = corrections.approve(asked, actor=duel["organiser"])

    assert (decided.status, decided.decision) == (Status.LAPSED, "Reavers no longer plays.")
    assert experience_of(reavers) == 8


# --- An organiser's own warband --------------------------------------------------------------


@pytest.fixture
def organisers_band(duel):
    """A warband of the duel's organiser, and a co-organiser who approves its requests."""
    campaign = duel["campaign"]
    band = mustered_warband(campaign=campaign, owner=duel["organiser"], name="Own Band")
    other = MembershipFactory(campaign=campaign, is_organiser=True).user
    return band, other


def test_an_organisers_own_correction_waits_for_another_organiser(client, organisers_band, duel):
    band, other = organisers_band
    organiser = duel["organiser"]

    asked = ask_experience(band, actor=organiser)

    assert asked.status == Status.PENDING
    assert post_decision(client, asked, organiser).status_code == 403
    assert experience_of(band) == 8
    response = post_decision(client, asked, other)
    assert response.status_code == 200
    asked.refresh_from_db()
    assert (asked.status, asked.decided_by, asked.announced) == (Status.APPLIED, other, False)
    line = CampaignEvent.objects.filter(warband=band).latest("pk").message
    assert line == (
        f"{other.username} approved a correction of Own Band asked by {organiser.username} "
        "(Brandt: experience 8 → 12)."
    )


def test_the_only_organisers_own_correction_is_announced_with_what_changed(organisers_band, duel):
    band, other = organisers_band
    Membership.objects.filter(user=other).update(is_organiser=False)
    organiser = duel["organiser"]
    rifle = Item.objects.get(key="hochland_long_rifle")

    applied = corrections.add_item(warriors(band)[2], actor=organiser, item=rifle,
                                   reason="Paid 200 gc from the Strongbox")  # fmt: skip

    assert (applied.status, applied.announced) == (Status.APPLIED, True)
    line = CampaignEvent.objects.filter(warband=band).latest("pk").message
    assert line == (
        f"{organiser.username} corrected Own Band, his own warband, by hand with no other "
        "organiser to approve it (Stadtwache: item Hochland long rifle added, breaking the list "
        "(Hochland long rifle is not on Stadtwache's equipment list))."
    )
    assert "200" not in line and "Strongbox" not in line  # the reason stays with the record


def test_an_organisers_correction_of_a_players_warband_applies_at_once(duel):
    applied = ask_experience(duel["reavers"], actor=duel["organiser"])

    assert (applied.status, applied.decided_by) == (Status.APPLIED, duel["organiser"])
    assert experience_of(duel["reavers"]) == 12


def test_an_organiser_who_plays_corrects_an_opponent_only_through_another_organiser(
    client, organisers_band, duel
):
    """An organiser with a warband in play is every player's opponent: giving to any warband
    waits for an organiser with no stake, and he does not find it among what he decides."""
    _, other = organisers_band
    organiser, reavers = duel["organiser"], duel["reavers"]

    asked = ask_experience(reavers, actor=organiser)

    assert asked.status == Status.PENDING
    assert post_decision(client, asked, organiser).status_code == 403
    assert corrections.waiting_for(organiser) == []
    assert [w.warband_id for w in corrections.waiting_for(other)] == [reavers.pk]
    assert post_decision(client, asked, other).status_code == 200
    assert experience_of(reavers) == 12


def test_the_only_organiser_who_plays_corrects_an_opponent_announced(organisers_band, duel):
    _, other = organisers_band
    Membership.objects.filter(user=other).update(is_organiser=False)
    organiser, reavers = duel["organiser"], duel["reavers"]

    applied = ask_experience(reavers, actor=organiser)

    assert (applied.status, applied.announced) == (Status.APPLIED, True)
    line = CampaignEvent.objects.filter(warband=reavers).latest("pk").message
    assert line == (
        f"{organiser.username} corrected {reavers.name}, while playing himself, by hand with no "
        "other organiser to approve it (Brandt: experience 8 → 12)."
    )


def test_lowering_experience_is_a_request_too(duel):
    """Lowering it would hand back the advances of the boxes passed since."""
    asked = ask_experience(duel["reavers"], experience=2)

    assert asked.status == Status.PENDING
    assert experience_of(duel["reavers"]) == 8


# --- Off the list ---------------------------------------------------------------------------


def test_a_request_off_the_list_says_so_and_the_organiser_sees_it(client, duel):
    reavers = duel["reavers"]
    guards = warriors(reavers)[2]
    rifle = Item.objects.get(key="hochland_long_rifle")
    client.force_login(reavers.owner)

    response = client.post(reverse("warband_correct", args=[reavers.pk]),
                           {"kind": "item_added", "warrior": guards.pk, "item": rifle.pk,
                            "reason": "x"}, headers=HTMX)  # fmt: skip

    said = "Hochland long rifle is not on Stadtwache&#x27;s equipment list."
    assert f"It breaks the list: {said}" in response.content.decode()
    client.force_login(duel["organiser"])
    page = client.get(reverse("warband_corrections", args=[reavers.pk])).content.decode()
    assert f"<strong>Breaks the list:</strong> {said}" in page
    assert 'hx-confirm="It breaks the warband\'s list. Approve it all the same?"' in page


@pytest.mark.parametrize(
    "change, said",
    [
        (lambda w, a: corrections.add_item(w[1], actor=a, item=Item.objects.get(key="halberd"),
                                           reason="x"), ""),
        (lambda w, a: corrections.add_skill(
            w[1], actor=a, skill=Skill.objects.get(skill_list__key="academic", key="sorcery"),
            reason="x"), "Sorcery is on the Academic skill list, which Brandt may not learn from."),
        (lambda w, a: corrections.add_skill(
            w[2], actor=a, skill=Skill.objects.get(key="strike_to_injure"),
            reason="x"), "Stadtwache are henchmen: henchmen learn no skills."),
        (lambda w, a: corrections.set_characteristic(w[1], actor=a, characteristic="WS", value=7,
                                                     reason="x"),
         "WS 7 is above Brandt's racial maximum of 6."),
    ],
    ids=["on the list", "skill list", "henchmen", "racial maximum"],
)  # fmt: skip
def test_each_kind_checks_the_list(duel, change, said):
    reavers = duel["reavers"]

    asked = change(warriors(reavers), reavers.owner)

    assert asked.breaks == said


# --- Where the organisers look ---------------------------------------------------------------


def test_the_organisers_dashboard_and_settings_list_the_requests_waiting(client, duel):
    reavers, organiser = duel["reavers"], duel["organiser"]
    ask_experience(reavers)
    ask_experience(reavers, 13)
    client.force_login(organiser)

    dashboard = client.get("/").content.decode()
    settings = client.get(reverse("campaign_settings", args=[duel["campaign"].pk]))

    url = reverse("warband_corrections", args=[reavers.pk])
    assert f'<a href="{url}">Approve or refuse 2 corrections asked for Reavers</a>' in dashboard
    assert f'<a href="{url}">Reavers</a>: 2 requests to approve or refuse' in (
        settings.content.decode()
    )
    client.force_login(reavers.owner)
    assert "Approve or refuse" not in client.get("/").content.decode()


def test_an_organiser_is_not_sent_to_his_own_requests_while_another_decides(
    client, organisers_band, duel
):
    band, other = organisers_band
    ask_experience(band, actor=duel["organiser"])

    client.force_login(duel["organiser"])
    assert "asked for Own Band" not in client.get("/").content.decode()
    client.force_login(other)
    assert "Approve or refuse a correction asked for Own Band" in client.get("/").content.decode()


def test_opponents_never_read_the_requests(client, duel):
    reavers = duel["reavers"]
    corrections.set_experience(brandt(reavers), actor=reavers.owner, experience=12,
                               reason="Zqxw secret")  # fmt: skip

    for user in (duel["scourge"].owner, duel["bystander"]):
        client.force_login(user)
        for path in ("/", reverse("warband_roster", args=[reavers.pk]),
                     reverse("campaign_feed", args=[duel["campaign"].pk])):  # fmt: skip
            assert "Zqxw" not in client.get(path).content.decode()
        assert client.get(reverse("warband_corrections", args=[reavers.pk])).status_code == 403
