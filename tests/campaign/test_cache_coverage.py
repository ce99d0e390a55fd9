"""The safety net of campaign.cache: a service that writes a row under a warband or a battle
(by the row's ``CAMPAIGN_PATH``) and does not name that warband or battle would leave its
pages showing what was there before. Here the services run as the pages run them, each in its
own transaction, while Django's model signals note every row written, and whatever the
commit bumps (``cache.bump``) must cover every warband, battle and campaign those rows
belong to. The battle helper's rows follow the game's own version instead (``cache``)."""

import pytest
from django.apps import apps
from django.db.models.signals import post_delete, post_save

from battles.helper.start import start_game
from battles.report import fortune
from campaign import cache
from campaign import services as campaign_services
from core.dice import ScriptedDice
from tests.helpers import (
    battle_of,
    chest,
    confirm_with_every_side,
    play_to,
    reported,
    sack_with_room,
    sequence_of,
)
from warbands import corrections, services, treasury
from warbands.models import StorageContainer

pytestmark = pytest.mark.django_db


def _kinds(model) -> list[tuple[str, str]]:
    """(kind, lookup from the row to that kind's primary key) for each warband or battle the
    row's campaign path passes through, the row's own model included; for a row under none
    (a member, a line of the feed), its campaign: whether a change of a warband or a battle
    shows on the campaign's pages is for the tests of each service to say."""
    if getattr(model, "VERSIONED_BY_GAME", False):
        return []  # the helper's own version keeps it (tests/battles/test_play_live.py)
    versioned = {m: kind for kind, m in cache.versioned().items()}
    found = [(versioned[model], "pk")] if model in versioned else []
    hops, current = [], model
    for name in model.CAMPAIGN_PATH.split("__"):
        if name == "pk":
            break
        current = current._meta.get_field(name).related_model
        hops.append(name)
        if current in versioned:
            found.append((versioned[current], "__".join(hops)))
    below = [(kind, lookup) for kind, lookup in found if kind != "campaign"]
    return below or found


def _owners(instance) -> set[tuple[str, int]]:
    """The versioned rows ``instance`` belongs to. The first step of each lookup is read off
    the instance (a deleted row is gone from the table), the rest from its parent's row."""
    owners = set()
    for kind, lookup in _kinds(type(instance)):
        if lookup == "pk":
            owners.add((kind, instance.pk))
            continue
        first, _, rest = lookup.partition("__")
        field = instance._meta.get_field(first)
        parent = getattr(instance, field.attname)
        if parent is not None and rest:
            rows = field.related_model._base_manager.filter(pk=parent)
            parent = rows.values_list(rest, flat=True).first()
        if parent is not None:
            owners.add((kind, parent))
    return owners


@pytest.fixture
def watch(monkeypatch, django_capture_on_commit_callbacks):
    """``watch(action)``: run ``action`` in a request's note of changes and commit it; then
    every row it wrote must belong to rows the commit bumped."""
    written: set[tuple[str, int]] = set()
    bumped: set[tuple[str, int]] = set()
    real_bump = cache.bump

    def note(sender, instance, raw=False, **kwargs):
        if not raw and hasattr(sender, "CAMPAIGN_PATH"):
            written.update(_owners(instance))

    def spy(pairs):
        pairs = set(pairs)
        bumped.update(pairs)
        real_bump(pairs)

    monkeypatch.setattr(cache, "bump", spy)
    models = [m for m in apps.get_models() if hasattr(m, "CAMPAIGN_PATH")]
    for model in models:
        post_save.connect(note, sender=model, weak=False)
        post_delete.connect(note, sender=model, weak=False)

    def run(name, action):
        written.clear()
        bumped.clear()
        with cache.noting_changes(), django_capture_on_commit_callbacks(execute=True):
            result = action()
        assert written, f"{name}: wrote nothing the net can see"
        assert written <= bumped, f"{name}: not told to the cache: {sorted(written - bumped)}"
        return result

    yield run
    for model in models:
        post_save.disconnect(note, sender=model)
        post_delete.disconnect(note, sender=model)


def test_the_roster_and_treasury_services_name_what_they_write(duel, watch):
    reavers, organiser = duel["reavers"], duel["organiser"]
    owner = reavers.owner
    box = chest(reavers)
    sack = sack_with_room(reavers)
    watch("rename", lambda: services.rename_warband(reavers, actor=owner, name="Ravens"))
    captain = reavers.warriors.get(is_leader=True)
    watch("rename a warrior", lambda: services.rename_warrior(captain, actor=owner, name="Adler"))
    watch("move", lambda: treasury.move_treasure(box, sack, actor=owner, gold=3))
    bought = watch(
        "buy",
        lambda: treasury.buy_container(reavers, "large_sack", actor=owner, pay_from=box),
    )
    watch("name", lambda: treasury.name_container(bought, "Tithes", actor=owner))
    watch("sell", lambda: treasury.sell_container(bought, actor=owner, proceeds_to=box))
    warrior = reavers.warriors.filter(is_leader=False).first()
    watch(
        "correction",
        lambda: corrections.set_experience(warrior, actor=organiser, experience=4, reason="typo"),
    )
    watch("dismiss", lambda: services.dismiss_warrior(warrior, actor=owner))
    watch("disband", lambda: services.disband_warband(duel["scourge"], actor=duel["scourge"].owner))
    assert StorageContainer.objects.filter(pk=bought.pk, status="sold").exists()


def test_the_battle_services_name_what_they_write(duel, watch):
    reavers, scourge, organiser = duel["reavers"], duel["scourge"], duel["organiser"]
    battle = watch("report", lambda: reported(duel))
    watch("confirm", lambda: confirm_with_every_side(battle))
    watch(
        "fortune markers",
        lambda: fortune.roll_fortune_markers(battle, actor=organiser, dice=ScriptedDice([3, 4, 2])),
    )
    fought = battle_of(duel, champion_out=True)  # its carried items settled
    sequence = sequence_of(fought, reavers)
    for step in range(1, 6):
        watch(f"step {step}", lambda step=step: play_to(sequence, step + 1, reavers.owner))
    other = sequence_of(fought, scourge)
    watch("the other side's steps", lambda: play_to(other, 3, scourge.owner))


def test_the_helper_and_the_campaign_services_name_what_they_write(duel, watch):
    reavers, scourge, organiser = duel["reavers"], duel["scourge"], duel["organiser"]
    campaign = duel["campaign"]
    watch(
        "start a game",
        lambda: start_game(actor=reavers.owner, campaign=campaign,
                           warband_ids=[reavers.pk, scourge.pk], scenario="Skirmish"),
    )  # fmt: skip
    # the helper's moves follow the game's own version (test_versions.py tells which they bump)
    watch(
        "settings",
        lambda: campaign_services.update_campaign(campaign, actor=organiser, name="Siege II"),
    )
    watch(
        "status",
        lambda: campaign_services.set_campaign_status(campaign, actor=organiser, status="closed"),
    )
