"""`manage.py export_campaign ID [--output FILE]`: one campaign as a JSON backup (see
``league.backup``); to standard output without ``--output``.

The file holds every warband's secret treasury, so it is its owner's alone (mode 0600), even
when it replaces a file that others could read."""

import os

from django.core.management.base import BaseCommand, CommandError

from campaign.models import Campaign
from league.backup import dumps, export_campaign

PRIVATE = 0o600


def write_private(path: str, text: str) -> None:
    """``text`` into ``path``, readable and writable by its owner only: the mode is set before
    any content is written."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, PRIVATE)
    os.fchmod(descriptor, PRIVATE)  # an existing file keeps its mode through O_CREAT
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        handle.write(text)


class Command(BaseCommand):
    help = "Write a campaign, with its warbands, battles and ledgers, to a JSON file."

    def add_arguments(self, parser):
        parser.add_argument("campaign_id", type=int)
        parser.add_argument("--output", "-o", help="file to write (default: standard output)")

    def handle(self, *args, campaign_id, output=None, **options):
        campaign = Campaign.objects.filter(pk=campaign_id).first()
        if campaign is None:
            raise CommandError(f"No campaign {campaign_id}.")
        document = export_campaign(campaign)
        text = dumps(document)
        if output:
            write_private(output, text)
            total = sum(document["counts"].values())
            self.stderr.write(f"{campaign.name}: {total} rows written to {output}.")
        else:
            self.stdout.write(text)
