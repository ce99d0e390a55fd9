"""Dramatis personae on the roster: which ones a warband may hire now, and the lock under
which that is decided (the chapter's opening sections; the catalogue is
``warbands/data/dramatis_personae.json``).

A persona is a ``HiredSwordType`` of the persona kind, and once hired a ``Warrior`` linked to
it, as a hired sword is (``warbands.hired_swords``): his fee and upkeep, his rating (his value
alone: he never gains experience), his serious injuries as a hero's, the roster. He joins only
after a battle, found by a search (the post-battle sequence), never at the muster.

He is one named character, so at most one warband of a campaign has him at a time (unless
his entry says otherwise: Luthor Wolfenbaum). This is enforced by ``persona_refusal`` read
under a row lock of the campaign (``lock_campaign``), not by a database constraint: the
warrior rows name their warband, not the campaign, and a constraint could not see a persona
dismissed, dead or held captive. Every path that hires one takes the lock first, so two
warbands hiring him at once are served one after the other, and the second is refused.

``persona_refusal`` is the one place that says why a warband may not hire a persona now;
every path asks it. The campaign's house rules come first: an organiser allows personae as he
allows hired swords (``warbands.house_rules.allowed``: by grade, or by name).
"""

from __future__ import annotations

from collections.abc import Iterable

from campaign.models import Campaign
from warbands.hired_swords import held_sword_keys
from warbands.house_rules import allowed
from warbands.models import HiredSwordType, Warband, Warrior
from warbands.rules import dramatis_personae as rules
from warbands.rules import hired_swords as sword_rules

__all__ = [
    "holders",
    "lock_campaign",
    "persona_refusal",
    "personae",
    "personae_for",
]


def personae():
    """The dramatis personae of the catalogue, by name."""
    return HiredSwordType.objects.filter(kind=HiredSwordType.Kind.DRAMATIS_PERSONA).select_related(
        "warrior_type", "warrior_type__race"
    )


def lock_campaign(warband: Warband) -> None:
    """Hold the campaign's row until the transaction ends: whoever hires a persona takes it
    before asking ``persona_refusal``, so the one-per-campaign rule reads committed rows."""
    Campaign.objects.select_for_update(no_key=True).filter(pk=warband.campaign_id).exists()


def holders(warband: Warband) -> dict[str, str]:
    """The personae the other warbands of ``warband``'s campaign have on their rosters (held
    captive too), each with the warband that has him."""
    rows = (
        Warrior.objects.on_roster()
        .filter(
            warband__campaign_id=warband.campaign_id,
            hired_sword__kind=HiredSwordType.Kind.DRAMATIS_PERSONA,
        )
        .exclude(warband=warband)
        .values_list("hired_sword__key", "warband__name")
    )
    return dict(rows)


def persona_refusal(
    warband: Warband,
    persona: HiredSwordType,
    *,
    held_keys: Iterable[str] | None = None,
    held_elsewhere: dict[str, str] | None = None,
    found: Iterable[str] | None = None,
    fought_last_battle: Iterable[str] = (),
    house=allowed.UNREAD,
) -> str | None:
    """Why ``warband`` may not hire ``persona`` now, or ``None``.

    In order: the campaign's house rules (``house``: its row, when the caller has read it);
    the app cannot hire him at all ("Busty" Gwen's scenario); his entry's warbands
    (the lists' own rules on hired swords do not reach personae: the Dark Jester joins the
    Carnival, which hires no hired swords); one of him per warband and whom he will not
    serve beside; another warband of the campaign has him (``held_elsewhere``: ``holders``,
    read under ``lock_campaign`` when hiring); a wanderer who fought the warband's last
    battle (``fought_last_battle``: keys); and, when ``found`` is given (the keys the
    warband's searches found after this battle), not found. ``held_keys`` and
    ``held_elsewhere`` are read when not given."""
    refused = allowed.sword_refusal(warband.campaign_id, persona, house)
    if refused:
        return refused
    if persona.hire_refused:
        return persona.hire_refused
    terms = persona.as_terms()
    family = warband.warband_type.family
    reason = sword_rules.hire_refusal(terms, family=family, warband_list=warband.warband_type.key)
    if reason:
        return reason
    held = held_sword_keys(warband) if held_keys is None else set(held_keys)
    reason = sword_rules.held_refusal(terms, held)
    if reason:
        return reason
    elsewhere = holders(warband) if held_elsewhere is None else held_elsewhere
    reason = rules.campaign_refusal(
        persona.name, held_elsewhere=persona.key in elsewhere, everywhere=persona.everywhere
    )
    if reason:
        return reason
    if persona.one_battle:
        used = persona.key in set(fought_last_battle)
        reason = rules.wanderer_refusal(persona.name, used_last_battle=used)
        if reason:
            return reason
    if found is not None and persona.key not in set(found):
        return f"Send heroes to look for {persona.name} first (step 6): he has not been found."
    return None


def personae_for(
    warband: Warband, *, found: Iterable[str] | None = None, fought_last_battle: Iterable[str] = ()
) -> list[tuple[HiredSwordType, str | None]]:
    """Every persona with why ``warband`` may not hire him now (or None), reading the rosters
    once."""
    held, elsewhere = held_sword_keys(warband), holders(warband)
    house = allowed.rules_of(warband.campaign_id)
    found = None if found is None else set(found)
    return [
        (persona, persona_refusal(warband, persona, held_keys=held, held_elsewhere=elsewhere,
                                  found=found, fought_last_battle=fought_last_battle,
                                  house=house))
        for persona in personae()
    ]  # fmt: skip
