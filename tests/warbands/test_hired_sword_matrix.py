"""Every warband list against every hired sword: the app's decision (``rules.hire_refusal``
with the list's family, its own ``hired_swords`` rule and its key) must be the one the rule
texts give, read by hand in ``hired_sword_texts`` apart from ``hired_swords.json``.

Readings where the texts are loose (players' expectation):
- "Unless specifically stated with the Hired Sword" (Beastmen Raiders, Battle Monks of Cathay)
  and "anyone that specifically says otherwise" (The Cursed Cavalcade): an entry must name the
  warband (the Chaos Centaur names the Beastmen; the Cathayan Merchant, Ninja, Pyromaniac and
  Swordsmith the Battle Monks); a loose group ("any evil warband", "any human warband", "any
  good warband") is no such statement, so the Cavalcade, whose only named hire is the Crow
  Master (a dramatis persona), hires none of the catalogue, though it counts as evil.
- The Chaos Dwarfs (Black Dwarfs, Sons of Hashut) hire their five, any whose entry lets them
  (any warband, any evil warband), and those an entry allows to Orc or Chaos warbands by
  name or group: the Black Orc Overseer (any greenskin; the Hobgoblin Scout's Traitor rule
  expects greenskin hired swords beside him), the Norse Shaman and the Chaos Centaur (both
  name the Marauders of Chaos); never an Elf, nor one whose entry refuses them (the Ninja).
  An entry open to "any human warband" is not thereby open to them, though the Possessed are
  human.
- "Skaven", "Undead", "Orcs & Goblins" in the older entries cover every list of that race
  (Clan Pestilens, the Tomb Guardians, the Black Orcs, the Forest Goblins); "Orcs" alone the
  Orc lists; "any good-aligned Elves" (Highwayman) the Shadow Warriors.
- "Same selection as Human Mercenaries" (Kislevites, Hochland Bandits, Pirates): what a
  Mercenary warband may hire, and what the entry allows the list itself.
- Pit Fighters: only the Elf Ranger is refused; their Troll Slayer's Grudgebearers makes him
  leave if an Elf is hired, which the players settle at the table.
- Shadow Warriors: no Assassin (poisoners), the Imperial one too; the Ninja uses no poison.
"""

import re
from functools import cache
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.factories import WarbandFactory
from tests.warbands import hired_sword_texts as texts
from tests.warbands.test_hired_swords import entry_text
from warbands import hired_swords
from warbands.models import WarbandType
from warbands.rules import hired_swords as rules

pytestmark = pytest.mark.django_db

REFERENCE = Path(__file__).resolve().parents[3] / "shared/rules/reference"


@cache
def chapters() -> dict[str, str]:
    """The warband chapters of the texts by heading (``## Heading — Grade …`` up to the next
    chapter)."""
    found = {}
    for path in sorted(REFERENCE.glob("warbands-*.md")):
        text = path.read_text(encoding="utf-8")
        heads = list(re.finditer(r"^## (.+?) — (?:Core|Grade)", text, re.MULTILINE))
        for head, after in zip(heads, [*heads[1:], None], strict=True):
            found[head.group(1)] = text[head.start() : after.start() if after else len(text)]
    return found


def chapter(heading: str) -> str:
    return chapters()[heading]


def one_line(text: str) -> str:
    return re.sub(r"\s+", " ", text)


# --- The expectation, from the texts -------------------------------------------------------


def matches(token: str, family: str, key: str) -> bool:
    if token.startswith("@"):
        return texts.GROUPS[token[1:]](*texts.race_and_alignment(family))
    if token.startswith("="):
        return key == token[1:]
    return family == token


def entry_allows(hiring: texts.Hiring, family: str, key: str) -> bool:
    if hiring.may is not None and not any(matches(t, family, key) for t in hiring.may):
        return False
    return not any(matches(t, family, key) for t in hiring.never)


def open_to_orcs_or_chaos(hiring: texts.Hiring) -> bool:
    """The entry names Orc or Chaos warbands, by a group or by a list of theirs."""
    for token in hiring.may or ():
        if token in ("@evil", "@chaos", "@greenskin", "@orcs"):
            return True
        if token[0] not in "@=":
            race, side = texts.race_and_alignment(token)
            if side == "chaos" or race in ("orc", "goblin"):
                return True
    return False


def expected(sword: str, family: str, key: str) -> bool:
    hiring = texts.SWORDS[sword]
    own = entry_allows(hiring, family, key)
    rule = texts.LIST_RULES.get(key)
    refused_by_name = any(matches(t, family, key) for t in hiring.never)
    match rule and rule.kind:
        case None:
            return own
        case "none":
            return False
        case "named":
            return family in hiring.names() and not refused_by_name
        case "only":
            return sword in rule.keys or (rule.named and family in hiring.names())
        case "not":
            return own and sword not in rule.keys
        case "no_elves":
            return own and sword not in texts.ELVES
        case "as_mercenaries":
            return own or entry_allows(hiring, "Mercenaries", "reikland")
        case "chaos_dwarfs":
            widened = open_to_orcs_or_chaos(hiring) and not refused_by_name
            return sword not in texts.ELVES and (sword in rule.keys or own or widened)
    raise AssertionError(rule)


# --- The tables hold to the texts ----------------------------------------------------------


def test_every_family_has_its_race_from_its_chapter():
    loaded = set(WarbandType.objects.values_list("family", flat=True))
    assert loaded <= set(texts.FAMILIES)
    for family, (heading, words, _race, _side) in texts.FAMILIES.items():
        race_line = re.search(r"\*\*Race:\*\* ([^·]+)", chapter(heading)).group(1)
        assert race_line.startswith(words), family
    for hiring in texts.SWORDS.values():
        names = [t for t in (*(hiring.may or ()), *hiring.never) if t[0] not in "@="]
        for name in names:
            assert name in texts.FAMILIES or name in texts.NOT_LOADED, name


def test_every_hiring_sentence_is_in_its_entry():
    swords = dict(hired_swords.catalogue().values_list("key", "name"))
    assert set(texts.SWORDS) == set(swords)
    for key, hiring in texts.SWORDS.items():
        section = one_line(entry_text(swords[key]))
        for piece in hiring.anchor.split(" … "):
            assert piece in section and len(piece.split()) < 10, (key, piece)


def test_every_list_rule_is_in_its_chapter():
    keys = set(WarbandType.objects.values_list("key", flat=True))
    swords = set(texts.SWORDS)
    for key, rule in texts.LIST_RULES.items():
        assert key in keys, key
        assert rule.anchor in one_line(chapter(rule.heading)), key
        assert len(rule.anchor.split()) < 10, key
        assert rule.keys <= swords, key


# Chapters with a rule on hired swords whose list is not loaded yet (heading: family): when one
# comes, its rule must join ``LIST_RULES``.
RULED_NOT_LOADED: dict[str, str] = {}


def test_every_chapter_with_a_rule_on_hired_swords_is_read():
    """A chapter's special rule naming hired swords (or, Ostland's, "never hire") is in
    ``LIST_RULES``, but for the Dark Elves' Kindred Hatred (whom they hate, not whom they
    hire) and the lists not loaded yet."""
    rule_line = re.compile(r"^(?:- )?\*\*[^*]+:\*\*.*$", re.MULTILINE)
    found = {
        heading
        for heading, text in chapters().items()
        if any(re.search(r"Hired Sword|never hire", line) for line in rule_line.findall(text))
    }
    loaded = set(WarbandType.objects.values_list("family", flat=True))
    assert not loaded & set(RULED_NOT_LOADED.values())
    ruled = {rule.heading for rule in texts.LIST_RULES.values()}
    assert found == ruled | {"Dark Elves"} | set(RULED_NOT_LOADED)


# --- The matrix ----------------------------------------------------------------------------


def test_every_list_against_every_hired_sword():
    swords = [sword.as_terms() for sword in hired_swords.catalogue()]
    disagreements = []
    for kind in WarbandType.objects.all():
        list_rule = hired_swords.list_rule_of(SimpleNamespace(warband_type=kind))
        for terms in swords:
            refusal = rules.hire_refusal(
                terms, family=kind.family, list_rule=list_rule, warband_list=kind.key
            )
            wanted = expected(terms.key, kind.family, kind.key)
            if (refusal is None) != wanted:
                verdict = "may" if wanted else "may not"
                disagreements.append(f"{kind.key} {verdict} hire {terms.key}: {refusal}")
    assert not disagreements, "\n".join(disagreements)


@pytest.mark.parametrize("key", ["middenheim", "battle_monks_of_cathay", "black_dwarfs"])
def test_a_warband_of_the_list_is_refused_as_the_texts_say(key):
    """The same decisions through ``sword_refusal`` on a warband of the list (house rules
    allowing everything), for three lists whose rules differ."""
    warband = WarbandFactory(warband_type=WarbandType.objects.get(key=key))
    kind = warband.warband_type
    for sword in hired_swords.catalogue():
        allowed = hired_swords.sword_refusal(warband, sword) is None
        assert allowed == expected(sword.key, kind.family, kind.key), sword.key
