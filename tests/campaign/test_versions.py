"""The versions of a campaign, a warband and a battle grow after the commit of a change the
services tell the cache about (campaign.cache), and the fragments kept under them are drawn
afresh after a change, and only those of what changed."""

import re

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client
from django.urls import reverse

from battles.helper import checks, moves
from battles.helper.start import start_game
from battles.models import Battle, DiceRoll, Fighter
from bench.generate import generate
from campaign import cache
from campaign import services as campaign_services
from campaign.models import Campaign
from tests.factories import mustered_warband, record
from tests.helpers import battle_of, play_to, sack_with_room, sequence_of
from warbands import services, treasury
from warbands.models import Warband

# Rows of these models belong to no one campaign: the rulebook's reference data, the one-time
# form tokens and the hired swords' catalogue entries that organisers share.
NOT_IN_A_CAMPAIGN = {
    "core.FormToken",
    "core.NoticePreference",
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


def version(row) -> int:
    return type(row)._base_manager.values_list("version", flat=True).get(pk=row.pk)


def versions(*rows) -> list[int]:
    return [version(row) for row in rows]


def our_models():
    return [
        m
        for m in apps.get_models()
        if m._meta.app_label in ("core", "campaign", "warbands", "battles", "league")
    ]


def test_every_model_of_ours_names_its_campaign_or_is_declared_outside_one():
    """A model that holds a campaign's data but names no campaign would be left out of the
    campaign's backup and of ``members_only``'s narrowing."""
    unnamed = {m._meta.label for m in our_models() if not hasattr(m, "CAMPAIGN_PATH")}
    assert unnamed == NOT_IN_A_CAMPAIGN


def test_the_versions_are_the_campaigns_the_warbands_and_the_battles():
    assert {kind: m._meta.label for kind, m in cache.versioned().items()} == {
        "campaign": "campaign.Campaign",
        "warband": "warbands.Warband",
        "battle": "battles.Battle",
    }


@pytest.mark.django_db
def test_each_row_finds_its_own_campaign():
    """For a row of every model with a campaign path, from a league played through the
    services: its path leads to the league's campaign (the backup finds its rows so)."""
    league = generate(warbands=3, warriors=3, containers=3, ledger=6, battles=3, played=1,
                      progress=lambda message: None)  # fmt: skip
    checked = 0
    for model in our_models():
        path = getattr(model, "CAMPAIGN_PATH", None)
        row = model._default_manager.order_by("-pk").first() if path else None
        if row is None:
            continue
        found = model._default_manager.filter(pk=row.pk).values_list(path, flat=True).get()
        assert found == league.campaign_id, model
        checked += 1
    assert checked >= 15


@pytest.mark.django_db(transaction=True)
def test_a_change_bumps_the_version_once_when_it_commits(reference_data):
    """Two services in one transaction of a request name the warband twice: it grows once,
    after the commit."""
    warband = mustered_warband()
    campaign = warband.campaign
    before = versions(campaign, warband)

    with cache.noting_changes(), transaction.atomic():
        services.rename_warband(warband, actor=warband.owner, name="Reavers II")
        captain = warband.warriors.get(is_leader=True)
        services.rename_warrior(captain, actor=warband.owner, name="Adler the Bold")
        assert versions(campaign, warband) == before  # not before the commit

    assert versions(campaign, warband) == [before[0] + 1, before[1] + 1]


@pytest.mark.django_db(transaction=True)
def test_a_change_rolled_back_leaves_the_version(reference_data):
    warband = mustered_warband()
    before = versions(warband.campaign, warband)

    with pytest.raises(RuntimeError), transaction.atomic():
        services.rename_warband(warband, actor=warband.owner, name="Never")
        raise RuntimeError

    assert versions(warband.campaign, warband) == before


@pytest.mark.django_db
def test_a_treasury_move_changes_its_warband_only(duel, django_capture_on_commit_callbacks):
    """The league never shows a treasury: a move redraws the warband's own pages, not the
    league's, another warband's or a battle's."""
    reavers, scourge, campaign = duel["reavers"], duel["scourge"], duel["campaign"]
    battle = record(campaign, duel["organiser"], [(reavers, "won", False), (scourge, "lost", True)])
    chest = reavers.containers.get(kind="treasure_chest")
    before = versions(reavers, scourge, campaign, battle)

    with cache.noting_changes(), django_capture_on_commit_callbacks(execute=True):
        treasury.move_treasure(chest, sack_with_room(reavers), actor=reavers.owner, gold=1)

    assert versions(reavers, scourge, campaign, battle) == [before[0] + 1, *before[1:]]


@pytest.mark.django_db
def test_what_the_league_shows_changes_the_campaign_too(duel, django_capture_on_commit_callbacks):
    """Who fights is in the league table (the rating): the campaign grows with the warband
    (once, as in a request); the other warband does not. A warrior's name is not."""
    reavers, scourge, campaign = duel["reavers"], duel["scourge"], duel["campaign"]
    before = versions(reavers, scourge, campaign)
    captain = reavers.warriors.get(is_leader=True)

    with cache.noting_changes(), django_capture_on_commit_callbacks(execute=True):
        services.dismiss_warrior(reavers.warriors.filter(is_leader=False).first(),
                                 actor=reavers.owner)  # fmt: skip
    assert versions(reavers, scourge, campaign) == [before[0] + 1, before[1], before[2] + 1]

    with cache.noting_changes(), django_capture_on_commit_callbacks(execute=True):
        services.rename_warrior(captain, actor=reavers.owner, name="Adler")
    assert versions(reavers, scourge, campaign) == [before[0] + 2, before[1], before[2] + 1]


@pytest.mark.django_db
def test_a_change_that_shows_everywhere_changes_every_version_of_the_campaign(
    duel, django_capture_on_commit_callbacks
):
    reavers, scourge, campaign = duel["reavers"], duel["scourge"], duel["campaign"]
    battle = record(campaign, duel["organiser"], [(reavers, "won", False), (scourge, "lost", True)])
    other = mustered_warband()  # in a campaign of its own
    before = versions(reavers, scourge, campaign, battle, other, other.campaign)

    with cache.noting_changes(), django_capture_on_commit_callbacks(execute=True):
        campaign_services.set_campaign_status(campaign, actor=duel["organiser"], status="closed")

    after = versions(reavers, scourge, campaign, battle, other, other.campaign)
    assert after == [v + 1 for v in before[:4]] + before[4:]


@pytest.mark.django_db
def test_saving_a_row_never_writes_an_old_version_back(duel, django_capture_on_commit_callbacks):
    reavers, campaign = duel["reavers"], duel["campaign"]
    battle = record(campaign, duel["organiser"], [(reavers, "won", False),
                                                   (duel["scourge"], "lost", True)])  # fmt: skip
    stale = [Campaign.objects.get(pk=campaign.pk), Warband.objects.get(pk=reavers.pk),
             Battle.objects.get(pk=battle.pk)]  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        cache.changed(campaign=campaign, warband=reavers, battle=battle)
    grown = versions(*stale)

    for row in stale:
        row.save()

    assert versions(*stale) == grown and [row.version for row in stale] < grown


# --- The fragments kept under them ----------------------------------------------------------


@pytest.mark.django_db
def test_the_league_table_is_drawn_once_per_version(
    client, fragment_cache, django_assert_max_num_queries, django_capture_on_commit_callbacks
):
    warband = mustered_warband(name="Reavers")
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
    before = versions(warband.campaign, warband)

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("warband_rename", args=[warband.pk]), {"name": "Ravens"})

    assert response.status_code == 302
    assert versions(warband.campaign, warband) == [v + 1 for v in before]
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

    def board(user) -> str:
        client.force_login(user)
        return client.get(url).content.decode().split('id="battle-board"')[1]

    mine, theirs = board(reavers.owner), board(scourge.owner)
    assert "Found the secret vault" in mine and "Found the secret vault" not in theirs
    assert board(scourge.owner) == theirs  # kept
    assert len(fragment_cache._cache) == 2  # one per user: neither holds a form

    with django_capture_on_commit_callbacks(execute=True):
        DiceRoll.objects.filter(battle=battle).update(result="Found an empty vault")
        cache.changed(battle=battle)  # as the service that writes it says
    assert "Found an empty vault" in board(reavers.owner)

    pending = record(duel["campaign"], duel["organiser"],
                     [(reavers, "won", False), (scourge, "lost", False)])  # fmt: skip
    pending.status = pending.Status.REPORTED
    with django_capture_on_commit_callbacks(execute=True):
        pending.save()
        cache.changed(battle=pending)
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


@pytest.mark.django_db
def test_a_treasury_move_redraws_its_warbands_pages_and_keeps_the_others(
    client, duel, fragment_cache, django_capture_on_commit_callbacks
):
    """Warband A's move: A's roster is drawn afresh, B's roster and the league table are
    served from the cache as they were kept (their keys, holding B's and the campaign's
    versions, are the same)."""
    reavers, scourge = duel["reavers"], duel["scourge"]
    client.force_login(duel["organiser"])  # he may open both rosters and the league
    pages = {
        "A": reverse("warband_roster", args=[reavers.pk]),
        "B": reverse("warband_roster", args=[scourge.pk]),
        "league": reverse("campaign_detail", args=[duel["campaign"].pk]),
    }
    for url in pages.values():
        client.get(url)
    kept = set(fragment_cache._cache)
    assert len(kept) >= 3
    chest = reavers.containers.get(kind="treasure_chest")

    with django_capture_on_commit_callbacks(execute=True):
        treasury.move_treasure(chest, sack_with_room(reavers), actor=reavers.owner, gold=1)
    for name in ("B", "league"):
        client.get(pages[name])
    assert set(fragment_cache._cache) == kept  # nothing drawn again
    client.get(pages["A"])
    assert len(set(fragment_cache._cache) - kept) == 1  # A's roster, under its new version


@pytest.mark.django_db(transaction=True)
def test_the_answer_to_a_post_after_its_commit_is_drawn_from_the_change(reference_data, settings):
    """The post commits (and its versions grow) before its answer is drawn from the objects
    the view read before the change, whose versions are the old ones: the request's own note
    of what it changed (``ChangesMiddleware``) makes the answer draw them afresh instead of
    serving what the old versions kept."""
    settings.CACHES = {
        **settings.CACHES,
        "fragments": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                      "LOCATION": "test-fragments-committed"},
    }  # fmt: skip
    warband = mustered_warband()
    chest = warband.containers.get(kind="treasure_chest")
    sack = treasury.buy_container(warband, "large_sack", actor=warband.owner, pay_from=chest)
    client = Client()
    client.force_login(warband.owner)
    before = client.get(reverse("warband_treasury", args=[warband.pk])).content.decode()
    assert f'id="container-{sack.pk}"' in before
    old = version(warband)

    answer = client.post(
        reverse("treasury_sell", args=[warband.pk]),
        {"container": sack.pk, "proceeds_to": chest.pk},
        headers={"HX-Request": "true"},
    ).content.decode()

    assert version(warband) == old + 1  # committed, bumped
    assert f'id="container-{sack.pk}"' not in answer
    again = client.get(reverse("warband_treasury", args=[warband.pk])).content.decode()
    assert f'id="container-{sack.pk}"' not in again


@pytest.mark.django_db
def test_site_staffs_edits_in_the_admin_change_every_version_of_the_campaign(
    client, duel, django_capture_on_commit_callbacks
):
    """The admin goes round the services (``campaign.admin.ChangesTheCampaign``)."""
    reavers, scourge, campaign = duel["reavers"], duel["scourge"], duel["campaign"]
    staff = get_user_model().objects.create_superuser("warden", password="x-pass-9")
    client.force_login(staff)
    membership = campaign.memberships.get(user=duel["bystander"])
    before = versions(campaign, reavers, scourge)

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("admin:campaign_membership_delete", args=[membership.pk]), {"post": "yes"}
        )

    assert response.status_code == 302
    assert versions(campaign, reavers, scourge) == [v + 1 for v in before]


@pytest.mark.django_db
def test_a_tap_in_the_helper_changes_no_version_and_a_roll_its_battle(
    duel, django_capture_on_commit_callbacks
):
    """The helper's pages follow the game's own version: a tap (a warrior ran) redraws no
    page kept under a version, and writes none; a test rolled in the helper goes into the
    battle's dice log, which the battle page shows: the battle grows, nothing else."""
    reavers, scourge, campaign = duel["reavers"], duel["scourge"], duel["campaign"]
    battle = start_game(actor=reavers.owner, campaign=campaign, scenario="Skirmish",
                        warband_ids=[reavers.pk, scourge.pk])  # fmt: skip
    captain = Fighter.objects.get(game__battle=battle, warrior__is_leader=True,
                                  warrior__warband=reavers)  # fmt: skip
    before = versions(reavers, scourge, campaign, battle)

    with cache.noting_changes(), django_capture_on_commit_callbacks(execute=True):
        moves.mark(battle.pk, captain.pk, "ran", actor=reavers.owner)
    assert versions(reavers, scourge, campaign, battle) == before

    with cache.noting_changes(), django_capture_on_commit_callbacks(execute=True):
        checks.initiative_test(battle.pk, captain.pk, "climb_up", height=3, entered="2",
                               actor=reavers.owner)  # fmt: skip
    assert DiceRoll.objects.filter(battle=battle).count() == 1
    assert versions(reavers, scourge, campaign, battle) == [*before[:3], before[3] + 1]
