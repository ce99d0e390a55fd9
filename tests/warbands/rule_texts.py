"""Reading the rule texts' warband chapters: names as the texts print them ("Berserkers",
"the Wulfen", "Ship's Mates") matched to the app's warriors and items."""

import re


def singular(word: str) -> str:
    # "Braves" is a Brave, "Wolves" a Wolf
    for plural, single in (("men", "man"), ("aves", "ave"), ("ves", "f"), ("z", ""), ("s", "")):
        if word.endswith(plural) and not word.endswith("ss") and len(word) > 2:
            return word[: -len(plural)] + single
    return word


def norm(name: str) -> str:
    """A name reduced to its lower-case letters, each word singular, "the" dropped."""
    return "".join(singular(w) for w in re.findall(r"[a-z]+", name.lower()) if w != "the")


def option_heading(line: str) -> list | None:
    """A warrior printed as an option of another's entry, "**0–2 Estalian Warhound** — 25
    gold crowns to hire" (a Reaver Beastmaster's War Beast): [name, cost, (min, max), None
    for the profile that follows], as ``headings`` of the list test reads "#### …" lines."""
    found = re.match(r"\*\*(\d+)[–-](\d+) (.+?)\*\* — (\d+) gold crowns", line)
    if found is None:
        return None
    return [found[3], int(found[4]), (int(found[1]), int(found[2])), None]
