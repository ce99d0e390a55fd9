"""A campaign's version grows after every committed change to it (campaign.versions), and the
fragments cached under it are drawn afresh after a change."""

import re

import pytest
from django.apps import apps
from django.db import transaction
from django.test import Client
from django.urls import reverse

from battles.models import DiceRoll
from bench.generate import generate
from campaign import versions
from campaign.models import Campaign
from tests.factories import mustered_warband, record
from tests.helpers import battle_of, play_to, sequence_of
from warbands import services, treasury
from warbands.models import LedgerEntry, StorageContainer, Warrior

# Rows of these models belong to no one campaign: the rulebook's reference data, the one-time
# form tokens and the hired swords' catalogue entries that organisers share.
NOT_IN_A_CAMPAIGN = {
    "core.FormToken",
    "warbands.RacialMaximum",
    "warbands.SkillList",
    "warbands.Skill",
    "warbands.SpellList",
    "warbands.Spell",
    "warbands.Item",
    "warbands.WarbandType",
    "warbands.EquipmentList",
    "warbands.EquipmentListEntry",
    "warbands.WarriorType",
    "warbands.HiredSwordType",
}


def version(campaign) -> int:
    return Campaign.objects.values_list("version", flat=True).get(pk=campaign.pk)


def our_models():
    return [
        m
        for m in apps.get_models()
        if m._meta.app_label in ("core", "campaign", "warbands", "battles", "league")
    ]


def test_every_model_of_ours_names_its_campaign_or_is_declared_outside_one():
    """A model that holds a campaign's data but names no campaign would change pages without
    their version changing."""
    unnamed = {m._meta.label for m in our_models() if not hasattr(m, "CAMPAIGN_PATH")}
    assert unnamed == NOT_IN_A_CAMPAIGN


def test_every_campaign_models_writes_without_signals_change_the_version_too():
    for model in our_models():
        if hasattr(model, "CAMPAIGN_PATH"):
            assert isinstance(model._default_manager.all(), versions.VersionedQuerySet), model


@pytest.mark.django_db
def test_each_row_finds_its_own_campaign():
    """For a row of every model with a campaign path, from a league played through the
    services: the campaign it names is the one its path leads to."""
    generate(warbands=3, warriors=3, containers=3, ledger=6, battles=3, played=1,
             progress=lambda message: None)  # fmt: skip
    checked = 0
    for model in our_models():
        path = getattr(model, "CAMPAIGN_PATH", None)
        row = model._default_manager.order_by("-pk").first() if path else None
        if row is None:
            continue
        expected = (
            row.pk
            if path == "pk"
            else model._default_manager.filter(pk=row.pk).values_list(path, flat=True).get()
        )
        versions.forget_parents()
        assert versions.campaign_of(row) == expected, model
        checked += 1
    assert checked >= 15


@pytest.mark.django_db(transaction=True)
def test_a_change_bumps_the_version_once_when_it_commits(reference_data):
    warband = mustered_warband()
    campaign = warband.campaign
    before = version(campaign)

    with transaction.atomic():
        services.rename_warband(warband, actor=warband.owner, name="Reavers II")
        Warrior.objects.filter(warband=warband).update(experience=1)  # no signal: the queryset
        assert version(campaign) == before  # not before the commit

    assert version(campaign) == before + 1


@pytest.mark.django_db(transaction=True)
def test_a_change_rolled_back_leaves_the_version(reference_data):
    warband = mustered_warband()
    before = version(warband.campaign)

    with pytest.raises(RuntimeError), transaction.atomic():
        services.rename_warband(warband, actor=warband.owner, name="Never")
        raise RuntimeError

    assert version(warband.campaign) == before


@pytest.mark.django_db
def test_writes_without_signals_and_deletes_change_their_campaigns(
    django_capture_on_commit_callbacks,
):
    warband = mustered_warband()
    other = mustered_warband()  # in a campaign of its own
    chest = warband.containers.get(kind="treasure_chest")
    versions.bump()  # the test's set-up, which never commits, has had its bump
    before, other_before = version(warband.campaign), version(other.campaign)

    for write in (
        lambda: StorageContainer.objects.filter(pk=chest.pk).update(label="Tithes"),
        lambda: StorageContainer.objects.bulk_update([chest], ["label"]),
        lambda: LedgerEntry.objects.bulk_create(
            [LedgerEntry(warband=warband, container=chest, kind="gold", amount=1, reason="income")]
        ),
        lambda: warband.warriors.filter(is_leader=False).first().delete(),
    ):
        with django_capture_on_commit_callbacks(execute=True):
            write()
    assert version(warband.campaign) == before + 4
    assert version(other.campaign) == other_before


@pytest.mark.django_db
def test_saving_a_campaign_never_writes_an_old_version_back(django_capture_on_commit_callbacks):
    warband = mustered_warband()
    stale = Campaign.objects.get(pk=warband.campaign_id)
    with django_capture_on_commit_callbacks(execute=True):
        treasury.create_starting_chest(warband)  # another change: the version grows
    grown = version(stale)

    stale.name = "Renamed"
    stale.save()

    assert version(stale) >= grown and stale.version < grown


# --- The fragments cached under it ----------------------------------------------------------


@pytest.mark.django_db
def test_the_league_table_is_drawn_once_per_version(
    client, fragment_cache, django_assert_max_num_queries, django_capture_on_commit_callbacks
):
    warband = mustered_warband(name="Reavers")
    versions.bump()  # the set-up, which the test's transaction never commits
    client.force_login(warband.owner)
    url = reverse("campaign_detail", args=[warband.campaign_id])
    first = client.get(url).content.decode()

    with django_assert_max_num_queries(4):  # session, user, the campaign with the membership
        again = client.get(url).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        services.rename_warband(warband, actor=warband.owner, name="Brand New Name")
    after = client.get(url).content.decode()

    def fragments(page):  # the page less its head, whose CSRF token is masked anew each time
        return page.split('<section aria-labelledby="table-heading">')[1]

    assert fragments(again) == fragments(first) and "Reavers" in first
    assert "Brand New Name" in after and ">Reavers<" not in after


@pytest.mark.django_db
def test_a_post_through_the_page_changes_the_version_after_it(
    client, fragment_cache, django_capture_on_commit_callbacks
):
    warband = mustered_warband(name="Reavers")
    client.force_login(warband.owner)
    before = version(warband.campaign)

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("warband_rename", args=[warband.pk]), {"name": "Ravens"})

    assert response.status_code == 302
    assert version(warband.campaign) == before + 1
    page = client.get(reverse("campaign_detail", args=[warband.campaign_id])).content.decode()
    assert "Ravens" in page


@pytest.mark.django_db
def test_a_battle_board_is_kept_per_user_and_only_without_forms(
    client, duel, fragment_cache, django_capture_on_commit_callbacks
):
    """The board shows each user their own secret rolls and forms: kept per user, and never
    while it holds a form (whose tokens must be new each time)."""

    reavers, scourge = duel["reavers"], duel["scourge"]
    battle = record(duel["campaign"], duel["organiser"],
                    [(reavers, "won", False), (scourge, "lost", True)])  # fmt: skip
    DiceRoll.objects.create(
        battle=battle,
        warband=reavers,
        purpose="Exploration of Reavers",
        faces=[6, 6],
        sides=6,
        result="Found the secret vault",
        secret=True,
    )
    url = reverse("battle_detail", args=[battle.pk])
    versions.bump()

    def board(user) -> str:
        client.force_login(user)
        return client.get(url).content.decode().split('id="battle-board"')[1]

    mine, theirs = board(reavers.owner), board(scourge.owner)
    assert "Found the secret vault" in mine and "Found the secret vault" not in theirs
    assert board(scourge.owner) == theirs  # kept
    assert len(fragment_cache._cache) == 2  # one per user: neither holds a form

    with django_capture_on_commit_callbacks(execute=True):
        DiceRoll.objects.filter(battle=battle).update(result="Found an empty vault")
    assert "Found an empty vault" in board(reavers.owner)

    pending = record(duel["campaign"], duel["organiser"],
                     [(reavers, "won", False), (scourge, "lost", False)])  # fmt: skip
    pending.status = pending.Status.REPORTED
    with django_capture_on_commit_callbacks(execute=True):
        pending.save()
    client.force_login(duel["organiser"])
    first = client.get(reverse("battle_detail", args=[pending.pk])).content.decode()
    again = client.get(reverse("battle_detail", args=[pending.pk])).content.decode()
    assert 'name="form_token"' in first  # the organiser may confirm it for everybody
    assert (
        first.split('name="form_token" value="')[1][:36]
        != again.split('name="form_token" value="')[1][:36]
    )


@pytest.mark.django_db
def test_the_answer_to_a_post_is_drawn_from_the_change_not_the_kept_fragments(
    client, fragment_cache
):
    """The board a move answers with is drawn before the change commits, while the campaign's
    version is still the old one: it must not come from the old version's fragments."""
    warband = mustered_warband()
    chest = warband.containers.get(kind="treasure_chest")
    sack = treasury.buy_container(warband, "large_sack", actor=warband.owner, pay_from=chest)
    versions.bump()
    client.force_login(warband.owner)
    url = reverse("warband_treasury", args=[warband.pk])
    before = client.get(url).content.decode()
    assert f'<article class="container-card" id="container-{sack.pk}">' in before

    answer = client.post(
        reverse("treasury_sell", args=[warband.pk]),
        {"container": sack.pk, "proceeds_to": chest.pk},
        headers={"HX-Request": "true"},
    ).content.decode()

    assert answer.count('class="container-card"') == before.count('class="container-card"') - 1
    assert f'id="container-{sack.pk}"' not in answer


@pytest.mark.django_db
def test_a_sequence_page_is_kept_per_browser_with_fresh_one_time_tokens(
    client, duel, fragment_cache
):
    """The step's forms are kept with the page: each answer gets new one-time tokens, and the
    page is kept for this browser only (its CSRF token is valid for this browser's cookie)."""

    reavers = duel["reavers"]
    sequence = play_to(sequence_of(battle_of(duel), reavers), 9, reavers.owner)
    versions.bump()
    url = reverse("sequence_detail", args=[sequence.pk])
    client.force_login(reavers.owner)
    client.get(url)  # the CSRF cookie

    def tokens(page):
        return re.findall(r'name="form_token" value="([0-9a-f-]{36})"', page)

    first, again = client.get(url).content.decode(), client.get(url).content.decode()
    assert tokens(first) and len(tokens(first)) == len(tokens(again))
    assert not set(tokens(first)) & set(tokens(again))  # fresh every time
    kept = len(fragment_cache._cache)
    other_browser = Client()
    other_browser.force_login(reavers.owner)
    other_browser.get(url)
    other_browser.get(url)
    assert len(fragment_cache._cache) == kept + 1  # one more kept copy: that browser's
    csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', first)[1]
    posted = client.post(
        reverse("sequence_act", args=[sequence.pk]),
        {"csrfmiddlewaretoken": csrf, "step": 9, "action": "move", "source": "", "target": "",
         "form_token": tokens(again)[0]},
    )  # fmt: skip
    assert posted.status_code != 403  # the kept page's CSRF token is valid for this browser
