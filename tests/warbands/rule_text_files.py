"""Where ``test_grade_1b_1c_lists`` finds a list's rule text: the Grade 1b and 1c chapters, any
other file a list's spec names (the Ostermarkers, a Mercenaries variant printed on the core
chapter's page), and the heading of the Skill Table it is checked against."""

from itertools import takewhile
from pathlib import Path

CHAPTERS = ("warbands-grade-1b-part1.md", "warbands-grade-1b-part2.md", "warbands-grade-1c.md")
# A list published without a Skill Table of its own (its heading's note says so), and the
# table the app gives it. Ostermark's note lets the player take one of the other Mercenary
# tables; the app gives Reikland's, the first printed and the one the data set gives.
BORROWED_TABLES = {
    "ostermark": ("Ostermark Mercenaries Skill Table", "Reikland Mercenaries Skill Table"),
}


def text_files(specs) -> tuple[str, ...]:
    """The chapters, then each other file a spec's ``rule_text`` names, once."""
    named = sorted({Path(spec["rule_text"]).name for spec in specs} - set(CHAPTERS))
    return (*CHAPTERS, *named)


def skill_table_line(key: str, name: str, lines: list[str]) -> int:
    """The index of the line that heads the list's Skill Table: the table it borrows (its own
    heading printing a note and no table), the city's own ("Tilean Skill Table —
    Miragleans"), or the section's first."""
    if key in BORROWED_TABLES:
        own, taken = BORROWED_TABLES[key]
        start = lines.index(f"**{own}**") + 1
        note = list(takewhile(lambda line: not line.startswith(("**", "#")), lines[start:]))
        assert not any(line.startswith("|") for line in note), key
        assert "without a skill table" in " ".join(note), key
        return lines.index(f"**{taken}**")
    own = [n for n, line in enumerate(lines) if line.endswith(f"Skill Table — {name}**")]
    return own[0] if own else next(n for n, ln in enumerate(lines) if ln.endswith("Skill Table**"))
