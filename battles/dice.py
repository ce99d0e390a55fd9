"""Dice for battles: every roll is written to the battle's dice log (``DiceRoll``), whether the
server rolled it or a player typed in what the physical dice showed, with what it decided;
the rolls for what happens on the table are the participants' and the organisers'.

Typed dice mean what they say: each field of dice declares what it takes
(``core.dice.Need``), and the service that rolls checks, under its lock and before anything
changes, that exactly so many were typed (``exactly``, ``staged``); an empty field is rolled
by the server."""

from __future__ import annotations

import re
from collections.abc import Sequence

from battles.models import Battle, DiceRoll
from core.dice import DiceError, EnteredDice, Need, Roll, ServerDice, StagedDice, count_dice
from core.noting import Noting

FACE_DIGITS = 3  # the largest die is a D100
_held = Noting("dice rolls")
# with holding_rolls(rows): every roll made inside is appended to rows unsaved, and the caller
# writes them all at once with what they decided (a task's rolls: one insert, no update).
holding_rolls = _held.into


def recorder(battle: Battle, *, warband=None, user=None, secret: bool = False):
    """A callback for ``ServerDice``/``EnteredDice`` that saves each roll in the dice log, or,
    inside ``holding_rolls``, hands it to the service, which saves it with what it decided."""

    def record(roll: Roll) -> None:
        if roll.source == "entered" and not _typed_by_its_player(warband, user):
            raise DiceError(
                f"Dice for {warband.name} are typed by its own player: leave the field empty "
                "and the server rolls (the dice log names you)."
            )
        logged = DiceRoll(
            battle=battle,
            warband=warband,
            rolled_by=user if getattr(user, "is_authenticated", False) else None,
            purpose=roll.purpose[:200],
            sides=roll.sides,
            faces=list(roll.faces),
            source=DiceRoll.Source.SERVER if roll.source == "server" else DiceRoll.Source.ENTERED,
            secret=secret,
        )
        if not _held.note(logged):
            logged.save()

    return record


def _typed_by_its_player(warband, user) -> bool:
    """A warband's roll is typed only by its own player: an organiser acting for him (an
    injury, an advance, a fortune marker, a test in the battle helper) lets the server roll,
    so that he never chooses what befalls another player's warriors. Refused as the roll is
    made, so that whether he may act at all, and whether the act is still open, are answered
    first. Rolls of no warband (the table's) and the app's own are typed by any participant."""
    return warband is None or user is None or warband.owner_id == user.pk


def parse_faces(text: str) -> list[int]:
    """ "3 5" or "3, 5" for two dice, in the order they are used; digits and separators only.
    Each face is checked against its die when used ("7" for a D6 is refused then)."""
    text = (text or "").strip()
    if not text:
        return []
    if not re.fullmatch(r"[0-9 ,;+]+", text):
        raise DiceError("Type the dice as numbers separated by spaces, e.g. 3 5.")
    typed = [p for p in re.split(r"[ ,;+]+", text) if p]
    if len(typed) > 40:
        raise DiceError("That is more dice than any roll needs.")
    # No die shows more than 100 (a D100): a longer number is refused before int() reads it
    # (int() itself refuses more than 4300 digits, with a ValueError of its own).
    if any(len(face) > FACE_DIGITS for face in typed):
        raise DiceError("No die shows a number that long.")
    return [int(face) for face in typed]


def dice_for(battle: Battle, *, entered: str = "", warband=None, user=None, secret=False):
    """Server dice, or the faces the player entered (checked against each die as it is used).
    ``secret``: rolled in a treasury step (see ``battles.permissions.visible_dice``).

    A warband's roll is typed only by its own player (``recorder`` refuses it otherwise)."""
    callback = recorder(battle, warband=warband, user=user, secret=secret)
    faces = parse_faces(entered)
    return EnteredDice(faces, recorder=callback) if faces else ServerDice(recorder=callback)


def typed(dice) -> bool:
    """The player typed these dice (an empty field leaves them to the server)."""
    return isinstance(dice, EnteredDice) and bool(dice.remaining)


def exactly(dice, need: Need, who: str):
    """The dice one field's roll is made with: typed dice must be exactly what ``need`` says
    (``DiceError`` naming the count otherwise: the caller changes nothing); the server's dice,
    and scripted ones in tests, roll as they are."""
    if not isinstance(dice, EnteredDice):
        return dice
    return EnteredDice(need.check(list(dice.remaining), who), recorder=dice.recorder)


def staged(dice, need: Need, further: Sequence[Sequence[int]], who: str):
    """The dice of a roll that may lead to further rolls, each asked for in a field of its own
    (``core.dice.StagedDice``): the first exactly as ``need`` says, then ``further``, a group
    per roll asked for so far. Refused before anything is rolled: further dice after a first
    roll left to the server, or after a further roll left to it (the server rolls all that
    follows an empty field)."""
    groups = [list(group) for group in further]
    if not typed(dice):
        if any(groups):
            raise DiceError(
                f"{who} was left to the server, and so is every roll after it: leave the "
                "further rolls empty too, or type the first roll."
            )
        return dice
    empty = next((i for i, group in enumerate(groups) if not group), len(groups))
    if any(groups[empty:]):
        raise DiceError(
            "A further roll left to the server rolls every one after it: leave the later "
            "ones empty too."
        )
    first = need.check(list(dice.remaining), who)
    return StagedDice(first, groups, live=ServerDice(dice.recorder), recorder=dice.recorder)


def check_used(dice, who: str) -> None:
    """Typed dice a roll finished without: refused, so that no die typed is ignored (as
    ``battles.aftermath.task_dice.check_all_rolled`` for the sequence's tasks)."""
    if not isinstance(dice, EnteredDice):
        return
    left = dice.left_over if isinstance(dice, StagedDice) else len(dice.remaining)
    if left:
        raise DiceError(
            f"{who} rolled {count_dice(dice.used)}; {count_dice(left)} typed "
            f"{'was' if left == 1 else 'were'} left over. Nothing changed."
        )


def last_roll_id(battle: Battle) -> int:
    """The id of the battle's latest roll in the dice log (0: none yet): the rolls a service
    makes after it are the ones ``note_decided`` labels."""
    return battle.dice_rolls.order_by("-pk").values_list("pk", flat=True).first() or 0


def note_decided(battle: Battle, since: int, text: str) -> None:
    """Write what they decided on the rolls made since ``since`` (the dice log shows it):
    campaigns text, "any dice rolls must be seen by both players or a neutral third party"."""
    battle.dice_rolls.filter(pk__gt=since).update(result=text[:300])


def note_secret(battle: Battle, since: int, text: str, *, warband, public: str) -> None:
    """``note_decided`` for rolls that decide what goes into ``warband``'s secret treasury
    (the slavers' price): their faces and ``text`` are for those who may see that treasury,
    and everybody else reads ``public`` (``battles.permissions.visible_dice``)."""
    battle.dice_rolls.filter(pk__gt=since).update(
        result=text[:300], secret=True, warband=warband, public=public[:200]
    )
