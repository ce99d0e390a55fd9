"""Questions a rule asks the player mid-roll (which skill? did he win the pit fight?).

A rule function takes the player's ``answers`` (a dict); when it needs one it does not have, it
raises ``NeedsAnswer`` with the ``Question``. The service keeps the dice rolled so far and
replays them (``core.dice.ReplayDice``) once the player answers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = ["NeedsAnswer", "Question", "ask"]


@dataclass(frozen=True)
class Question:
    key: str
    text: str
    options: tuple[tuple[str, str], ...]  # (value, label)


class NeedsAnswer(Exception):
    def __init__(self, question: Question) -> None:
        super().__init__(question.text)
        self.question = question


def ask(answers: Mapping[str, str], key: str, text: str, options: Sequence[tuple[str, str]]) -> str:
    """The player's answer to ``key`` if it is one of ``options``; otherwise ask."""
    options = tuple(options)
    value = answers.get(key)
    if value is not None and any(value == option for option, _ in options):
        return value
    raise NeedsAnswer(Question(key, text, options))
