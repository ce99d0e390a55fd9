"""Demo data for local use: `manage.py seed_demo` (run by `make run`).

Idempotent: every row is looked up by its natural key before it is created, so running the
command again changes nothing (demo passwords are reset if someone changed them).
"""

import datetime

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone

from battles import services as battle_services
from battles.dice import dice_for
from battles.models import Battle, WarriorOutcome
from battles.rules import ReportedResult
from campaign.auth import DEMO_PASSWORD
from campaign.dice import ScriptedDice
from campaign.models import Campaign, Membership
from warbands import services, treasury
from warbands.models import RatingSnapshot, Warband, WarbandType

DEMO_CAMPAIGN = "The Year of the Comet (demo)"
# username, staff, organiser of the demo campaign, warband name (None: does not play)
DEMO_USERS = [
    ("admin", True, False, None),
    ("organiser", False, True, None),
    ("alice", False, False, "Reikland Reavers"),
    ("bob", False, False, "The Grey Scourge"),
    ("carol", False, False, "The Order of the Burning Pyre"),
    ("dave", False, False, "Von Carstein's Get"),
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
    "The Order of the Burning Pyre": (
        "witch_hunters",
        [
            ("witch_hunter_captain", "Mathias Thulmann", 1, ["sword", "crossbow_pistol"]),
            ("warrior_priest", "Father Gotthard", 1, ["hammer"]),
            ("witch_hunter", "Ulrika Weiss", 1, ["crossbow"]),
            ("zealot", "Zealots", 4, ["axe"]),
            ("flagellant", "Flagellants", 2, ["flail"]),
        ],
    ),
    "Von Carstein's Get": (
        "undead",
        [
            ("vampire", "Count Adolphus", 1, ["sword", "light_armour"]),
            ("necromancer", "Mortis the Pale", 1, []),
            ("dreg", "Igor", 1, ["spear"]),
            ("dreg", "Hunch", 1, ["mace"]),
            ("ghoul", "Ghouls", 2, []),
            ("zombie", "Zombies", 5, []),
        ],
    ),
}
# A few battles of history, oldest first: days ago, scenario, and for each warband its result,
# whether it routed, the experience it gained and the enemies it put out of action.
REAVERS, SCOURGE = "Reikland Reavers", "The Grey Scourge"
PYRE, GET = "The Order of the Burning Pyre", "Von Carstein's Get"
DEMO_BATTLES = [
    (21, "Skirmish", [(REAVERS, "won", False, 6, 3), (SCOURGE, "lost", True, 3, 1)]),
    (14, "Wyrdstone Hunt", [(PYRE, "won", False, 5, 2), (GET, "lost", True, 4, 2)]),
    (7, "Street Fight", [(SCOURGE, "won", False, 6, 4), (GET, "lost", True, 2, 1)]),
    (2, "Chance Encounter", [(REAVERS, "draw", False, 4, 2), (PYRE, "draw", False, 4, 2)]),
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
        start = timezone.localdate() - datetime.timedelta(days=28)
        campaign, _ = Campaign.objects.get_or_create(
            name=DEMO_CAMPAIGN,
            defaults={
                "description": "A demo league in the ruins of the City of the Damned.",
                "mim_carried_items": True,
                "max_warbands_per_player": 2,
                "start_date": start,
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
        self.seed_battles(campaign, User.objects.get(username="organiser"))

    def seed_battles(self, campaign: Campaign, organiser) -> None:
        """Record the demo history once. Until the post-battle sequence is played in the app,
        the demo hands out the experience each battle earned directly (one point to each
        survivor, the rest to the heroes) so that ratings change over time."""
        if Battle.objects.filter(campaign=campaign).exists():
            return
        warbands = {w.name: w for w in Warband.objects.filter(campaign=campaign)}
        for days_ago, scenario, lines in DEMO_BATTLES:
            fought_on = timezone.localdate() - datetime.timedelta(days=days_ago)
            battle = battle_services.record_battle(
                actor=organiser,
                campaign=campaign,
                scenario=scenario,
                fought_on=fought_on,
                results=[
                    ReportedResult(warbands[name].pk, result, routed, 1 if routed else None)
                    for name, result, routed, _, _ in lines
                ],
            )
            gains = {name: (experience, enemies) for name, _, _, experience, enemies in lines}
            self.settle_carried_items(battle, organiser, first=days_ago == DEMO_BATTLES[0][0])
            for participant in battle.participants.select_related("warband"):
                self.award(participant, *gains[participant.warband.name])
                RatingSnapshot.objects.create(
                    warband=participant.warband,
                    rating=services.rating(services.roster(participant.warband)),
                    taken_at=timezone.make_aware(
                        datetime.datetime.combine(fought_on, datetime.time(20))
                    ),
                    battle=battle,
                    note=f"after {scenario}",
                )

    def settle_carried_items(self, battle, organiser, *, first: bool) -> None:
        """Step 0 of each demo battle: every warband kept its carried items, except in the
        first battle, where the routing Grey Scourge left a large sack behind and the Reavers
        recovered it (a 5 on the recovery table, entered as physical dice)."""
        for participant in battle.participants.select_related("warband"):
            declarations, dropped = [], False
            for item in battle.carried_items.filter(owner=participant.warband):
                drop = first and participant.routed and item.label == "Large Sack" and not dropped
                dropped = dropped or drop
                declarations.append(
                    battle_services.Declaration(item.pk, "uncontrolled" if drop else "own")
                )
            battle_services.declare_carried_items(
                battle,
                participant.warband,
                actor=participant.warband.owner,
                declarations=declarations,
                securers=3,
            )
        pending = battle.carried_items.filter(outcome="pending").first()
        if pending is not None:
            battle_services.start_recovery(battle, actor=organiser, dice=dice_for(battle))
            battle_services.resolve_item(
                battle, pending, actor=organiser, dice=dice_for(battle, entered="5")
            )

    def award(self, participant, experience: int, enemies: int) -> None:
        warriors = [
            w for w in services.roster(participant.warband) if w.warrior_type.gains_experience
        ]
        heroes = [w for w in warriors if w.is_hero]
        for index, warrior in enumerate(warriors):
            gained = 1 + (1 if warrior in heroes[: max(experience - len(warriors), 0)] else 0)
            warrior.experience += gained
            warrior.save(update_fields=["experience"])
            WarriorOutcome.objects.create(
                participant=participant,
                warrior=warrior,
                enemies_out_of_action=1 if index < enemies else 0,
            )
        participant.experience_gained = experience
        participant.save(update_fields=["experience_gained"])

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
        while treasury.storage_problems(warband):  # room for the gold that is left
            treasury.buy_container(warband, "large_sack", actor=owner)
            warband.refresh_from_db()
        services.finish_muster(warband, actor=owner)
        start = timezone.make_aware(
            datetime.datetime.combine(campaign.start_date, datetime.time(9))
        )
        RatingSnapshot.objects.filter(warband=warband).update(taken_at=start)
