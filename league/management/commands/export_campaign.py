"""`manage.py export_campaign ID [--output FILE]`: one campaign as a JSON backup (see
``league.backup``); to standard output without ``--output``."""

from django.core.management.base import BaseCommand, CommandError

from campaign.models import Campaign
from league.backup import dumps, export_campaign


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
            with open(output, "w", encoding="utf-8") as handle:
                handle.write(text)
            total = sum(document["counts"].values())
            self.stderr.write(f"{campaign.name}: {total} rows written to {output}.")
        else:
            self.stdout.write(text)
