"""Every warband gets its free Treasure Chest (Mayhem in Mordheim: "Each warband starts the
campaign with a treasure chest for free").

What the rosters feature kept as a finished warband's starting treasury (``gold_crowns``) moves
into that chest with a "starting treasury" ledger entry; gold beyond the chest's 100 gc goes to
the warband's pile of unstored treasure, where the treasury page shows it to the owner to store
before the end of the next post-battle sequence. Warbands still being mustered keep their purse.
"""

from django.db import migrations

CHEST_GOLD = 100


def forwards(apps, schema_editor):
    Warband = apps.get_model("warbands", "Warband")
    StorageContainer = apps.get_model("warbands", "StorageContainer")
    LedgerEntry = apps.get_model("warbands", "LedgerEntry")
    for warband in Warband.objects.all():
        chest = StorageContainer.objects.filter(warband=warband, kind="treasure_chest").first()
        if chest is None:
            chest = StorageContainer.objects.create(warband=warband, kind="treasure_chest")
        if warband.status == "draft" or not warband.gold_crowns:
            continue
        in_chest = min(warband.gold_crowns, CHEST_GOLD - chest.gold_crowns)
        rest = warband.gold_crowns - in_chest
        moves = [(chest, in_chest)]
        if rest:
            loose, _ = StorageContainer.objects.get_or_create(warband=warband, kind="loose")
            moves.append((loose, rest))
        for container, amount in moves:
            if not amount:
                continue
            container.gold_crowns += amount
            container.save(update_fields=["gold_crowns"])
            LedgerEntry.objects.create(
                warband=warband,
                container=container,
                kind="gold",
                amount=amount,
                reason="starting_treasury",
                note="Gold left after mustering",
            )
        warband.gold_crowns = 0
        warband.save(update_fields=["gold_crowns"])


class Migration(migrations.Migration):
    dependencies = [("warbands", "0005_treasury")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
