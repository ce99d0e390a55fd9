"""Demo data for local use: `manage.py seed_demo` (run by `make run`). Idempotent: every row is
looked up by its natural key before it is created, so running the command again changes nothing
(demo passwords are reset if someone changed them). Its schedule: ``league.demo_schedule``."""

import datetime

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from battles import aftermath as sequences
from battles.aftermath import carried_items
from battles.aftermath import forms as step_forms
from battles.dice import dice_for, recorder
from battles.helper import moves, start
from battles.models import Battle, DiceRoll, Fighter, PostBattleSequence
from battles.report import services as battle_services
from battles.report import sides
from battles.rules import ReportedResult, play, scenarios
from campaign.models import Campaign, CampaignEvent, Membership
from core.auth import DEMO_PASSWORD
from core.dice import Roll, ScriptedDice
from league.demo_schedule import seed_schedule
from warbands import services, treasury
from warbands.house_rules import allowed
from warbands.house_rules import services as house_rules
from warbands.models import HouseRules, RatingSnapshot, Warband, WarbandType
from warbands.rules import containers as container_rules

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
# A second warband of a player (the campaign allows two each): a Grade 1b list, mustered and
# waiting for its first battle.
DEMO_SECOND_WARBANDS = [("alice", "The Sons of Ymir")]
# The demo league's house rules allow these Grade 1c lists beside every 1a and 1b list.
DEMO_1C_LISTS = ["night_goblins", "black_dwarfs"]
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
    "The Sons of Ymir": (
        "norse_explorers",
        [
            ("jarl", "Ragnar Ironhand", 1, ["axe", "shield"]),
            ("berserker", "Bjorn the Mad", 1, ["double_handed_weapon"]),
            ("wulfen", "Ulfgrim", 1, []),
            ("bondsman", "Leif", 1, ["axe"]),
            ("marauder", "Marauders", 3, ["axe"]),
            ("hunter", "Hunters", 2, ["bow"]),
            ("wolf", "Wolves", 2, []),
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
# A few battles of history, oldest first: days ago, scenario (its key among the rulebook's),
# and for each warband its result, whether it routed, and who did what: {warrior name: (out of
# action, enemies put out of action, times he earned the scenario's own award)}. Warriors not
# named fought and stood.
REAVERS, SCOURGE = "Reikland Reavers", "The Grey Scourge"
PYRE, GET = "The Order of the Burning Pyre", "Von Carstein's Get"
DEMO_BATTLES = [
    (21, "skirmish", [
        (REAVERS, "won", False, {"Gerhardt Adler": (False, 2, 0), "Otto Brandt": (False, 1, 0)}),
        (SCOURGE, "lost", True, {"Tik": (True, 0, 0), "Giant Rats": (True, 0, 0),
                                 "Skrit Nightclaw": (False, 1, 0)}),
    ]),
    (14, "wyrdstone_hunt", [
        (PYRE, "won", False, {"Mathias Thulmann": (False, 2, 1)}),
        (GET, "lost", True, {"Igor": (True, 0, 0), "Count Adolphus": (False, 2, 1)}),
    ]),
    (7, "street_fight", [
        (SCOURGE, "won", False, {"Skrit Nightclaw": (False, 3, 1)}),
        (GET, "lost", True, {"Zombies": (True, 0, 0), "Count Adolphus": (False, 1, 0)}),
    ]),
    (2, "chance_encounter", [
        (REAVERS, "draw", False, {"Lukas Falk": (True, 0, 0), "Gerhardt Adler": (False, 1, 0)}),
        (PYRE, "draw", False, {"Zealots": (True, 0, 0), "Ulrika Weiss": (False, 1, 0)}),
    ]),
]  # fmt: skip
# The exploration dice each warband rolled after each battle (the first ones of its script;
# later rolls of the demo come from a fixed cycle). The last battle's sequences are left for
# the players to play.
DEMO_EXPLORATION = {
    (21, REAVERS): [2, 5, 5, 1, 3],
    (21, SCOURGE): [4, 6],
    (14, PYRE): [3, 3, 6, 1],
    (14, GET): [2, 6],
    (7, SCOURGE): [1, 6, 6, 2],
    (7, GET): [5, 1],
}
DEMO_CYCLE = (3, 4, 2, 5, 6, 1, 4, 3, 5, 2)
# The advance rolls' dice (step 2), one stream for the whole history, so the demo looks played:
# DEMO_CYCLE's pairs all add up to 7, so every advance was the 7's "+1 Weapon Skill". This
# cycle's length is odd, so its pairs add up to anything from 4 to 11 as the stream goes on.
DEMO_ADVANCE_CYCLE = (5, 2, 6, 4, 1, 3, 6, 5, 2, 4, 3)


class DemoDice:
    """The demo's dice: the scripted faces first, then a fixed cycle, so every machine seeds
    the same history; each roll goes to the battle's dice log like physical dice entered."""

    def __init__(self, first, recorder, *, cycle=DEMO_CYCLE, position: int = 0) -> None:
        self.faces = list(first)
        self.cycle = cycle
        self.position = position
        self.recorder = recorder

    def roll(self, n: int, sides: int, purpose: str = "") -> Roll:
        faces = []
        for _ in range(n):
            if self.faces:
                faces.append(min(self.faces.pop(0), sides))
            else:
                faces.append(min(self.cycle[self.position % len(self.cycle)], sides))
                self.position += 1
        result = Roll(purpose, sides, tuple(faces), "entered")
        self.recorder(result)
        return result


class Command(BaseCommand):
    help = "Create the demo campaign and accounts (only with DEBUG on: the password is public)."
    # Where the advances' dice stream and choices are (``play``, ``choose``).
    advance_position = 0
    choices_made = 0

    def handle(self, *args, **options):
        if not settings.DEBUG:
            raise CommandError(
                "seed_demo creates accounts with a public password, so it only runs with DEBUG=1."
            )
        with transaction.atomic():
            self.seed()
        self.stdout.write(f"Demo logins (password for all: {DEMO_PASSWORD}):")
        for username, staff, organiser, warband in DEMO_USERS:
            seconds = [name for user, name in DEMO_SECOND_WARBANDS if user == username]
            warband = " and ".join(filter(None, [warband, *seconds]))
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
        users = {}
        for username, staff, organiser, _ in DEMO_USERS:
            user, created = User.objects.get_or_create(
                username=username, defaults={"is_staff": staff, "is_superuser": staff}
            )
            if created or not user.check_password(DEMO_PASSWORD):
                user.set_password(DEMO_PASSWORD)
                user.save(update_fields=["password"])
            users[username] = user
            if not staff:
                Membership.objects.get_or_create(
                    campaign=campaign, user=user, defaults={"is_organiser": organiser}
                )
        self.seed_house_rules(campaign, users["organiser"])
        for username, _, _, warband_name in DEMO_USERS:
            if warband_name:
                self.seed_warband(campaign, users[username], warband_name)
        for username, warband_name in DEMO_SECOND_WARBANDS:
            self.seed_warband(campaign, User.objects.get(username=username), warband_name)
        self.seed_battles(campaign, User.objects.get(username="organiser"))
        seed_schedule(campaign)

    @staticmethod
    def seed_house_rules(campaign: Campaign, organiser) -> None:
        """The league's house rules, chosen before anyone musters (once: they are fixed by
        the first warband): the Grade 1a and 1b lists and the Grade 1c lists of DEMO_1C_LISTS
        that the app has, the hired swords of the rulebook, 1a and 1b, the lists' own gold."""
        if HouseRules.objects.filter(campaign=campaign).exists():
            return
        if Warband.objects.filter(campaign=campaign).exists():
            return  # a league seeded before house rules: they are fixed now
        house_rules.set_house_rules(
            campaign,
            actor=organiser,
            list_grades=["1a", "1b"],
            list_keys=WarbandType.objects.filter(key__in=DEMO_1C_LISTS).values_list(
                "key", flat=True
            ),
            sword_grades=["core", "1a", "1b"],
            sword_keys=[],
            starting_gold=None,
        )
        # Chosen the morning the league began, before its first muster (dated 9 o'clock).
        chosen = timezone.make_aware(
            datetime.datetime.combine(campaign.start_date, datetime.time(8))
        )
        CampaignEvent.objects.filter(
            campaign=campaign, message__endswith="changed the house rules."
        ).update(created_at=chosen)

    def seed_battles(self, campaign: Campaign, organiser) -> None:
        """Record the demo history once, as players would: the first warband reports, the
        other confirms, step 0 is settled and each warband plays its post-battle sequence
        (except after the last battle, which waits for the players)."""
        if Battle.objects.filter(campaign=campaign).exists():
            return
        warbands = {w.name: w for w in Warband.objects.filter(campaign=campaign)}
        for days_ago, scenario, lines in DEMO_BATTLES:
            fought_on = timezone.localdate() - datetime.timedelta(days=days_ago)
            evening = timezone.make_aware(datetime.datetime.combine(fought_on, datetime.time(20)))
            told = CampaignEvent.objects.filter(campaign=campaign).aggregate(last=Max("pk"))
            reporter = warbands[lines[0][0]].owner
            battle = battle_services.report_battle(
                actor=reporter,
                campaign=campaign,
                scenario_key=scenario,
                scenario="",
                fought_on=fought_on,
                results=[
                    ReportedResult(warbands[name].pk, result, routed, 1 if routed else None)
                    for name, result, routed, _ in lines
                ],
            )
            for name, *_ in lines:
                warband = warbands[name]
                outcomes = self.outcomes(warband, lines, scenarios.scenario(scenario))
                sides.enter_side(
                    battle, warband, actor=warband.owner, outcomes=outcomes,
                    scenario_shards=sum(o.awards.get("wyrdstone_counter", 0) for o in outcomes),
                )  # fmt: skip
            for name, *_ in lines:
                battle_services.respond(battle, actor=warbands[name].owner, agree=True)
            self.settle_carried_items(battle, organiser, first=days_ago == DEMO_BATTLES[0][0])
            if days_ago != DEMO_BATTLES[-1][0]:  # the last battle's sequences wait
                for sequence in sequences.sequences_for(battle):
                    warband = sequence.participant.warband
                    self.play(sequence, DEMO_EXPLORATION.get((days_ago, warband.name), []))
            # The feed and the dice log date what followed the battle on its evening, not
            # the moment the demo was seeded, so the history reads as a season played.
            RatingSnapshot.objects.filter(battle=battle).update(taken_at=evening)
            CampaignEvent.objects.filter(campaign=campaign, pk__gt=told["last"] or 0).update(
                created_at=evening
            )
            DiceRoll.objects.filter(battle=battle).update(created_at=evening)
        self.seed_game(warbands[SCOURGE], warbands[GET], campaign)

    @staticmethod
    def seed_game(first, second, campaign: Campaign) -> None:
        """A game under way with the battle helper: the Scourge's first turn was played (a
        runner, a knocked-down Zombie, a stunned Igor) and the Get's has just begun, in which
        Igor, stunned, is knocked down now."""
        bob, dave = first.owner, second.owner
        battle = start.start_game(
            actor=bob, campaign=campaign, warband_ids=[first.pk, second.pk],
            scenario_key="skirmish",
        )  # fmt: skip
        fighters = {
            (f.warrior.name, f.number): f.pk
            for f in Fighter.objects.filter(game__battle=battle).select_related("warrior")
        }
        moves.mark(battle.pk, fighters[("Skrit Nightclaw", 1)], "ran", actor=bob)
        for _ in range(3):
            moves.next_phase(battle.pk, actor=bob)
        moves.set_state(battle.pk, fighters[("Zombies", 1)], play.KNOCKED_DOWN, actor=dave)
        moves.set_state(battle.pk, fighters[("Igor", 1)], play.STUNNED, actor=dave)
        moves.next_phase(battle.pk, actor=bob)

    @staticmethod
    def outcomes(warband, lines, played) -> list:
        """What the demo says the warband's warriors did; the rest stood to the end."""
        deeds = next(deeds for name, _, _, deeds in lines if name == warband.name)
        award = played.awards[0] if played.awards else None
        rows = []
        for warrior in sides.fighters(warband).order_by("pk"):
            out, enemies, times = deeds.get(warrior.name, (False, 0, 0))
            rows.append(
                sides.Outcome(
                    warrior.pk,
                    out_of_action=out,
                    models_out_of_action=warrior.group_size if out else 0,
                    enemies_out_of_action=enemies,
                    awards={award.key: times} if award and times else {},
                )
            )
        return rows

    def play(self, sequence, exploration, until: int = PostBattleSequence.COMPLETE) -> None:
        """Play a warband's post-battle sequence through the services with the demo's dice:
        injuries rolled (first choice taken), advances rolled with their own dice and their
        choices varied (``choose``), the finds stored, half the wyrdstone sold, nothing
        bought; up to step ``until`` (not played)."""
        warband = sequence.participant.warband
        owner = warband.owner
        battle = sequence.participant.battle
        while sequence.current_step < until:
            step = sequence.current_step
            log = recorder(battle, warband=warband, user=owner, secret=step >= 3)
            dice = DemoDice(exploration if step == 3 else [], log)
            if step == 2:
                dice = DemoDice([], log, cycle=DEMO_ADVANCE_CYCLE, position=self.advance_position)
            sequences.prepare(sequence)
            if step == 2:
                self.act(sequence, owner, "award")
            # Roll every task; one may add another (a location, an advance).
            while task := sequence.tasks.filter(step=step, void=False, done=False).first():
                self.finish_task(sequence, task, owner, step, dice)
            if step == 2:
                self.advance_position = dice.position
            if step == 3:
                self.store_finds(sequence, warband, owner)
            if step == 4:
                shards = treasury.totals(warband)["wyrdstone"] // 2
                if shards:
                    self.act(sequence, owner, "sell", shards=shards, into="pile")
                    self.store_finds(sequence, warband, owner)
            if step == 9:  # a sack for whatever did not fit, as a careful player would
                for _ in range(5):
                    if treasury.loose_pile(warband).is_empty:
                        break
                    self.act(sequence, owner, "buy_container", kind="large_sack")
                    self.store_finds(sequence, warband, owner)
            values = step_forms.clean_completion({"notes_confirmed": "1"})
            sequences.complete_step(sequence, actor=owner, step=step, values=values)
            sequence.refresh_progress()

    @staticmethod
    def act(sequence, owner, action: str, **data) -> str:
        """An action of the current step, its input read through the step's form as the
        page's post would be (``battles.aftermath.forms``)."""
        step = sequence.current_step
        values = step_forms.clean_action(step, action, data, warband=sequence.participant.warband)
        return sequences.act(sequence, actor=owner, step=step, action=action, values=values).summary

    def finish_task(self, sequence, task, owner, step, dice) -> None:
        """Roll a task, answering its questions: the first choice, except for an advance's
        (step 2), which ``choose`` varies."""
        answers = {}
        while not task.done:
            task = sequences.run_task(
                sequence, task, actor=owner, step=step, dice=dice, answers=answers
            ).task
            if task.question:
                options = task.question["options"]
                answers = {
                    task.question["key"]: self.choose(options) if step == 2 else options[0][0]
                }

    def choose(self, options) -> str:
        """An advance's choice (+1 WS or BS, which skill, which skill lists), varied by a fixed
        cycle as different players would choose. The rules offer only what is legal: a
        characteristic at its racial maximum, a skill known or off the warrior's lists, is
        never among the options."""
        pick = DEMO_CYCLE[self.choices_made % len(DEMO_CYCLE)] + self.choices_made
        self.choices_made += 1
        return options[pick % len(options)][0]

    @staticmethod
    def store_finds(sequence, warband, owner) -> None:
        """Put what the pile holds into the containers with room, as a player would."""
        pile = treasury.loose_pile(warband)
        for container in warband.containers.filter(status="held").exclude(kind="loose"):
            pile.refresh_from_db()
            room = container_rules.open_capacity(
                container.kind, list(container.children.values_list("kind", flat=True))
            )
            gold = min(pile.gold_crowns, room.gold - container.gold_crowns)
            shards = min(pile.wyrdstone, room.wyrdstone - container.wyrdstone)
            if container.kind == "pouch" or not (gold > 0 or shards > 0):
                continue
            Command.act(sequence, owner, "store", target=container.pk, gold=max(gold, 0),
                        wyrdstone=max(shards, 0))  # fmt: skip
        for stored in list(pile.stored_items.all()):
            for container in warband.containers.filter(status="held").exclude(kind="loose"):
                capacity = container_rules.open_capacity(container.kind, [])
                if container.item_count < capacity.items:
                    Command.act(sequence, owner, "store", target=container.pk, items=[stored.pk])
                    break

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
                    carried_items.Declaration(item.pk, "uncontrolled" if drop else "own")
                )
            carried_items.declare_carried_items(
                battle,
                participant.warband,
                actor=participant.warband.owner,
                declarations=declarations,
                securers=3,
            )
        pending = battle.carried_items.filter(outcome="pending").first()
        if pending is not None:
            carried_items.start_recovery(battle, actor=organiser, dice=dice_for(battle))
            carried_items.resolve_item(
                battle, pending, actor=organiser, dice=dice_for(battle, entered="5")
            )

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
        warband.starting_gold = allowed.starting_gold(campaign, warband_type)
        warband.gold_crowns = warband.starting_gold
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
        CampaignEvent.objects.filter(
            campaign=campaign, warband=warband, kind=CampaignEvent.Kind.MUSTERED
        ).update(created_at=start)
