"""Dramatis personae: the catalogue against the rule text entry by entry, who may hire each
one (every list of the app against every persona), one of him per campaign, and the terms
that keep him apart from the hired swords (no muster, no equipment handed to him)."""

import re
from pathlib import Path

import pytest
from django.urls import reverse

from core.errors import RuleViolation
from tests.factories import WarbandFactory
from tests.warbands.test_hired_swords import PROFILE
from tests.warbands.test_rule_summaries import rule_texts, runs
from warbands import dramatis_personae, hired_swords, treasury
from warbands.models import HiredSwordType, HouseRules, Item, WarbandType
from warbands.reference import read

pytestmark = pytest.mark.django_db

RULES = Path(__file__).resolve().parents[3] / "shared/rules/reference/05-dramatis-personae.md"
DATA = Path(__file__).resolve().parents[2] / "warbands/data/dramatis_personae.json"
CATALOGUE = read(DATA)["dramatis_personae"]
GROUPS = read(DATA.parent / "hired_swords.json")["family_groups"]


def chapter() -> str:
    return RULES.read_text(encoding="utf-8").replace("\u00ad", "")  # a soft hyphen in a name


def entry_text(name: str) -> str:
    """The chapter's section for one persona (``### Name`` up to the next ``###`` or ``##``)."""
    text = chapter()
    heading = re.compile(rf"^### {re.escape(name)}\n", re.IGNORECASE | re.MULTILINE)
    start = heading.search(text, text.index("## Grade 1A Dramatis Personae")).start()
    ends = [i for i in (text.find("\n### ", start + 4), text.find("\n## ", start)) if i > 0]
    return text[start : min(ends)] if ends else text[start:]


FEE = r"(\d+) gold crowns"
UPKEEP = r"(\d+) gold crowns(?: upkeep| and \+1 campaign point upkeep)|\+(\d+) gc or"
RATING = r"rating (?:by:? )?\+? ?(\d+)|Rating:\*\* (\d+) points"
# No fee in gold: the entry's own words for what takes its place.
NO_GOLD_FEE = {
    "bertha_bestraufrung": "**Hire Fee:** None",
    "penthesilea": "**Hire Fee:** None",
    "nicodemus": "you must pay him with a wyrdstone shard",
    "dark_emissary": "There is no hire fee for either character",
    "truthsayer": "There is no hire fee for either character",
    "busty_gwen": "**Hire Fee:** See special rules.",
}
NO_RATING = {"dark_emissary", "truthsayer"}  # the text prints none
# Profile cells that are not a number: the text's cell and the number stored (its rule says
# the rest: Belandysh's Inconsistency rolls them; the Horseman moves on his steed).
NOT_A_NUMBER = {
    ("belandysh", "WS"): ("D6", 3), ("belandysh", "S"): ("D6", 3), ("belandysh", "T"): ("D6", 3),
    ("belandysh", "I"): ("D6", 3), ("belandysh", "A"): ("D3", 2),
    ("belandysh", "Tol'Agath", "S"): ("D6", 3), ("belandysh", "Tol'Agath", "T"): ("D6", 3),
    ("the_headless_horseman", "M"): ("-", 0),
}  # fmt: skip


def profile_row(section: str, key: str, label: str | None = None) -> list[int]:
    rows = re.findall(r"^\|([^|\n]*)((?:\|[^|\n]*){9,10})\|\s*$", section, re.MULTILINE)
    rows = [(name.strip(), cells) for name, cells in rows]
    rows = [(name, [c.strip() for c in cells.split("|")[1:10]]) for name, cells in rows]
    rows = [r for r in rows if r[1][0] not in ("M", "---") and label in (None, r[0])]
    cells = [cell.replace("\\", "").rstrip("*") for cell in rows[0][1]]
    values = []
    for characteristic, cell in zip(PROFILE, cells, strict=True):
        where = (key, label, characteristic) if label else (key, characteristic)
        text, stored = NOT_A_NUMBER.get(where, (cell, None))
        assert cell == text, (key, characteristic)
        values.append(int(cell) if stored is None else stored)
    return values


@pytest.mark.parametrize("entry", CATALOGUE, ids=lambda e: e["key"])
def test_each_persona_matches_the_rule_text(entry):
    section = entry_text(entry["name"])
    fee, upkeep = re.search(FEE, section, re.I), re.search(UPKEEP, section, re.I)
    if entry["key"] in NO_GOLD_FEE:
        assert NO_GOLD_FEE[entry["key"]] in section and entry["hire_fee"] == 0
    else:
        assert entry["hire_fee"] == int(fee.group(1))
    assert entry["upkeep"] == (int(upkeep.group(1) or upkeep.group(2)) if upkeep else 0)
    rating = re.search(RATING, section)
    if entry["key"] in NO_RATING:
        assert rating is None and entry["rating"] == 0
    else:
        assert entry["rating"] == int(rating.group(1) or rating.group(2))
    assert [entry["profile"][c] for c in PROFILE] == profile_row(section, entry["key"])
    companion = entry.get("companions")
    if companion:
        assert [companion["profile"][c] for c in PROFILE] == profile_row(
            section, entry["key"], companion["name"]
        )
    assert entry["gains_experience"] is False  # special characters earn none
    wanders = re.search(r"Wanderer|for each battle|for the duration|consecutively", section)
    assert entry["one_battle"] == bool(wanders)


@pytest.mark.parametrize(
    ("heading", "next_heading", "grade", "count"),
    [
        ("## Grade 1A", "## Grade 1B", "1a", 7),
        ("## Grade 1B", "## Grade 1C", "1b", 10),
        ("## Grade 1C", "## Grade 2A", "1c", 6),
        ("## Grade 2A", None, "2a", 7),
    ],
)
def test_every_persona_of_the_chapter_is_in_the_catalogue(heading, next_heading, grade, count):
    text = chapter()
    start = text.index(heading)
    section = text[start : text.index(next_heading)] if next_heading else text[start:]
    names = re.findall(r"^### (.+)$", section, re.MULTILINE)
    assert len(names) == count
    ours = [e["name"].lower() for e in CATALOGUE if e["grade"] == grade]
    assert ours == [name.lower() for name in names]


@pytest.mark.skipif(not RULES.is_file(), reason="the rule texts (../shared/rules) are not here")
def test_summaries_are_in_our_own_words():
    rule_runs = runs(rule_texts())
    copied = [
        (entry["key"], text)
        for entry in CATALOGUE
        for text in entry["equipment"] + entry["skills"] + entry["special_rules"]
        + entry["hire_terms"] + [entry.get("hire_refused", "")]
        if runs(text) & rule_runs
    ]  # fmt: skip
    assert copied == []


@pytest.mark.parametrize("entry", CATALOGUE, ids=lambda e: e["key"])
def test_each_persona_is_loaded(entry):
    persona = HiredSwordType.objects.select_related("warrior_type").get(key=entry["key"])
    assert persona.is_persona
    assert (persona.name, persona.grade, persona.hire_fee, persona.upkeep, persona.rating) == (
        entry["name"], entry["grade"], entry["hire_fee"], entry["upkeep"], entry["rating"]
    )  # fmt: skip
    assert persona.warrior_type.profile.as_dict() == entry["profile"]
    assert not persona.warrior_type.gains_experience
    assert (persona.equipment, persona.skills, persona.special_rules) == (
        entry["equipment"], entry["skills"], entry["special_rules"]
    )  # fmt: skip
    assert persona.one_battle == entry["one_battle"]
    assert persona.everywhere == entry.get("everywhere", False)


def test_personae_are_not_in_the_hired_swords_catalogue():
    keys = set(hired_swords.catalogue().values_list("key", flat=True))
    assert keys.isdisjoint(e["key"] for e in CATALOGUE)
    assert dramatis_personae.personae().count() == 30
    warband = WarbandFactory()
    with pytest.raises(RuleViolation, match="never at the muster"):
        hired_swords.hire_at_muster(warband, actor=warband.owner, sword_key="johann_the_knife")
    assert not warband.warriors.exists()


def families_of_the_texts() -> set[str]:
    """The warband chapters' headings, and the Wood Elves of the chapter's list of warbands."""
    names = set()
    for path in RULES.parent.glob("warbands-*.md"):
        text = path.read_text(encoding="utf-8")
        names |= set(re.findall(r"^## (.+?) — (?:Core|Grade)", text, re.MULTILINE))
    return names | {"Wood Elves of Athel Loren"}


def test_who_hires_him_names_families_of_the_lists_or_the_texts():
    known = set(WarbandType.objects.values_list("family", flat=True)) | families_of_the_texts()
    for persona in dramatis_personae.personae():
        names = [*persona.hired_by.get("only", ()), *persona.hired_by.get("except", ())]
        assert set(names) <= known, persona.key


# --- Who may hire each persona: every list of the app against every persona ------------------

ELVES = {"Shadow Warriors", "Dark Elves"}


def group(name: str) -> set[str]:
    out = set()
    for member in GROUPS[name]:
        out |= group(member[1:]) if member.startswith("@") else {member}
    return out


def everybody() -> set[str]:
    return set(WarbandType.objects.values_list("family", flat=True))


# Each entry's "May be hired" as the families (and, where a list is named, the list keys) it
# allows: written here from the text, not from the data file.
def allowed_families() -> dict[str, set[str]]:
    every = everybody()
    human, good, evil = group("human"), group("good"), group("evil")
    skaven, undead, dwarf, chaos = group("skaven"), group("undead"), group("dwarf"), group("chaos")
    return {
        "aenur": every - skaven - undead - {"Cult of the Possessed"},
        "bertha_bestraufrung": {"Sisters of Sigmar"},
        "countess_marianna_chevaux": every - undead - ELVES
        - {"Witch Hunters", "Sisters of Sigmar"},
        "johann_the_knife": every - skaven - undead - {"Cult of the Possessed"},
        "nicodemus": every - skaven - undead - {"Cult of the Possessed", "Witch Hunters"},
        "ulli_and_marquand": every - {"Sisters of Sigmar", "Witch Hunters"},
        "veskit": skaven,
        "abdul_alhazred": every - {"Witch Hunters", "Sisters of Sigmar"},
        "the_crow_master": every - dwarf - ELVES - {"Sisters of Sigmar", "Witch Hunters"},
        "dark_emissary": evil,
        "dijin_katal": every - {"Amazons (Lustria)", "Amazons (Mordheim)"} - ELVES,
        "drenok_johansen": human | {"Norse Explorers"},
        "heinrich_altdorf_schmidt": human,
        "khar_mel_the_djinn": every,
        "maximilian_the_mad": (dwarf | human) - {"Cult of the Possessed", "Sisters of Sigmar",
                                                 "Carnival of Chaos", "Horned Hunters"},
        "penthesilea": {"Amazons (Lustria)", "Amazons (Mordheim)"},
        "truthsayer": good | {"Sisters of Sigmar", "Witch Hunters", "Mercenaries"},
        "belandysh": {"Marauders of Chaos", "Beastmen Raiders", "Norse Explorers",
                      "Cult of the Possessed"},
        "grand_master_ippan_shu": (human | {"Shadow Warriors"})
        - {"Dark Elves", "Outlaws of Stirwood Forest", "Hochland Bandits"},
        "innominatus": every - skaven - {"Dark Elves"},
        "luthor_wolfenbaum": every,
        "luthor_the_looter": every,
        "maglah_khans_horde": group("greenskin") | {"Black Dwarfs", "The Sons of Hashut",
                                                    "Marauders of Chaos", "Norse Explorers",
                                                    "Beastmen Raiders", "Cult of the Possessed",
                                                    "Mercenaries", "Maneaters"},
        "akshoakhash": chaos,
        "busty_gwen": set(),  # her bargain is a scenario the app does not play
        "the_dark_jester": {"Carnival of Chaos", "Cult of the Possessed"},
        "the_headless_horseman": every - good,
        "the_foole": (every - good) | {"Mercenaries"},
        "sigmund_spindle": evil,
        "william_schakestange": good | {"Mercenaries", "Sisters of Sigmar", "Witch Hunters"},
    }  # fmt: skip


NOT_THESE_LISTS = {"maximilian_the_mad": {"middenheim"}}  # "except ... Middenheimers"


def test_each_persona_is_hired_by_exactly_the_warbands_his_entry_allows():
    """Every loaded list against every persona, on a warband of each list with nobody else
    in the campaign holding him (the lists' own rules on hired swords do not reach personae:
    the Carnival hires the Dark Jester)."""
    allowed = allowed_families()
    assert set(allowed) == {e["key"] for e in CATALOGUE}
    personae = list(dramatis_personae.personae())
    wrong = []
    for warband_type in WarbandType.objects.all():
        warband = WarbandFactory.build(warband_type=warband_type)
        for persona in personae:
            may = warband_type.family in allowed[persona.key]
            may = may and warband_type.key not in NOT_THESE_LISTS.get(persona.key, ())
            refusal = dramatis_personae.persona_refusal(
                warband, persona, held_keys=(), held_elsewhere={}
            )
            if (refusal is None) != may:
                wrong.append((warband_type.key, persona.key, refusal))
    assert wrong == []


# --- One of him in a campaign; his equipment his own ------------------------------------------


def test_another_warband_of_the_campaign_holding_him_refuses_him():
    holder = WarbandFactory()
    other = WarbandFactory(campaign=holder.campaign)
    stranger = WarbandFactory()  # another campaign
    johann = HiredSwordType.objects.get(key="johann_the_knife")
    assert dramatis_personae.persona_refusal(other, johann) is None
    hired_swords.new_hired_sword(holder, johann, at_creation=False)

    assert "another warband of this campaign" in dramatis_personae.persona_refusal(other, johann)
    assert "one of each type" in dramatis_personae.persona_refusal(holder, johann)
    assert dramatis_personae.persona_refusal(stranger, johann) is None
    assert dramatis_personae.holders(other) == {"johann_the_knife": holder.name}


def test_a_persona_dead_or_gone_frees_him_for_the_campaign():
    holder = WarbandFactory()
    other = WarbandFactory(campaign=holder.campaign)
    johann = HiredSwordType.objects.get(key="johann_the_knife")
    warrior = hired_swords.new_hired_sword(holder, johann, at_creation=False)
    warrior.status = warrior.Status.DEAD
    warrior.save()
    assert dramatis_personae.persona_refusal(other, johann) is None


def test_luthor_is_everywhere_two_warbands_may_each_have_him():
    holder = WarbandFactory()
    other = WarbandFactory(campaign=holder.campaign)
    luthor = HiredSwordType.objects.get(key="luthor_wolfenbaum")
    hired_swords.new_hired_sword(holder, luthor, at_creation=False)
    assert dramatis_personae.persona_refusal(other, luthor) is None


def test_dijin_katal_never_beside_an_elven_hired_sword():
    warband = WarbandFactory()
    hired_swords.hire_at_muster(warband, actor=warband.owner, sword_key="elf_ranger")
    dijin = HiredSwordType.objects.get(key="dijin_katal")
    assert "will not serve beside" in dramatis_personae.persona_refusal(warband, dijin)


def test_nothing_is_handed_to_a_persona():
    warband = WarbandFactory()
    johann = hired_swords.new_hired_sword(
        warband, HiredSwordType.objects.get(key="johann_the_knife"), at_creation=False
    )
    with pytest.raises(RuleViolation, match="uses only his own equipment"):
        treasury.check_may_use(johann, Item.objects.get(key="lantern"))


def test_gwen_is_refused_to_everybody_with_the_reason():
    gwen = HiredSwordType.objects.get(key="busty_gwen")
    assert "scenario of her own" in dramatis_personae.persona_refusal(WarbandFactory(), gwen)


def test_the_guide_lists_hired_swords_and_personae_with_their_terms(client):
    page = client.get(reverse("guide_hired_swords")).content.decode()
    assert "Ogre Bodyguard" in page and "Johann the knife" in page
    row = page[page.index("Veskit, high executioner") :]
    row = row[: row.index("</tr>")]
    assert "80 gc" in row and "35 gc" in row and "<td>70</td>" in row
    assert "only Skaven of Clan Eshin, Skaven of Clan Pestilens" in row
    aenur = page[page.index("Aenur, the sword of twilight") :]
    assert "one battle only" in aenur[: aenur.index("</tr>")]


def test_the_roster_shows_a_persona_his_terms_and_own_equipment(client):
    warband = WarbandFactory()
    johann = HiredSwordType.objects.get(key="johann_the_knife")
    hired_swords.new_hired_sword(warband, johann, at_creation=False)
    client.force_login(warband.owner)
    page = client.get(reverse("warband_roster", args=[warband.pk])).content.decode()
    assert "Dramatis persona · upkeep 30 gc · rating 60" in page
    assert "Black Lotus on every blade" in page


def test_the_printed_roster_names_a_persona_as_one(client):
    warband = WarbandFactory()
    hired_swords.new_hired_sword(
        warband, HiredSwordType.objects.get(key="veskit"), at_creation=False
    )
    client.force_login(warband.owner)
    page = client.get(reverse("warband_print", args=[warband.pk])).content.decode()
    assert "Veskit, high executioner of clan eshin · Dramatis persona" in page


def test_the_campaigns_house_rules_allow_personae_as_they_allow_hired_swords():
    warband = WarbandFactory()
    HouseRules.objects.create(
        campaign=warband.campaign, sword_grades=["core"], sword_keys=["aenur"]
    )
    johann = HiredSwordType.objects.get(key="johann_the_knife")
    aenur = HiredSwordType.objects.get(key="aenur")
    assert dramatis_personae.persona_refusal(warband, aenur) is None
    refusal = dramatis_personae.persona_refusal(warband, johann)
    assert refusal and "Johann the knife" in refusal
    offered = dict(dramatis_personae.personae_for(warband))
    assert offered[aenur] is None and offered[johann] == refusal
