"""`manage.py check_ledgers`: the treasury's conservation audit
(``warbands.treasury.conservation_problems``). Every container's balances equal the sum of its
ledger entries, and no value came from nowhere: a container's price is paid out once, a
warband's starting treasury and mustering purse come from its list's starting gold, and an
item a correction added brings no gold when sold.

It also reports, per warband, the value that entered through corrections
(``treasury.correction_report``): the items they added at list price, experience and
characteristics raised, skills, spells, injuries.

Exits 0 when all agree, 1 (listing each problem) otherwise, so it can run in cron or CI.
"""

from django.core.management.base import BaseCommand, CommandError

from warbands.models import LedgerEntry, StorageContainer
from warbands.treasury import conservation_problems, correction_report


class Command(BaseCommand):
    help = (
        "Check that the treasury's balances equal its ledger and that no value was minted; "
        "report what corrections gave each warband."
    )

    def handle(self, *args, **options):
        problems = conservation_problems()
        containers = StorageContainer.objects.count()
        entries = LedgerEntry.objects.count()
        if not problems:
            self.stdout.write(f"Ledgers agree: {containers} containers, {entries} entries.")
        self._report()
        if problems:
            for problem in problems:
                self.stderr.write(str(problem))
            raise CommandError(
                f"{len(problems)} problem(s) in {containers} containers, {entries} entries.",
                returncode=1,
            )

    def _report(self) -> None:
        report = correction_report()
        if report:
            self.stdout.write("Value that entered through corrections, per warband:")
            for line in report:
                self.stdout.write(f"  {line}")
