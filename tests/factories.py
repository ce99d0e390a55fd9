"""factory_boy factories shared by the whole suite."""

import datetime

import factory
from django.contrib.auth import get_user_model

from battles.report import services as battle_services
from battles.report import sides
from battles.rules import ReportedResult
from campaign.models import Campaign, Membership
from core.dice import ScriptedDice
from tests.muster_copies import Recipe, rules_of
from warbands import leadership, services, treasury
from warbands.models import Item, LedgerEntry, StorageContainer, Warband, WarbandType

PASSWORD = "correct-horse-battery"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"player{n}")
    password = factory.django.Password(PASSWORD)


class CampaignFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Campaign

    # No number of its own in a name ("Campaign no12"): a bare 214 in a page would read as a
    # leaked secret total of 214 gc (tests/secrets.py), and the sequences do reach such numbers.
    name = factory.Sequence(lambda n: f"Campaign no{n}")


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    campaign = factory.SubFactory(CampaignFactory)
    user = factory.SubFactory(UserFactory)
    is_organiser = False


class WarbandFactory(factory.django.DjangoModelFactory):
    """A warband being mustered, with its list's starting gold. The owner is made a member of
    the campaign, as the app requires."""

    class Meta:
        model = Warband
        skip_postgeneration_save = True

    campaign = factory.SubFactory(CampaignFactory)
    owner = factory.SubFactory(UserFactory)
    name = factory.Sequence(lambda n: f"Warband no{n}")  # see CampaignFactory
    warband_type = factory.LazyFunction(lambda: WarbandType.objects.get(key="reikland"))
    status = Warband.Status.DRAFT
    gold_crowns = factory.LazyAttribute(lambda o: o.warband_type.starting_gold)
    starting_gold = factory.LazyAttribute(lambda o: o.warband_type.starting_gold)

    @factory.post_generation
    def membership(obj, create, extracted, **kwargs):
        if create:
            Membership.objects.get_or_create(campaign=obj.campaign, user=obj.owner)

    @factory.post_generation
    def starting_chest(obj, create, extracted, **kwargs):
        if create:
            treasury.create_starting_chest(obj)


def hire(warband, type_key: str, *, models: int = 1, items=(), name: str = "", rolls=(3, 4)):
    """Hire through the real service (the owner acting) and buy ``items`` for the warrior;
    ``rolls`` are his starting spells' dice (two: the Restless Dead's Liche starts with two)."""
    warrior = services.hire_warrior(
        warband,
        actor=warband.owner,
        warrior_type=warband.warband_type.warrior_types.get(key=type_key),
        name=name or type_key.replace("_", " ").title(),
        group_size=models,
        dice=ScriptedDice(rolls),
    )
    for item_key in items:
        services.buy_item(warrior, actor=warband.owner, item_key=item_key)
    warband.refresh_from_db()
    return warrior


def lead(warband, type_key: str):
    """Name the warband's hero of ``type_key`` its leader (a list whose player chooses him),
    through the real service, the owner acting."""
    hero = warband.warriors.get(warrior_type__key=type_key)
    return leadership.name_leader(hero, actor=warband.owner)


def buy_storage_for_purse(warband) -> None:
    """Buy large sacks (2 gc, 50 gc each) until the purse fits the containers, as a player
    would before finishing the muster."""
    while treasury.storage_problems(warband):
        treasury.buy_container(warband, "large_sack", actor=warband.owner)
        warband.refresh_from_db()


def finish(warband) -> Warband:
    buy_storage_for_purse(warband)
    services.finish_muster(warband, actor=warband.owner)
    warband.refresh_from_db()
    return warband


def mustered_warband(**kwargs) -> Warband:
    """A legal Reikland warband, mustering finished: a captain, a champion, three warriors.
    285 gc are left; four large sacks (8 gc) make room, and the 277 gc fill the free chest
    (100) and the sacks (50, 50, 50, 27). The first of a process under a campaign's rules is
    mustered through the services; later ones get the rows they wrote (``tests.muster_copies``:
    the same rows in a few statements)."""
    warband = WarbandFactory(**kwargs)
    rules = rules_of(warband.campaign) if set(kwargs) <= {"campaign", "name", "owner"} else None
    if rules in MUSTERS:  # the same rows the services wrote for the first (tests.muster_copies)
        return MUSTERS[rules].replay(warband)
    muster_through_services(warband)
    if rules is not None:
        MUSTERS[rules] = Recipe.of(warband)
    return warband


def muster_through_services(warband: Warband) -> Warband:
    """``mustered_warband``'s muster of a warband fresh from the factory, through the services."""
    hire(warband, "mercenary_captain", items=["sword"], name="Captain Adler")
    hire(warband, "champion", items=["axe"], name="Brandt")
    hire(warband, "warrior", models=3, items=["spear"], name="Stadtwache")
    return finish(warband)


#: ``mustered_warband``'s musters through the services, by the campaign rules they ran under.
MUSTERS: dict[tuple, Recipe] = {}


SECRET_GOLD = 37
SECRET_WYRDSTONE = 7
SECRET_ITEM = "Elven cloak"


def hide_secrets(warband) -> list[object]:
    """Give the warband's treasure chest a distinctive treasure (37 gc, 7 wyrdstone and an
    Elven cloak) and return every value an opponent must never see: those three and the
    warband's totals."""

    chest = warband.containers.get(kind="treasure_chest")
    treasury.add_treasure(
        chest,
        gold=SECRET_GOLD - chest.gold_crowns,
        wyrdstone=SECRET_WYRDSTONE - chest.wyrdstone,
        reason=LedgerEntry.Reason.INCOME,
    )
    treasury.add_item(
        chest, item=Item.objects.get(key="elven_cloak"), reason=LedgerEntry.Reason.INCOME
    )
    totals = treasury.totals(warband)
    return [SECRET_ITEM, totals["gold"]]


def change_secrets(warband) -> None:
    """Change the treasure chest's contents without crossing a Heavy threshold: 37 gc, 7
    wyrdstone and the cloak become 41 gc, 3 wyrdstone, the cloak and a rope, and back again on
    the next call (see tests/secrets.py). Its name, as secret as its contents, is set to
    "Tithes" and cleared again."""

    chest = warband.containers.get(kind="treasure_chest")
    label = "" if chest.label == "Tithes" else "Tithes"
    StorageContainer.objects.filter(pk=chest.pk).update(label=label)
    rope = chest.stored_items.filter(item__key="rope_and_hook").first()
    if rope is None:
        treasury.add_treasure(chest, gold=4, wyrdstone=-4, reason=LedgerEntry.Reason.INCOME)
        treasury.add_item(chest, item=Item.objects.get(key="rope_and_hook"), reason="income")
    else:
        treasury.add_treasure(chest, gold=-4, wyrdstone=4, reason=LedgerEntry.Reason.INCOME)
        treasury.remove_item(rope, reason=LedgerEntry.Reason.SALE)


def record(campaign, organiser, lines, *, scenario="Skirmish", fought_on=None, outcomes=None):
    """A confirmed battle through the real services: recorded by the organiser, who enters
    every side (warriors not named took part and stood) and confirms it for the players.
    ``lines``: (warband, result, routed); ``outcomes``: {warband: [(warrior, out_of_action,
    enemies_ooa)]}; routers are numbered in the order given."""

    order = iter(range(1, len(lines) + 1))
    battle = battle_services.record_battle(
        actor=organiser,
        campaign=campaign,
        scenario=scenario,
        fought_on=fought_on or datetime.date(2026, 11, 1),
        results=[
            ReportedResult(w.pk, result, routed, next(order) if routed else None)
            for w, result, routed in lines
        ],
    )
    for warband, _, _ in lines:
        deeds = [
            sides.Outcome(
                warrior.pk,
                out_of_action=out_of_action,
                models_out_of_action=warrior.group_size if out_of_action else 0,
                enemies_out_of_action=enemies,
            )
            for warrior, out_of_action, enemies in (outcomes or {}).get(warband, [])
        ]
        sides.enter_side(
            battle, warband, actor=organiser, outcomes=sides.whole_side(warband, deeds)
        )
    return battle_services.confirm_for_everybody(battle, actor=organiser)
