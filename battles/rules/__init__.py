"""Pure rules of battles and the post-battle sequence: no Django, no randomness of their own.

``carried_items``: reporting results, securing carried items, random fortune (MiM).
``injuries``: serious injuries of henchmen and heroes, death of the leader.
``experience``: experience, the underdog bonus and the advance tables.
"""

from battles.rules.carried_items import *  # noqa: F403
from battles.rules.carried_items import __all__ as _carried_items_all

__all__ = list(_carried_items_all)
