"""`manage.py import_campaign FILE`: restore a campaign written by ``export_campaign`` into a
database that does not hold it (see ``league.backup``)."""

import json

from django.core.management.base import BaseCommand, CommandError

from core.errors import RuleViolation
from league.backup import import_campaign


class Command(BaseCommand):
    help = "Restore a campaign from a JSON file written by export_campaign."

    def add_arguments(self, parser):
        parser.add_argument("file")

    def handle(self, *args, file, **options):
        try:
            with open(file, encoding="utf-8") as handle:
                document = json.load(handle)
        except (OSError, ValueError) as error:
            raise CommandError(f"Cannot read {file}: {error}") from error
        try:
            campaign = import_campaign(document)
        except RuleViolation as refusal:
            raise CommandError(str(refusal)) from refusal
        self.stdout.write(f"Restored {campaign.name} (campaign {campaign.pk}).")
