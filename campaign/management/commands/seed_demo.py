"""Demo data for local use: `manage.py seed_demo` (run by `make run`).

Idempotent: every row is looked up by its natural key before it is created, so running the
command again changes nothing (demo passwords are reset if someone changed them).
"""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from campaign.auth import DEMO_PASSWORD
from campaign.models import Campaign, Membership
from warbands.models import Warband

DEMO_CAMPAIGN = "The Year of the Comet (demo)"
# username, staff, organiser of the demo campaign, warband name (None: does not play)
DEMO_USERS = [
    ("admin", True, False, None),
    ("organiser", False, True, None),
    ("alice", False, False, "Reikland Reavers"),
    ("bob", False, False, "The Grey Scourge"),
]


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
                Warband.objects.get_or_create(campaign=campaign, owner=user, name=warband_name)
