"""Dice: the only source of randomness in the rules engine.

Rules functions receive a ``Dice`` and never import ``random``. Three kinds:

- ``ServerDice``: a cryptographic RNG (``secrets``); every roll is handed to a ``recorder`` so the
  service can log it where both players see it (the rulebook: rolls must be witnessed).
- ``EnteredDice``: the player types what the physical dice showed; out-of-range values are refused.
  ``TypedDice``, for a task of the post-battle sequence, asks for a roll nobody typed yet
  (``MoreDice``) instead of refusing it.
- ``ScriptedDice``: tests, with chosen rolls.

What a form types for a roll is declared as a ``Need`` (so many dice of such a kind, with its
label), and typed dice must be exactly that many. ``StagedDice`` carries a roll and the
further rolls it led to, each typed in a field of its own once asked for, across posts of a
form that keeps nothing between them.

Each roll is named (``purpose``) so the log says what it was for. Pure Python: no Django.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import cycle, islice
from typing import Protocol


class DiceError(ValueError):
    """A die value that is not possible (entered 7 on a D6), or no value left to use."""


class MoreDice(Exception):
    """A rule rolls ``n`` D``sides`` for ``purpose`` and no typed die is left for it: the caller
    asks the player for that roll, in a field of its own. Not a ``DiceError``: nothing typed
    was wrong, the roll simply comes after what was typed."""

    def __init__(self, n: int, sides: int, purpose: str) -> None:
        super().__init__(f"{purpose or 'A roll'} takes {_dice(n, sides)}.")
        self.n, self.sides, self.purpose = n, sides, purpose


@dataclass(frozen=True)
class Roll:
    """One throw of ``len(faces)`` dice with ``sides`` sides, for a named purpose."""

    purpose: str
    sides: int
    faces: tuple[int, ...]
    source: str  # "server", "entered" or "scripted"

    @property
    def total(self) -> int:
        return sum(self.faces)

    def describe(self) -> str:
        dice = f"{len(self.faces)}D{self.sides}" if len(self.faces) > 1 else f"D{self.sides}"
        shown = "+".join(str(face) for face in self.faces)
        return f"{dice} {shown}" + (f" = {self.total}" if len(self.faces) > 1 else "")


class Dice(Protocol):
    def roll(self, n: int, sides: int, purpose: str = "") -> Roll: ...


def d6(dice: Dice, purpose: str = "") -> int:
    return dice.roll(1, 6, purpose).total


def d3(dice: Dice, purpose: str = "") -> int:
    """A D3 is a D6 halved, rounding up (1-2 → 1, 3-4 → 2, 5-6 → 3)."""
    return (dice.roll(1, 6, purpose).total + 1) // 2


def two_d6(dice: Dice, purpose: str = "") -> int:
    return dice.roll(2, 6, purpose).total


def d66(dice: Dice, purpose: str = "") -> int:
    """Two D6 read as tens and units: 1 and 5 make 15."""
    first, second = dice.roll(2, 6, purpose).faces
    return first * 10 + second


Recorder = Callable[[Roll], None]


def _ignore(roll: Roll) -> None:
    return None


class ServerDice:
    """Rolled by the server with a cryptographic RNG; each roll goes to ``recorder``."""

    source = "server"

    def __init__(self, recorder: Recorder = _ignore) -> None:
        self.recorder = recorder

    def roll(self, n: int, sides: int, purpose: str = "") -> Roll:
        _check_shape(n, sides)
        result = Roll(
            purpose, sides, tuple(secrets.randbelow(sides) + 1 for _ in range(n)), "server"
        )
        self.recorder(result)
        return result


class _QueuedDice:
    source = "scripted"

    def __init__(self, faces: Iterable[int], recorder: Recorder = _ignore) -> None:
        self._faces = list(faces)
        self.recorder = recorder

    def roll(self, n: int, sides: int, purpose: str = "") -> Roll:
        _check_shape(n, sides)
        if len(self._faces) < n:
            left = len(self._faces)
            typed = (
                "no typed dice are left for it"
                if not left
                else f"only {left} typed {'die is' if left == 1 else 'dice are'} left for it"
            )
            what = purpose[:1].upper() + purpose[1:] if purpose else "A roll"
            raise DiceError(f"{what} takes {_dice(n, sides)}; {typed}.")
        faces = tuple(self._faces[:n])
        del self._faces[:n]
        for face in faces:
            if not 1 <= face <= sides:
                raise DiceError(f"{face} is not a possible roll of a D{sides}")
        result = Roll(purpose, sides, faces, self.source)
        self.recorder(result)
        return result

    @property
    def remaining(self) -> Sequence[int]:
        return tuple(self._faces)


class ScriptedDice(_QueuedDice):
    """Tests: the given faces are used in order."""

    source = "scripted"


class EnteredDice(_QueuedDice):
    """Physical dice: the faces the player typed, used in order, each checked against the die.

    Several dice of fewer than ten sides may be typed as one number, a digit each: "41" for a
    D66 is 4 then 1, as players read it off the table (no such die shows a two-digit face,
    so nothing else could be meant)."""

    source = "entered"

    def __init__(self, faces: Iterable[int], recorder: Recorder = _ignore) -> None:
        super().__init__(faces, recorder)
        self.typed = len(self._faces)

    def roll(self, n: int, sides: int, purpose: str = "") -> Roll:
        if n > 1 and sides < 10 and self._faces and len(str(self._faces[0])) == n:
            digits = [int(d) for d in str(self._faces[0])]
            self._faces[:1] = digits
            self.typed += n - 1
        return super().roll(n, sides, purpose)

    @property
    def used(self) -> int:
        return self.typed - len(self._faces)


class TypedDice(EnteredDice):
    """The dice typed for one roll of a task (already split into single dice and counted by the
    caller), used in order; a roll made when none is left raises ``MoreDice``, so that the task
    asks for it instead of the player having to type every die of every sub-roll up front."""

    def roll(self, n: int, sides: int, purpose: str = "") -> Roll:
        if not self._faces:
            _check_shape(n, sides)
            raise MoreDice(n, sides, purpose)
        return super().roll(n, sides, purpose)


def split_digits(typed: Iterable[int], sides: int) -> list[int]:
    """The dice in ``typed``, a number of several digits read as one die a digit when the dice
    have fewer than ten sides (no such die shows two digits): 41 for a D66 is 4 then 1."""
    if sides >= 10:
        return list(typed)
    return [int(digit) for face in typed for digit in str(face)]


EXAMPLE = (4, 1, 6, 2, 5, 3)  # the faces a label's example shows, in turn


def count_dice(count: int) -> str:
    """ "1 die", "3 dice"."""
    return f"{count} {'die' if count == 1 else 'dice'}"


@dataclass(frozen=True)
class Need:
    """What one field of dice types: ``count`` dice of ``sides`` sides, read as ``reads``
    ("D66", "2D6", "one D6 per model out of action"). ``count`` 0: none, as ``note`` says."""

    count: int
    reads: str = ""
    sides: int = 6
    note: str = ""

    @property
    def label(self) -> str:
        """The dice field's label: "Type 2 dice (D66), e.g. 41 or 4 1"."""
        if not self.count:
            return self.note
        example = " ".join(map(str, islice(cycle(EXAMPLE), self.count)))
        if self.reads == "D66":
            example = f"{example.replace(' ', '')} or {example}"
        return f"Type {count_dice(self.count)} ({self.reads}), e.g. {example}"

    def check(self, typed: Sequence[int], who: str) -> list[int]:
        """The dice ``typed`` (a number of several digits is one die a digit), if they are
        exactly the ``count`` this roll takes and each a face of its die; else ``DiceError``
        naming the count, and nothing changes."""
        faces = split_digits(typed, self.sides)
        if len(faces) != self.count:
            wanted = f"needs {count_dice(self.count)} ({self.reads})" if self.count else (
                f"takes no dice now ({self.note})"
            )  # fmt: skip
            raise DiceError(f"{who} {wanted}; you typed {len(faces)}.")
        for face in faces:
            if not 1 <= face <= self.sides:
                raise DiceError(f"{face} is not a possible roll of a D{self.sides}.")
        return faces


def roll_need(n: int, sides: int) -> Need:
    """The field one roll of ``n`` D``sides`` is typed in (a further roll, asked for)."""
    return Need(n, f"{n if n > 1 else ''}D{sides}", sides)


class StagedDice(TypedDice):
    """Typed dice for a roll and the rolls it leads to (a recovery roll, then a roll-off, then
    the routers' chain), posted again together each time a further roll is asked for, by a
    form that keeps nothing between posts.

    ``first``: the first roll's dice, already counted by the caller (``Need.check``). Then
    ``further``: one group of dice per further roll, in the order the rules came to them,
    each exactly the dice that roll takes. A roll past the last group asks for itself
    (``MoreDice``); an empty group leaves that roll, and every roll after it, to ``live``
    (the server's dice). ``left_over``: typed dice no roll used (the caller refuses them)."""

    def __init__(
        self,
        first: Iterable[int],
        further: Sequence[Sequence[int]],
        *,
        live: Dice,
        recorder: Recorder = _ignore,
    ) -> None:
        super().__init__(first, recorder)
        self._further = [list(group) for group in further]
        self.live = live
        self._by_live = False

    def roll(self, n: int, sides: int, purpose: str = "") -> Roll:
        if self._by_live:
            return self.live.roll(n, sides, purpose)
        if not self._faces and self._further:
            group = self._further.pop(0)
            if not group:
                self._by_live = True
                return self.live.roll(n, sides, purpose)
            what = purpose[:1].upper() + purpose[1:] if purpose else "A further roll"
            self._faces = roll_need(n, sides).check(group, what)
            self.typed += n
        return super().roll(n, sides, purpose)

    @property
    def left_over(self) -> int:
        return len(self._faces) + sum(len(group) for group in self._further)


def _dice(n: int, sides: int) -> str:
    """ "2 D6", "a D66" (for sentences)."""
    return f"{n} D{sides}" if n > 1 else f"a D{sides}"


def _check_shape(n: int, sides: int) -> None:
    if n < 1 or sides < 2:
        raise DiceError(f"cannot roll {n} dice with {sides} sides")


class ReplayDice:
    """Replays the faces already rolled for a task, then rolls on with ``live`` dice.

    A task that stops to ask the player something (did he win the pit fight? which skill?) is
    run again from the start once answered: the dice it already rolled must come out the same,
    and only new rolls are made (and logged) by the live dice. ``faces`` collects every face
    used, old and new, for the caller to keep with the task.
    """

    def __init__(self, recorded: Iterable[int], live: Dice) -> None:
        self._recorded = list(recorded)
        self.live = live
        self.faces: list[int] = []
        self.new_rolls: list[Roll] = []

    def roll(self, n: int, sides: int, purpose: str = "") -> Roll:
        if len(self._recorded) >= n:
            faces = tuple(self._recorded[:n])
            del self._recorded[:n]
            result = Roll(purpose, sides, faces, "replayed")
        else:
            result = self.live.roll(n, sides, purpose)
            self.new_rolls.append(result)
        self.faces.extend(result.faces)
        return result
