"""factory_boy factories shared by the whole suite."""

import factory
from django.contrib.auth import get_user_model

from campaign.dice import ScriptedDice
from campaign.models import Campaign, Membership
from warbands import services
from warbands.models import Warband, WarbandType

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

    name = factory.Sequence(lambda n: f"Campaign {n}")


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
    name = factory.Sequence(lambda n: f"Warband {n}")
    warband_type = factory.LazyFunction(lambda: WarbandType.objects.get(key="reikland"))
    status = Warband.Status.DRAFT
    gold_crowns = factory.LazyAttribute(lambda o: o.warband_type.starting_gold)

    @factory.post_generation
    def membership(obj, create, extracted, **kwargs):
        if create:
            Membership.objects.get_or_create(campaign=obj.campaign, user=obj.owner)


def hire(warband, type_key: str, *, models: int = 1, items=(), name: str = "", rolls=(3,)):
    """Hire through the real service (the owner acting) and buy ``items`` for the warrior."""
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


def mustered_warband(**kwargs) -> Warband:
    """A legal Reikland warband, mustering finished: a captain, a champion, three warriors."""
    warband = WarbandFactory(**kwargs)
    hire(warband, "mercenary_captain", items=["sword"], name="Captain Adler")
    hire(warband, "champion", items=["axe"], name="Brandt")
    hire(warband, "warrior", models=3, items=["spear"], name="Stadtwache")
    services.finish_muster(warband, actor=warband.owner)
    warband.refresh_from_db()
    return warband
