"""Containers bought in the post-battle sequence (steps 6 and 9) got no number until now: a
warband holding two or more of a kind, not named by the player, numbers them as
``warbands.treasury.number_alike`` does, after the numbers its kind used already."""

from django.db import migrations


def number_alike(apps, schema_editor):
    StorageContainer = apps.get_model("warbands", "StorageContainer")
    groups = {}
    for container in StorageContainer.objects.exclude(kind="loose").order_by("pk"):
        groups.setdefault((container.warband_id, container.kind), []).append(container)
    numbered = []
    for alike in groups.values():
        held = [c for c in alike if c.status == "held"]
        unnumbered = [c for c in held if not c.label and c.number is None]
        if len(held) < 2 or not unnumbered:
            continue
        number = max((c.number or 0 for c in alike), default=0)
        for container in unnumbered:
            number += 1
            container.number = number
        numbered += unnumbered
    StorageContainer.objects.bulk_update(numbered, ["number"], batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [("warbands", "0020_ledger_sold_container")]

    operations = [migrations.RunPython(number_alike, migrations.RunPython.noop)]
