"""The wardogs a roster counts towards the warband's size, read from the warriors' items and
skills (the rule: ``warbands.rules.wardogs``). Warriors whose items were read with them
(``item_list``, as the roster and the steps' pages read them) cost no query unless one owns a
wardog; others cost one."""

from __future__ import annotations

from collections import Counter

from django.db.models import Count, Exists, OuterRef

from warbands.models import WarriorItem, WarriorSkill
from warbands.rules.roster import RosterEntry
from warbands.rules.wardogs import WARDOG, WARDOGS_ENTRY, counted_wardogs

__all__ = ["wardog_entries"]

FRIENDSHIP = "wardogs_free_slots"  # the skill's effect (Animal Friendship)


def _owners(warriors) -> list[tuple[int, bool]]:
    """(wardogs owned, Animal Friendship) for each warrior who owns any."""
    ids = [w.pk for w in warriors if w.pk is not None]
    if ids and all(getattr(w, "item_list", None) is not None for w in warriors):
        owned = Counter(w.pk for w in warriors for item in w.item_list if item.item.key == WARDOG)
        if not owned:
            return []
        friends = set(
            WarriorSkill.objects.filter(warrior_id__in=owned, skill__effect=FRIENDSHIP).values_list(
                "warrior_id", flat=True
            )
        )
        return [(n, pk in friends) for pk, n in owned.items()]
    if not ids:
        return []
    friendship = WarriorSkill.objects.filter(
        warrior=OuterRef("warrior_id"), skill__effect=FRIENDSHIP
    )
    return list(
        WarriorItem.objects.filter(warrior_id__in=ids, item__key=WARDOG)
        .values("warrior_id")
        .annotate(owned=Count("pk"), friend=Exists(friendship))
        .values_list("owned", "friend")
    )


def wardog_entries(warriors) -> list[RosterEntry]:
    """An entry of no type for the wardogs ``warriors`` own that count towards the size (none
    when they own none): a warrior's skill with the ``wardogs_free_slots`` effect (Animal
    Friendship) leaves two of his own out."""
    counted = counted_wardogs(_owners(warriors))
    if not counted:
        return []
    return [RosterEntry(WARDOGS_ENTRY, is_hero=False, is_leader=False, models=counted)]
