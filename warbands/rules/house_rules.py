"""A campaign's house rules (optional rules chapter, "House rules": a group agrees before its
first game what it plays with): which warband lists and hired swords it allows, and the gold
each warband starts with. Pure: plain values in, plain answers out.

What is allowed is said two ways, as organisers put it: whole grades ("every Grade 1a and 1b
list"), which also take in the lists of those grades the app adds later, and single lists
named beside them ("... and the Night Goblins"). A list is allowed when its grade is allowed or
it is named. To leave one list of a grade out, the organiser allows the grade's other lists by
name instead of the grade. Hired swords are allowed the same way.

Readings where the texts are silent:
- A campaign with no house rules allows every list and hired sword, with each list's own
  starting gold: it is what the app offered before organisers could choose.
- A starting gold set by the organiser replaces every list's own (the lists differ little,
  and a league that raises it means every warband to start alike).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = ["Allowance", "allowance_text", "refusal"]

GRADE_NAMES = {
    "core": "rulebook",
    "1a": "Grade 1a",
    "1b": "Grade 1b",
    "1c": "Grade 1c",
    "2a": "Grade 2a",
}


@dataclass(frozen=True)
class Allowance:
    """What a campaign allows of one kind (warband lists, hired swords): whole grades and
    entries named by key. ``everything`` when the campaign has no house rules."""

    grades: frozenset[str] = frozenset()
    keys: frozenset[str] = frozenset()
    everything: bool = False

    @classmethod
    def of(cls, grades: Iterable[str], keys: Iterable[str]) -> Allowance:
        return cls(frozenset(grades), frozenset(keys))

    def allows(self, key: str, grade: str) -> bool:
        return self.everything or grade in self.grades or key in self.keys


def _joined(words: Sequence[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"


def allowance_text(
    allowance: Allowance, *, kind: str, names: dict[str, str], every: Iterable[str] = ()
) -> str:
    """What ``allowance`` allows, in a sentence fragment: "every Grade 1a and 1b list, and
    Norse Explorers". ``kind`` is the singular noun ("list", "hired sword"); ``names`` maps the
    named keys to their names (a key of no known entry is left out); ``every``: the grades
    there are, all of which allowed is every entry."""
    every = frozenset(every)
    if allowance.everything or (every and allowance.grades >= every):
        return f"every {kind}"
    grades = sorted(allowance.grades)
    named = sorted(names[key] for key in allowance.keys if key in names)
    parts = []
    if grades:
        graded = [g for g in grades if g != "core"]
        labels = [GRADE_NAMES.get(g, g) for g in graded[:1]]
        labels += [GRADE_NAMES.get(g, g).removeprefix("Grade ") for g in graded[1:]]
        if "core" in grades:
            labels.insert(0, GRADE_NAMES["core"])
        parts.append(f"every {_joined(labels)} {kind}")
    if named:
        parts.append(_joined(named))
    if not parts:
        return f"no {kind}"
    return ", and ".join(parts)


def refusal(
    allowance: Allowance,
    *,
    key: str,
    grade: str,
    name: str,
    kind: str,
    names: dict[str, str],
    every: Iterable[str] = (),
) -> str | None:
    """Why the campaign's house rules refuse ``name`` (``None`` when they allow it), saying
    what they allow instead."""
    if allowance.allows(key, grade):
        return None
    allowed = allowance_text(allowance, kind=kind, names=names, every=every)
    return f"This campaign's house rules do not allow {name}: they allow {allowed}."
