"""Rules text at hand: every skill and spell has a summary of our own,
never a run of the rule texts' words, and the roster, its printout, the muster board and the
advance choice show it."""

import json
import re
from pathlib import Path

import pytest
from django.urls import reverse

from battles import aftermath as sequences
from tests.factories import WarbandFactory, hire
from tests.helpers import fought, play_to, roll, sequence_of
from warbands.models import Injury, Skill, Spell, Warrior, WarriorSkill
from warbands.reference import DATA_DIR, warband_files

RULES = Path(__file__).resolve().parents[3] / "shared" / "rules"
RUN = 10  # words in a row that a summary may not share with the rule texts


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def runs(text: str) -> set[tuple[str, ...]]:
    words = _words(text)
    return {tuple(words[i : i + RUN]) for i in range(len(words) - RUN + 1)}


def rule_texts() -> str:
    paths = [*RULES.glob("*.txt"), *RULES.glob("*.md"), *(RULES / "reference").glob("*.md")]
    return "\n".join(path.read_text(encoding="utf-8") for path in paths)


def _read(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _summarised() -> list[tuple[str, dict]]:
    """Every skill and spell of the data files, with where it is written."""
    lists = [("skills.json", row) for row in _read(DATA_DIR / "skills.json")["lists"]]
    lists += [(p.name, row) for p in warband_files() for row in _read(p).get("skill_lists", [])]
    rows = [(f"{name} {row['key']}", skill) for name, row in lists for skill in row["skills"]]
    for row in _read(DATA_DIR / "spells.json")["lists"]:
        rows += [(f"spells.json {row['key']}", spell) for spell in row["spells"]]
    return rows


def test_every_skill_and_spell_has_a_short_summary_of_its_own():
    rows = _summarised()
    # core skills and the hired swords' own (Grade 1a, then 1b and 1c), the lists' own skills
    # (Grade 1a, then the Norse Explorers', the Pirates', the Hochland Bandits', Clan
    # Pestilens', the Dark Elves', the Shadow Warriors'), spells and prayers (Grade 1a, then
    # the hired swords' of Grade 1b and 1c, the Tomb Guardians' scrolls, Dark Elf Magic and
    # Shadow Warrior Magic), then the Pit Fighters' two lists (Pit Fighter, Troll Slayer) and
    # the Black Orcs' list, the Amazons (Mordheim)'s Amazon Rituals and the Amazons
    # (Lustria)'s own skills, the Lizardmen's special skills and Lizardman Magic, and Forest
    # Goblin Magic; the Arabian Tomb Raiders' special skills and Arabian Elemental Magic, the
    # Bretonnian Knight Virtues; the Dwarf Rangers' two lists (Dwarf Ranger, Slayer) and their
    # Dwarf Runes; the Horned Hunters' list; then the lists named below
    assert len(rows) == (
        35
        + 27
        + 35
        + 5
        + 6
        + 5
        + 5
        + 5
        + 6
        + 42
        + 6
        + 36
        + 6
        + 6
        + 6
        + 5
        + 3
        + 6
        + 6
        + 5
        + 4
        + 6
        + 6
        + 3
        + 6
        + 5
        + 5
        + 3
        + 6
        + 6
        + 4  # Battle Monks of Cathay: the monks' skills
        + 1  # Battle Monks of Cathay: the Emissary's Warmonger
        + 6  # Black Dwarfs: their skills
        + 7  # Black Dwarfs: the Rituals of Hashut (the Sacrificial Ritual and six)
        + 4  # The Sons of Hashut: their skills
        + 6  # The Sons of Hashut: Chaos Dwarfs Magic
        + 5  # the Marauders of Chaos' list
        + 5  # the Bretonnian Chapel Guard's list
        + 6  # the Chapel Guard's Lady's Prayers
        + 9  # the Imperial Outriders' Cavalry list
        + 3  # The Cursed Cavalcade's list
        + 4  # Night Goblins: their skills
        + 6  # Maneaters: their skills
        + 5  # The Restless Dead: their skills
        + 12  # The Restless Dead: Necromancy, the Liche's and the Necromancer's lists
        + 5  # Merchant Caravans: the Merchant's skills
        + 6  # Night Goblins (web): their skills
        + 3  # Night Goblins (web): the Squig Herder's skills
        + 6  # Night Goblins (web): Goblin Magic
    )
    for where, row in rows:
        summary = row.get("summary", "")
        assert summary.strip(), f"{where} {row['key']}: no summary"
        assert len(summary) <= 200, f"{where} {row['key']}: more than a sentence or two"
        assert summary != row.get("text"), f"{where} {row['key']}: the text again"


@pytest.mark.skipif(not RULES.is_dir(), reason="the rule texts (../shared/rules) are not here")
def test_no_summary_copies_the_rule_texts():
    rule_runs = runs(rule_texts())
    copied = [
        f"{where} {row['key']}: {' '.join(sorted(runs(row['summary']) & rule_runs)[0])}"
        for where, row in _summarised()
        if runs(row["summary"]) & rule_runs
    ]
    assert copied == []


def test_the_loaded_skills_and_spells_carry_their_summaries(db):
    assert Skill.objects.get(skill_list__key="combat", key="strike_to_injure").summary == (
        "His blows land harder: +1 on every injury roll he makes in close combat."
    )
    assert not Skill.objects.filter(summary="").exists()
    assert not Spell.objects.filter(summary="").exists()


def test_an_injury_is_summarised_without_its_name_again(db):
    assert Injury(name="Leg wound", effect="Leg wound: -1 Movement").summary == "-1 Movement"
    assert Injury(name="Blinded in both eyes", effect="Blinded in both eyes").summary == ""
    assert Injury(name="Madness", effect="Stupidity").summary == "Stupidity"


MIGHTY_BLOW = "+1 Strength with every close-combat weapon (pistols in close combat excluded)."


@pytest.fixture
def draft(db):
    """A Reikland warband being mustered: a captain with Mighty Blow and a leg wound."""
    warband = WarbandFactory(name="Reavers")
    captain = hire(warband, "mercenary_captain", items=["sword"], name="Adler")
    WarriorSkill.objects.create(
        warrior=captain, skill=Skill.objects.get(skill_list__key="strength", key="mighty_blow")
    )
    Injury.objects.create(warrior=captain, name="Leg wound", effect="Leg wound: -1 Movement")
    return warband


def test_the_roster_and_its_printout_show_each_rule_with_its_summary(client, draft):
    client.force_login(draft.owner)

    page = client.get(reverse("warband_roster", args=[draft.pk])).content.decode()

    assert "Mighty Blow" in page and MIGHTY_BLOW.replace("'", "&#x27;") in page
    assert '<small class="rule-summary">-1 Movement</small>' in page  # the injury
    # The printout is this page under print.css, which prints the summaries as they are.
    assert ".rule-summary { display: block" in (
        Path(__file__).resolve().parents[2] / "static" / "css" / "print.css"
    ).read_text(encoding="utf-8")


def test_the_muster_board_shows_skills_and_special_rules_with_their_summaries(client, draft):
    client.force_login(draft.owner)

    page = client.get(reverse("warband_muster", args=[draft.pk])).content.decode()

    assert MIGHTY_BLOW.replace("'", "&#x27;") in page
    assert "Special rules of the Reikland Mercenaries" in page


def test_the_advance_choice_shows_each_skill_with_its_summary(client, duel):
    reavers = duel["reavers"]
    champion = reavers.warriors.get(warrior_type__key="champion")
    Warrior.objects.filter(pk=champion.pk).update(experience=10)
    battle = fought(duel, [(champion, False, 0, 1, None)])
    sequence = play_to(sequence_of(battle, reavers), 2, reavers.owner)
    sequences.act(sequence, actor=reavers.owner, step=2, action="award")  # 10 → 12: 11
    task = sequence.tasks.get(step=2)
    asked = roll(sequence, task, [1, 1], reavers.owner)  # 2D6 2: a new skill
    assert asked.question["key"] == "skill"
    client.force_login(reavers.owner)

    page = client.get(reverse("sequence_detail", args=[sequence.pk])).content.decode()

    assert 'value="mighty_blow"' in page
    assert f'Mighty Blow (Strength)<small class="rule-summary">{MIGHTY_BLOW}</small>' in page
