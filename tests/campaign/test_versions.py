"""A campaign's version grows after every committed change to it (campaign.versions), and the
fragments cached under it are drawn afresh after a change."""

import pytest
from django.apps import apps
from django.db import transaction
from django.urls import reverse

from bench.generate import generate
from campaign import versions
from campaign.models import Campaign
from tests.factories import mustered_warband
from warbands import services, treasury
from warbands.models import LedgerEntry, StorageContainer, Warrior

# Rows of these models belong to no one campaign: the rulebook's reference data, the one-time
# form tokens and the hired swords' catalogue entries that organisers share.
NOT_IN_A_CAMPAIGN = {
    "campaign.FormToken",
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
}


def version(campaign) -> int:
    return Campaign.objects.values_list("version", flat=True).get(pk=campaign.pk)


def our_models():
    return [
        m for m in apps.get_models() if m._meta.app_label in ("campaign", "warbands", "battles")
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
        versions._parent_campaign.cache_clear()
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
    versions._bump()  # the test's set-up, which never commits, has had its bump
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
