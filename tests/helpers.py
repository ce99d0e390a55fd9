"""Helpers shared by the test modules (factories for single rows live in ``tests.factories``).

- a battle between the Reavers and the Scourge of a ``duel``, and its post-battle sequences
  played through the services (``fought``, ``battle_of``, ``play_to``, ``at``);
- writes released in threads at once (``run_together``);
- the whole database in one hash, to see that a refused request wrote nothing
  (``fingerprint``);
- (data built once for the tests of a module: ``tests.sharing``).
"""

from __future__ import annotations

import re
import threading

import pytest
from django.db import connection

from battles import aftermath as sequences
from battles.aftermath import carried_items
from battles.aftermath import forms as step_forms
from battles.helper import start as helper_start
from battles.models import Battle, Captive, PostBattleSequence, WarriorOutcome
from battles.report import services, sides
from battles.rules import ReportedResult
from core.dice import ScriptedDice
from core.errors import RuleViolation
from tests.checksums import checksum, checksum_sql
from tests.factories import CampaignFactory, MembershipFactory, mustered_warband
from tests.replays import replayable
from warbands import treasury
from warbands.models import (
    Injury,
    Item,
    LedgerEntry,
    Skill,
    StorageContainer,
    StoredItem,
    Warrior,
    WarriorItem,
    WarriorSkill,
)

#: Django's real hasher takes about half a second per password; tests need no strength.
FAST_PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# --- Battles and post-battle sequences -----------------------------------------------------------


#: Exploration dice without a double or a triple: nothing is found.
NO_DOUBLES = [1, 2, 4, 5, 6, 3]


@replayable
def fought(duel, outcomes=(), *, reavers_won=True, carried=True):
    """A confirmed battle between the Reavers and the Scourge, with its step 0 done (every
    carried item controlled). ``outcomes``: (warrior, out_of_action, models, scenario xp, by)."""
    reavers, scourge = duel["reavers"], duel["scourge"]
    battle = services.report_battle(
        actor=reavers.owner,
        campaign=duel["campaign"],
        scenario="Skirmish",
        results=[
            ReportedResult(
                reavers.pk,
                "won" if reavers_won else "lost",
                not reavers_won,
                None if reavers_won else 1,
            ),
            ReportedResult(
                scourge.pk,
                "lost" if reavers_won else "won",
                reavers_won,
                1 if reavers_won else None,
            ),
        ],
    )
    deeds = {w.warband_id: [] for w, *_ in outcomes}
    for w, ooa, models, xp, by in outcomes:
        deeds[w.warband_id].append(
            sides.Outcome(
                w.pk, out_of_action=ooa, scenario_experience=xp,
                taken_out_by_id=by.pk if by else None,
                models_out_of_action=models or (w.group_size if ooa and not w.is_hero else 0),
            )
        )  # fmt: skip
    for warband in (reavers, scourge):
        listed = deeds.get(warband.pk)
        sides.enter_side(
            battle, warband, actor=warband.owner,
            outcomes=listed if listed is not None else sides.whole_side(warband),
        )  # fmt: skip
    for warband in (reavers, scourge):
        services.respond(battle, actor=warband.owner, agree=True)
    if carried:
        for warband in (reavers, scourge):
            carried_items.declare_carried_items(
                battle, warband, actor=warband.owner, securers=2,
                declarations=[
                    carried_items.Declaration(i.pk, "own")
                    for i in battle.carried_items.filter(owner=warband)
                ],
            )  # fmt: skip
    battle.refresh_from_db()
    return battle


def sequence_of(battle, warband) -> PostBattleSequence:
    return PostBattleSequence.objects.get(participant__battle=battle, participant__warband=warband)


def warriors(warband):
    """The mustered Reavers' captain, champion and group of warriors (``mustered_warband``)."""
    return (
        warband.warriors.get(warrior_type__key="mercenary_captain"),
        warband.warriors.get(warrior_type__key="champion"),
        warband.warriors.get(warrior_type__key="warrior"),
    )


def battle_of(duel, *, champion_out=False, won=True):
    """``fought`` with the Reavers' three warriors on the roll, the champion out of action
    if asked."""
    captain, champion, guards = warriors(duel["reavers"])
    return fought(
        duel,
        [(captain, False, 0, 0, None), (champion, champion_out, 0, 0, None),
         (guards, False, 0, 0, None)],
        reavers_won=won,
    )  # fmt: skip


def play_to(sequence, step, actor):
    """Finish the steps before ``step`` with dull dice: no doubles when exploring, no rarity
    roll, nothing bought (``finish_step``)."""
    while sequence.current_step < step:
        finish_step(sequence, actor)
    return sequence


@replayable
def finish_step(sequence, actor):
    """Finish the sequence's current step as ``play_to`` does; the sequence, read again."""
    sequences.prepare(sequence)
    sequence.refresh_from_db()
    current = sequence.current_step
    if current == 2 and not sequence.state.get("experience_awarded"):
        sequences.act(sequence, actor=actor, step=2, action="award")
    for task in sequence.tasks.filter(step=current, void=False, done=False):
        if current == 3 and task.kind == "exploration":
            count = sequences.handler(3).setup(sequence).heroes_standing
            count += 1 if sequence.participant.result == "won" else 0
            # Every die is rolled; past six the first ones are set aside (the first
            # option of each question below), leaving six without a double.
            faces = (NO_DOUBLES * 2)[:count]
        else:
            faces = [3, 3, 1, 3, 3]
        answers = {}
        for _ in range(8):  # answer any question with its first option
            task = roll(sequence, task, faces, actor, answers)
            if task.done:
                break
            answers = {task.question["key"]: task.question["options"][0][0]}
    if current == 3:
        loose = treasury.loose_pile(sequence.participant.warband)
        if loose.wyrdstone:
            # its own chest: a captured one may have joined it
            box = (
                sequence.participant.warband.containers.filter(kind="treasure_chest")
                .order_by("pk")
                .first()
            )
            values = step_forms.clean_action(
                3, "store", {"target": box.pk, "wyrdstone": loose.wyrdstone},
                warband=sequence.participant.warband,
            )  # fmt: skip
            sequences.act(sequence, actor=actor, step=3, action="store", values=values)
    sequences.complete_step(sequence, actor=actor, step=current)
    sequence.refresh_from_db()
    return sequence


def at(duel, step):
    """The Reavers' sequence of ``battle_of(duel)``, played up to ``step``; and the Reavers."""
    reavers = duel["reavers"]
    return play_to(sequence_of(battle_of(duel), reavers), step, reavers.owner), reavers


def roll(sequence, task, faces, actor, answers=None):
    """Run ``task`` of its step with the dice showing ``faces``: the task as rolled."""
    return sequences.run_task(
        sequence, task, actor=actor, step=task.step, dice=ScriptedDice(faces), answers=answers
    ).task


def roster_state(warband) -> dict:
    """Everything about the roster and treasury an undo must restore."""
    return {
        "warriors": sorted(
            Warrior.objects.filter(warband=warband).values_list(
                "pk", "name", "status", "is_leader", "is_hero", "group_size", "experience",
                "games_to_miss", "M", "WS", "BS", "S", "T", "W", "I", "A", "Ld",
                "learns_magic_next",
            )
        ),
        "items": sorted(
            WarriorItem.objects.filter(warrior__warband=warband).values_list(
                "pk", "warrior", "item"
            )
        ),
        "skills": sorted(
            WarriorSkill.objects.filter(warrior__warband=warband).values_list("warrior", "skill")
        ),
        "injuries": sorted(
            Injury.objects.filter(warrior__warband=warband).values_list("warrior", "name")
        ),
        "containers": sorted(
            StorageContainer.objects.filter(warband=warband).values_list(
                "pk", "status", "holder", "gold_crowns", "wyrdstone", "item_count"
            )
        ),
        "stored": sorted(
            StoredItem.objects.filter(container__warband=warband).values_list("container", "name")
        ),
        "captives": Captive.objects.count(),
    }  # fmt: skip


def game_of(duel):
    """A game of the battle helper between the duel's Reavers and Scourge (a skirmish), started
    by the Reavers' player; its battle."""
    return helper_start.start_game(
        actor=duel["reavers"].owner, campaign=duel["campaign"], scenario_key="skirmish",
        warband_ids=[duel["reavers"].pk, duel["scourge"].pk],
    )  # fmt: skip


@replayable
def mustered_duel() -> dict:
    """The Reavers and the Scourge, mustered in one campaign with its organiser: the
    ``committed_duel`` fixture of the transactional tests (``tests/battles/conftest.py``)."""
    campaign = CampaignFactory()
    organiser = MembershipFactory(campaign=campaign, is_organiser=True).user
    return {
        "campaign": campaign,
        "organiser": organiser,
        "reavers": mustered_warband(campaign=campaign, name="Reavers"),
        "scourge": mustered_warband(campaign=campaign, name="Scourge"),
    }


# --- Requests at once, and the database's state --------------------------------------------------


def run_together(*actions):
    """Start the actions in threads released together by a barrier; return their outcomes."""
    barrier = threading.Barrier(len(actions))
    outcomes = [None] * len(actions)

    def run(index, action):
        try:
            barrier.wait()
            action()
            outcomes[index] = "done"
        except RuleViolation as refusal:
            outcomes[index] = f"refused: {refusal}"
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, a)) for i, a in enumerate(actions)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return outcomes


_FINGERPRINT_SQL: str | None = None


def fingerprint() -> str:
    """Every row of every table the app writes (``checksum_sql``): sessions, log-in attempts
    and the one-time form tokens (bookkeeping of requests, not of the league) aside."""
    global _FINGERPRINT_SQL
    if _FINGERPRINT_SQL is None:
        skip = ("django_session", "axes_", "django_admin_log", "core_formtoken")
        tables = [
            t for t in sorted(connection.introspection.table_names()) if not t.startswith(skip)
        ]
        _FINGERPRINT_SQL = checksum_sql(tables)
    return checksum(_FINGERPRINT_SQL)


#: What differs between two drawings of the same page: the CSRF token (masked afresh for
#: every answer) and the one-time form token (``core.once``).
PER_REQUEST = re.compile(
    r'(name="csrfmiddlewaretoken" value=")[^"]*|("X-CSRFToken": ")[^"]*'
    r'|(name="form_token" value=")[^"]*'
)


def without_tokens(content: bytes) -> str:
    """A page's text with its per-request tokens blanked, to compare two answers."""
    return PER_REQUEST.sub(lambda m: next(g for g in m.groups() if g), content.decode())


# --- The treasury ---------------------------------------------------------------------------


def state(warband) -> tuple:
    """All the treasury a refused action must leave untouched."""
    return (
        sorted(
            StorageContainer.objects.filter(warband=warband).values_list(
                "pk", "kind", "status", "parent", "gold_crowns", "wyrdstone", "item_count"
            )
        ),
        sorted(
            StoredItem.objects.filter(container__warband=warband).values_list("pk", "container")
        ),
        LedgerEntry.objects.count(),
        sorted(WarriorItem.objects.filter(warrior__warband=warband).values_list("pk", flat=True)),
    )


def refused(warband, action, reason: str) -> None:
    before = state(warband)
    with pytest.raises(RuleViolation, match=reason):
        action()
    assert state(warband) == before


def container(warband, kind: str) -> StorageContainer:
    return warband.containers.filter(kind=kind, status="held").order_by("pk").first()


def item(key: str) -> Item:
    return Item.objects.get(key=key)


# --- The post-battle steps through the services -------------------------------------------


def at_step(duel, step, **battle):
    reavers = duel["reavers"]
    sequence = sequence_of(battle_of(duel, **battle), reavers)
    return play_to(sequence, step, reavers.owner), reavers.owner


def act(sequence, action, actor, dice=(), **data):
    """An action posted as its page posts it: read through the step's form first. What the
    action says it did."""
    step = sequence.current_step
    return sequences.act(
        sequence, actor=actor, step=step, action=action,
        values=step_forms.clean_action(step, action, data, warband=sequence.participant.warband),
        dice=ScriptedDice(dice),
    ).summary  # fmt: skip


def backpack_bought_in_step_9(sequence, reavers):
    """Step 9 buys a backpack and is finished (a step that undo may then be asked to take
    back); the backpack."""
    act(sequence, "buy_container", reavers.owner, kind="backpack")
    sequences.complete_step(sequence, actor=reavers.owner, step=9)
    return reavers.containers.get(kind="backpack")


def task_of(sequence, kind):
    sequences.prepare(sequence)
    return sequence.tasks.get(step=sequence.current_step, kind=kind, void=False, done=False)


def pile(warband):
    return treasury.loose_pile(warband)


def gold(warband):
    return treasury.totals(warband)["gold"]


def chest(warband):
    return warband.containers.get(kind="treasure_chest")


def sack_with_room(warband):
    return warband.containers.filter(kind="large_sack").order_by("gold_crowns").first()


def skill_pk(key: str) -> int:
    return Skill.objects.get(key=key).pk


def reported(duel, *, confirmed: bool = False):
    """A Skirmish the Reavers won and the Scourge lost, routing, with random fortune in play,
    as the Reavers' player reported it; ``confirmed``: the Scourge's player agreed."""
    battle = services.report_battle(
        actor=duel["reavers"].owner,
        campaign=duel["campaign"],
        scenario="Skirmish",
        results=[
            ReportedResult(duel["reavers"].pk, "won"),
            ReportedResult(duel["scourge"].pk, "lost", True, 1),
        ],
        random_fortune=True,
    )
    if confirmed:
        confirm_with_every_side(battle)
    return battle


def every_side_entered(battle, deeds=()):
    """Each player enters his side (``deeds``: ``sides.Outcome``s of warriors who did
    something; the rest took part and stood); whoever had confirmed the report (its
    reporter) confirms again what he has now seen. The others' confirmations are left."""
    participants = list(battle.participants.select_related("warband__owner"))
    confirmed = [p.warband for p in participants if p.confirmation == "confirmed"]
    for participant in participants:
        warband = participant.warband
        mine = [d for d in deeds if warband.warriors.filter(pk=d.warrior_id).exists()]
        sides.enter_side(
            battle, warband, actor=warband.owner, outcomes=sides.whole_side(warband, mine)
        )
    for warband in confirmed:
        services.respond(battle, actor=warband.owner, agree=True)
    battle.refresh_from_db()
    return battle


def confirm_with_every_side(battle, deeds=()):
    """``every_side_entered``, then every player confirms."""
    every_side_entered(battle, deeds)
    for warband in [p.warband for p in battle.participants.select_related("warband__owner")]:
        battle.refresh_from_db()
        if battle.status != "confirmed":
            services.respond(battle, actor=warband.owner, agree=True)
    battle.refresh_from_db()
    return battle


def side_as_played(battle, warband) -> None:
    """The warband's player enters his side exactly as the battle helper wrote it."""
    kept = [
        sides.Outcome(o.warrior_id, o.out_of_action, o.enemies_out_of_action,
                      taken_out_by_id=o.taken_out_by_id,
                      models_out_of_action=o.models_out_of_action)
        for o in WarriorOutcome.objects.filter(participant__battle=battle,
                                               participant__warband=warband)
    ]  # fmt: skip
    sides.enter_side(battle, warband, actor=warband.owner, outcomes=kept)


def held(warrior, captor) -> Captive:
    """``warrior`` held by ``captor`` after a confirmed battle of their campaign, as step 1
    leaves him."""
    battle = Battle.objects.create(
        campaign=captor.campaign, scenario="Skirmish", status=Battle.Status.CONFIRMED
    )
    Warrior.objects.filter(pk=warrior.pk).update(status=Warrior.Status.CAPTURED)
    return Captive.objects.create(warrior=warrior, captor=captor, battle=battle)


def message_beside(html: str, field_id: str) -> str:
    """The message drawn right after the field ``field_id``, which names it (aria-describedby)."""
    tag = re.search(rf'<(input|select)[^>]*\bid="{field_id}"[^>]*>', html)
    assert tag and f'aria-describedby="{field_id}_error"' in tag.group(0), field_id
    after = re.match(rf'(?:<option[^>]*>[^<]*</option>|</?optgroup[^>]*>|</select>|</label>|\s)*'
                     rf'<small class="errorlist" id="{field_id}_error"'
                     r' role="alert">([^<]*)</small>', html[tag.end():])  # fmt: skip
    assert after, f"no message after {field_id}"
    return after.group(1)
