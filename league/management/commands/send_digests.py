"""`manage.py send_digests`: the daily digest of what waits for each user (``league.todo``),
for cron. Run it as often as you like: each user gets at most one a calendar day."""

from django.core.management.base import BaseCommand

from league.todo.digest import send_digests


class Command(BaseCommand):
    help = "Mail each user who chose the daily digest what waits for him, once a day at most."

    def handle(self, *args, **options):
        sent = send_digests()
        self.stdout.write(f"{sent} digest(s) sent.")
