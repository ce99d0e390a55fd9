"""The Grade 1b and 1c hired swords: their own skill lists (``skills.json``), the spell
lists of their casters (Spells of the Djed'hi, Norse Runes, Funerary Rites, the Runesmith's
runes, Charms & Hexes, Prayers of Ulric in ``spells.json``) and the catalogue again, so the
new entries are loaded and linked to their lists."""

from django.db import migrations

from warbands.reference import load_hired_sword_skills


def load(apps, schema_editor):
    load_hired_sword_skills(apps)


class Migration(migrations.Migration):
    dependencies = [
        ("warbands", "0035_warband_type_grade"),
    ]

    operations = [
        migrations.RunPython(load, migrations.RunPython.noop),
    ]
