"""Migration warbands 0033: corrections made before requests existed stand as applied, and an
item such a correction added, still carried by the warrior it was given to, is marked as the
correction's (it then fetches nothing when sold); a bought item of the same name is not."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.helpers import mustered_duel, warriors
from warbands.models import Correction, Item, WarriorItem

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = ("warbands", "0032_item_trading_terms")


def migrate(target=None) -> None:
    """To ``target``, or forward to the latest migration of every app."""
    executor = MigrationExecutor(connection)
    executor.migrate([target] if target else executor.loader.graph.leaf_nodes())
    connection.close()  # no cached plans of the old columns


def test_items_that_corrections_added_are_marked_as_theirs(reference_data):
    duel = mustered_duel()
    reavers = duel["reavers"]
    champion = warriors(reavers)[1]
    halberd = Item.objects.get(key="halberd")
    bought = WarriorItem.objects.create(warrior=champion, item=halberd, price_paid=10)

    try:
        migrate(BEFORE)
        with connection.cursor() as cursor:
            cursor.execute(
                "INSERT INTO warbands_warrioritem (warrior_id, item_id, price_paid) "
                "VALUES (%s, %s, 0) RETURNING id",
                [champion.pk, halberd.pk],
            )
            given = cursor.fetchone()[0]
            cursor.execute(
                "INSERT INTO warbands_correction (warband_id, warrior_id, warrior_name, actor_id,"
                " kind, what, old_value, new_value, reason, created_at) VALUES (%s, %s, 'Brandt',"
                " %s, 'item_added', 'Equipment', '', 'Halberd', 'Old ruling', now()) RETURNING id",
                [reavers.pk, champion.pk, duel["organiser"].pk],
            )
            correction = cursor.fetchone()[0]
    finally:
        migrate()

    old = Correction.objects.get(pk=correction)
    assert (old.status, old.item) == (Correction.Status.APPLIED, halberd)
    assert WarriorItem.objects.get(pk=given).correction == old
    assert WarriorItem.objects.get(pk=bought.pk).correction is None
    assert WarriorItem.objects.get(pk=given).sale_price == 0
