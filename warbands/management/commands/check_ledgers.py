"""`manage.py check_ledgers`: every container's balances equal the sum of its ledger entries.

Exits 0 when all agree, 1 (listing each mismatch) otherwise, so it can run in cron or CI.
"""

from django.core.management.base import BaseCommand, CommandError

from warbands.models import LedgerEntry, StorageContainer
from warbands.treasury import ledger_mismatches


class Command(BaseCommand):
    help = "Check that every storage container's balances equal the sum of its ledger entries."

    def handle(self, *args, **options):
        mismatches = ledger_mismatches()
        containers = StorageContainer.objects.count()
        entries = LedgerEntry.objects.count()
        if mismatches:
            for mismatch in mismatches:
                self.stderr.write(str(mismatch))
            raise CommandError(
                f"{len(mismatches)} mismatch(es) in {containers} containers, {entries} entries.",
                returncode=1,
            )
        self.stdout.write(f"Ledgers agree: {containers} containers, {entries} entries.")
