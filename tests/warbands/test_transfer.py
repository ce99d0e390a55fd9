"""A warband that outlives its campaign: carried into a second campaign, and exported to a file
imported into a third, each keeping every warrior, item, skill, spell, injury and hired sword;
the refusals of both, the treasury each brings (and the audit after it), and what an opponent
sees of it."""

from __future__ import annotations

import json

import pytest
from django.core.exceptions import PermissionDenied
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from campaign.models import Campaign, Membership
from core.dice import ScriptedDice
from core.errors import RuleViolation
from tests.factories import (
    CampaignFactory,
    MembershipFactory,
    WarbandFactory,
    finish,
    hide_secrets,
    hire,
    mustered_warband,
    record,
)
from tests.secrets import contains_value
from warbands import hired_swords, treasury
from warbands import services as warband_services
from warbands.export import warband_as_json
from warbands.models import (
    HiredSword,
    HouseRules,
    Injury,
    LedgerEntry,
    Skill,
    Warband,
    WarriorSkill,
)
from warbands.transfer import services

pytestmark = pytest.mark.django_db

KEPT = Campaign.CarriedTreasury.KEPT
STARTING = Campaign.CarriedTreasury.STARTING_GOLD


def veteran() -> Warband:
    """A Reikland warband after some games: a Warlock hired sword with his two spells, a
    champion with experience, a skill, a raised maximum and an injury, a dramatis persona, and
    a secret treasure in its chest."""
    warband = WarbandFactory(name="Reavers")
    hire(warband, "mercenary_captain", items=["sword"], name="Captain Adler")
    hire(warband, "champion", items=["axe"], name="Brandt")
    hire(warband, "warrior", models=3, items=["spear"], name="Stadtwache")
    hired_swords.hire_at_muster(
        warband, actor=warband.owner, sword_key="warlock", name="Odo", dice=ScriptedDice([2, 5])
    )
    warband = finish(warband)
    brandt = warband.warriors.get(name="Brandt")
    brandt.experience, brandt.WS, brandt.maximum_bonuses = 14, 5, {"WS": 1}
    brandt.save()
    skill = Skill.objects.filter(skill_list__in=brandt.warrior_type.skill_lists.all()).first()
    WarriorSkill.objects.create(warrior=brandt, skill=skill)
    Injury.objects.create(warrior=brandt, name="Old Battle Wound", effect="Roll at the start")
    HiredSword.objects.create(warband=warband, name="Aenur", kind="dramatis_persona", upkeep=7)
    hide_secrets(warband)
    return warband


def roster(warband) -> list[tuple]:
    """Every warrior field by field, and the hired swords typed by hand."""
    warriors = warband.warriors.on_roster().order_by("name")
    return [
        (
            w.name, w.warrior_type.key, w.is_hero, w.is_leader, w.group_size, w.experience,
            w.games_to_miss, w.profile.as_dict(), w.maximum_bonuses,
            w.hired_sword.key if w.hired_sword_id else None,
            sorted(w.items.values_list("item__key", flat=True)),
            sorted(w.skills.values_list("skill__key", flat=True)),
            sorted(w.spells.values_list("spell__key", flat=True)),
            list(w.injuries.values_list("name", "effect")),
        )
        for w in warriors
    ] + [tuple(warband.hired_swords.values_list("name", "kind", "hire_fee", "upkeep"))]  # fmt: skip


def campaign_for(owner, **settings) -> Campaign:
    campaign = CampaignFactory(**settings)
    Membership.objects.create(campaign=campaign, user=owner)
    return campaign


def upload(client, campaign, content: bytes):
    file = SimpleUploadedFile("reavers.json", content, content_type="application/json")
    return client.post(reverse("campaign_import", args=[campaign.pk]), {"file": file})


def test_a_veteran_is_carried_and_imported_keeping_every_warrior(client):
    source = veteran()
    owner = source.owner
    kept = campaign_for(owner, carrying_allowed=True, carried_treasury=KEPT)
    imported = campaign_for(owner, imports_allowed=True, carried_treasury=STARTING)
    gold_before = treasury.totals(source)
    client.force_login(owner)

    page = client.get(reverse("warband_carry", args=[source.pk])).content.decode()
    assert kept.name in page and imported.name not in page  # only campaigns that take it
    unticked = client.post(reverse("warband_carry", args=[source.pk]), {"campaign": kept.pk})
    assert unticked.status_code == 422 and "Tick the box" in unticked.content.decode()
    response = client.post(
        reverse("warband_carry", args=[source.pk]), {"campaign": kept.pk, "confirm": "on"}
    )
    copy = Warband.objects.get(campaign=kept)
    assert response.status_code == 302 and copy.carried_from == source
    assert roster(copy) == roster(source)
    assert len(roster(copy)) == 5 and roster(copy)[2][9] == "warlock"  # the Warlock came
    assert treasury.totals(copy) == gold_before == treasury.totals(source)  # source untouched
    carried = copy.ledger.filter(reason=LedgerEntry.Reason.CARRIED_IN)
    assert {e.kind for e in carried} == {"gold", "wyrdstone", "item"}
    assert not treasury.conservation_problems()
    page = client.get(reverse("warband_roster", args=[source.pk])).content.decode()
    assert f"Carried into {kept.name}" in page
    page = client.get(reverse("warband_roster", args=[copy.pk])).content.decode()
    assert f"Carried from {source.campaign.name}" in page

    exported = client.get(reverse("warband_export", args=[source.pk])).content
    data = json.loads(exported)
    assert (data["format"], data["version"]) == ("mordheim-campaigns/warband", 1)
    report = upload(client, imported, exported)
    assert report.status_code == 200
    text = report.content.decode()
    assert 'data-testid="import-left-out"' not in text, text  # nothing refused
    signed = report.context["confirm"]["payload"].value()
    done = client.post(
        reverse("campaign_import_confirm", args=[imported.pk]),
        {"payload": signed, "name": "Reavers again", "confirm": "on"},
    )
    assert done.status_code == 302
    again = Warband.objects.get(campaign=imported)
    assert again.name == "Reavers again" and again.carried_from is None
    assert roster(again) == roster(source)
    assert treasury.totals(again)["gold"] == again.starting_gold == 500  # never the file's gold
    assert not again.ledger.filter(reason=LedgerEntry.Reason.CARRIED_IN).exists()
    assert not treasury.conservation_problems()
    # A second tab's confirmation of the same report takes the player's last place: refused.
    twice = client.post(
        reverse("campaign_import_confirm", args=[imported.pk]),
        {"payload": signed, "name": "Reavers thrice", "confirm": "on"},
    )
    assert twice.status_code == 422 and "per player" in twice.content.decode()
    assert Warband.objects.filter(campaign=imported).count() == 1


def test_carrying_is_refused_with_what_would_work():
    source = mustered_warband()
    owner = source.owner
    closed_door = campaign_for(owner)
    stranger_land = CampaignFactory(carrying_allowed=True)
    open_door = campaign_for(owner, carrying_allowed=True)

    def refused(target, words, *, actor=owner, warband=source):
        with pytest.raises(RuleViolation, match=words):
            services.carry_warband(warband, actor=actor, target=target)

    refused(closed_door, "ask its organiser to allow carrying")
    refused(stranger_land, "not a member")
    refused(source.campaign, "another campaign")
    opponent = MembershipFactory(campaign=open_door).user
    with pytest.raises(PermissionDenied):
        services.carry_warband(source, actor=opponent, target=open_door)
    HouseRules.objects.create(campaign=open_door, list_grades=[], list_keys=["middenheim"])
    refused(open_door, "Middenheim")
    HouseRules.objects.filter(campaign=open_door).delete()
    # A battle whose post-battle sequence is not played yet.
    other = mustered_warband(campaign=source.campaign)
    organiser = MembershipFactory(campaign=source.campaign, is_organiser=True).user
    record(source.campaign, organiser, [(source, "won", False), (other, "lost", True)])
    refused(open_door, "post-battle sequence of this warband is not finished")
    disbanded = mustered_warband(campaign=source.campaign)
    Membership.objects.create(campaign=open_door, user=disbanded.owner)
    warband_services.disband_warband(disbanded, actor=disbanded.owner)
    refused(open_door, "no warrior free to fight", actor=disbanded.owner, warband=disbanded)
    assert not Warband.objects.filter(campaign=open_door).exists()  # nothing made by a refusal


def test_a_second_tab_cannot_carry_the_same_warband_twice():
    source = veteran()
    stale = Warband.objects.get(pk=source.pk)  # what the second tab read before the first carry
    target = campaign_for(source.owner, carrying_allowed=True, max_warbands_per_player=3)
    services.carry_warband(source, actor=source.owner, target=target)
    with pytest.raises(RuleViolation, match="already been carried into that campaign"):
        services.carry_warband(stale, actor=source.owner, target=target)
    assert Warband.objects.filter(campaign=target).count() == 1
    elsewhere = campaign_for(source.owner, carrying_allowed=True, carried_treasury="none")
    copy = services.carry_warband(stale, actor=source.owner, target=elsewhere)
    assert treasury.totals(copy)["gold"] == 0 and not treasury.conservation_problems()


def test_the_opponent_never_sees_the_treasury_of_a_carried_warband(client):
    source = veteran()
    secrets = [*hide_secrets(source), "Elven cloak"]
    target = campaign_for(source.owner, carrying_allowed=True, carried_treasury=KEPT)
    copy = services.carry_warband(source, actor=source.owner, target=target)
    opponent = MembershipFactory(campaign=target).user
    Membership.objects.create(campaign=source.campaign, user=opponent)
    client.force_login(opponent)
    assert client.get(reverse("warband_carry", args=[source.pk])).status_code == 403
    for url in (
        reverse("warband_roster", args=[copy.pk]),
        reverse("warband_export", args=[copy.pk]),
        reverse("warband_roster", args=[source.pk]),
        reverse("campaign_detail", args=[target.pk]),
        reverse("campaign_import", args=[target.pk]),
    ):
        page = client.get(url).content.decode()
        for secret in secrets:
            assert not contains_value(page, secret), (url, secret)


def test_a_bad_file_is_refused_where_the_player_looks_and_nothing_is_made(client):
    owner = MembershipFactory().user
    campaign = campaign_for(owner, imports_allowed=True)
    client.force_login(owner)
    for content, words in (
        (b"{not json", "not JSON"),
        (b'{"format": "something-else", "version": 1}', "not a warband file"),
        (b'{"format": "mordheim-campaigns/warband", "version": 7}', "version 7"),
        (b'{"format": "mordheim-campaigns/warband", "version": 1, "name": "X"}', "warband list"),
    ):
        response = upload(client, campaign, content)
        assert response.status_code == 422 and words in response.content.decode(), words
    forged = client.post(
        reverse("campaign_import_confirm", args=[campaign.pk]),
        {"payload": "forged", "name": "X", "confirm": "on"},
    )
    assert forged.status_code == 422 and "upload the file again" in forged.content.decode()
    assert not Warband.objects.filter(campaign=campaign).exists()


def test_an_imported_file_leaves_out_what_the_lists_refuse(client):
    source = veteran()
    campaign = campaign_for(source.owner, imports_allowed=True, carried_treasury=KEPT)
    data = json.loads(services_export(source))
    brandt = next(w for w in data["warriors"] if w["name"] == "Brandt")
    brandt["profile"]["WS"] = 9
    data["warriors"][0]["items"].append({"key": "no_such_thing"})
    client.force_login(source.owner)
    response = upload(client, campaign, json.dumps(data).encode())
    left_out = " ".join(response.context["report"].left_out)
    assert "Brandt: his profile is above his race's maximum: WS 9 (most 7)" in left_out
    assert "no item “no_such_thing” is known" in left_out
    HouseRules.objects.create(campaign=campaign, list_grades=[], list_keys=["middenheim"])
    response = upload(client, campaign, json.dumps(data).encode())
    assert "Middenheim" in " ".join(response.context["report"].stops)
    assert 'action="/campaigns/' + str(campaign.pk) + '/import/confirm/"' not in (
        response.content.decode()
    )


def services_export(warband) -> bytes:
    return json.dumps(warband_as_json(warband)).encode()
