"""The secret treasury: storage containers, their contents and the append-only ledger.

Treasure only moves through these functions: each locks the rows it changes, checks the
capacity rules of ``warbands.rules.containers`` and writes the ledger entries that explain the
new balances in the same transaction (``ledger``, which also states the lock order every
service keeps). The modules:

- ``ledger``: ledger entries and balances, the locks, the context a change is made in;
- ``queries``: reads (a warband's containers, totals, the pile of unstored treasure);
- ``moves``: the owner's moves between containers, equipping and storing warriors' items,
  storing what lies unstored;
- ``containers``: buying, selling, naming, numbering and placing containers, and the purse
  stored at the end of mustering;
- ``capture``: containers captured or lost, unstored treasure lost after a battle;
- ``audit``: every balance against the sum of its ledger entries, and value minted from
  nothing (``conservation_problems``);
- ``provenance``: what corrections gave each warband, and gold an item they added brought.

Its edge, which the treasury page and the post-battle steps share, is here too, above the
services and imported by its callers directly (this module does not): ``forms`` (each form's
``apply`` calls the services), ``board`` (what a page shows of a treasury, and the forms'
lists) and ``views`` (the treasury page); their partials are ``templates/warbands/treasury/``.

Callers use the package (``treasury.move_treasure(...)``); the modules import each other
directly, never this one.
"""

from warbands.models import LedgerEntry
from warbands.treasury.audit import (
    LedgerMismatch,
    conservation_problems,
    ledger_mismatches,
    mustering_spent,
)
from warbands.treasury.capture import capture_container, lose_container, settle_unstored_treasure
from warbands.treasury.containers import (
    BUYABLE_CONTAINERS,
    COMMON_CONTAINERS,
    SELLABLE_CONTAINERS,
    buy_container,
    create_starting_chest,
    name_container,
    number_alike,
    place_container,
    place_vessel_item,
    sell_container,
    storage_problems,
    store_purse,
)
from warbands.treasury.ledger import (
    BALANCES,
    NO_CONTEXT,
    Context,
    Reason,
    add_item,
    add_treasure,
    lock_held,
    lock_warbands,
    noting_entries,
    remove_item,
    reverse_entry,
)
from warbands.treasury.moves import (
    NOT_STORABLE,
    check_may_use,
    equip_stored_item,
    list_refusal,
    move_stored_item,
    move_treasure,
    release_warrior,
    store_pile,
    store_warrior_item,
)
from warbands.treasury.provenance import (
    CorrectionValue,
    Unsourced,
    correction_report,
    provenance_problems,
)
from warbands.treasury.queries import (
    CONTAINER_FIELDS,
    STORED_LIST,
    containers_of,
    held_containers,
    loose_pile,
    made,
    totals,
    totals_of,
    with_stored_items,
)

__all__ = [
    "BALANCES",
    "BUYABLE_CONTAINERS",
    "COMMON_CONTAINERS",
    "CONTAINER_FIELDS",
    "NOT_STORABLE",
    "NO_CONTEXT",
    "SELLABLE_CONTAINERS",
    "STORED_LIST",
    "Context",
    "CorrectionValue",
    "LedgerEntry",
    "LedgerMismatch",
    "Reason",
    "Unsourced",
    "add_item",
    "add_treasure",
    "buy_container",
    "capture_container",
    "check_may_use",
    "conservation_problems",
    "containers_of",
    "correction_report",
    "create_starting_chest",
    "equip_stored_item",
    "held_containers",
    "ledger_mismatches",
    "list_refusal",
    "lock_held",
    "lock_warbands",
    "loose_pile",
    "lose_container",
    "made",
    "move_stored_item",
    "move_treasure",
    "mustering_spent",
    "name_container",
    "noting_entries",
    "number_alike",
    "place_container",
    "place_vessel_item",
    "provenance_problems",
    "release_warrior",
    "remove_item",
    "reverse_entry",
    "sell_container",
    "settle_unstored_treasure",
    "storage_problems",
    "store_pile",
    "store_purse",
    "store_warrior_item",
    "totals",
    "totals_of",
    "with_stored_items",
]
