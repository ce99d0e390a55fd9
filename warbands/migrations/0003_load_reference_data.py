"""Load the warband lists from warbands/data/ (see warbands/reference.py).

Warbands created before warband lists existed (the foundation's demo data) had no type: they
become Reikland Mercenaries being mustered, with the list's starting gold, so their owners can
hire a roster for them.
"""

from django.db import migrations

from warbands.reference import load_reference_data


def load(apps, schema_editor):
    load_reference_data(apps)
    WarbandType = apps.get_model("warbands", "WarbandType")
    Warband = apps.get_model("warbands", "Warband")
    untyped = Warband.objects.filter(warband_type__isnull=True)
    if untyped.exists():
        reikland = WarbandType.objects.get(key="reikland")
        untyped.update(warband_type=reikland, status="draft", gold_crowns=reikland.starting_gold)


class Migration(migrations.Migration):
    dependencies = [("warbands", "0002_rosters")]

    operations = [migrations.RunPython(load, migrations.RunPython.noop)]
