"""Demo data for local use: `manage.py seed_demo` (run by `make run`).

Idempotent: every row is looked up by its natural key before it is created, so running the
command again changes nothing (demo passwords are reset if someone changed them).
"""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from campaign.auth import DEMO_PASSWORD
from campaign.dice import ScriptedDice
from campaign.models import Campaign, Membership
from warbands import services
from warbands.models import Warband, WarbandType

DEMO_CAMPAIGN = "The Year of the Comet (demo)"
# username, staff, organiser of the demo campaign, warband name (None: does not play)
DEMO_USERS = [
    ("admin", True, False, None),
    ("organiser", False, True, None),
    ("alice", False, False, "Reikland Reavers"),
    ("bob", False, False, "The Grey Scourge"),
]
# Each demo warband: its list, and (warrior type, name, models, items bought per model).
# Both are legal starting warbands within the list's starting gold.
DEMO_ROSTERS = {
    "Reikland Reavers": (
        "reikland",
        [
            ("mercenary_captain", "Gerhardt Adler", 1, ["sword", "light_armour", "helmet"]),
            ("champion", "Otto Brandt", 1, ["halberd", "light_armour"]),
            ("champion", "Lukas Falk", 1, ["sword", "shield"]),
            ("youngblood", "Jonas Weber", 1, ["spear"]),
            ("warrior", "Stadtwache", 3, ["spear"]),
            ("marksman", "Jäger", 2, ["bow"]),
        ],
    ),
    "The Grey Scourge": (
        "skaven",
        [
            ("assassin_adept", "Skrit Nightclaw", 1, ["fighting_claws"]),
            ("eshin_sorcerer", "Queek-Tail", 1, []),
            ("black_skaven", "Snikch", 1, ["sword"]),
            ("black_skaven", "Vex", 1, ["spear"]),
            ("night_runner", "Tik", 1, ["sling"]),
            ("night_runner", "Tok", 1, ["spear"]),
            ("verminkin", "Verminkin", 5, ["club"]),
            ("giant_rat", "Giant Rats", 3, []),
        ],
    ),
}


class Command(BaseCommand):
    help = "Create the demo campaign and accounts (only with DEBUG on: the password is public)."

    def handle(self, *args, **options):
        if not settings.DEBUG:
            raise CommandError(
                "seed_demo creates accounts with a public password, so it only runs with DEBUG=1."
            )
        with transaction.atomic():
            self.seed()
        self.stdout.write(f"Demo logins (password for all: {DEMO_PASSWORD}):")
        for username, staff, organiser, warband in DEMO_USERS:
            role = "site admin" if staff else "organiser" if organiser else f"plays {warband}"
            self.stdout.write(f"  {username:<10} {role}")

    def seed(self) -> None:
        User = get_user_model()
        campaign, _ = Campaign.objects.get_or_create(
            name=DEMO_CAMPAIGN,
            defaults={
                "description": "A demo league in the ruins of the City of the Damned.",
                "mim_carried_items": True,
                "max_warbands_per_player": 2,
            },
        )
        for username, staff, organiser, warband_name in DEMO_USERS:
            user, created = User.objects.get_or_create(
                username=username, defaults={"is_staff": staff, "is_superuser": staff}
            )
            if created or not user.check_password(DEMO_PASSWORD):
                user.set_password(DEMO_PASSWORD)
                user.save(update_fields=["password"])
            if staff:
                continue
            Membership.objects.get_or_create(
                campaign=campaign, user=user, defaults={"is_organiser": organiser}
            )
            if warband_name:
                self.seed_warband(campaign, user, warband_name)

    def seed_warband(self, campaign: Campaign, owner, name: str) -> None:
        """Muster the demo roster unless the warband already has warriors."""
        type_key, roster = DEMO_ROSTERS[name]
        warband_type = WarbandType.objects.get(key=type_key)
        warband = Warband.objects.filter(campaign=campaign, owner=owner, name=name).first()
        if warband is None:
            warband = services.create_warband(
                actor=owner, campaign=campaign, warband_type=warband_type, name=name
            )
        if warband.warriors.exists():
            return
        # An empty warband left by an older seed may have the wrong list: start it again.
        warband.warband_type = warband_type
        warband.status = Warband.Status.DRAFT
        warband.gold_crowns = warband_type.starting_gold
        warband.save()
        for type_key, warrior_name, models, items in roster:
            warrior = services.hire_warrior(
                warband,
                actor=owner,
                warrior_type=warband_type.warrior_types.get(key=type_key),
                name=warrior_name,
                group_size=models,
                dice=ScriptedDice([3]),  # the same starting spell on every machine
            )
            for item_key in items:
                services.buy_item(warrior, actor=owner, item_key=item_key)
        services.finish_muster(warband, actor=owner)
