"""Hired swords' own skills and the Warlock's magic: the special skill
lists of the Troll Slayer, Elf Ranger, Imperial Assassin and Arabian Merchant
(``skills.json``), Lesser Magic (``spells.json``), and the catalogue again so each hired sword
is linked to his lists and the Warlock to Lesser Magic with two starting spells."""

from django.db import migrations

from warbands.reference import load_hired_sword_skills


def load(apps, schema_editor):
    load_hired_sword_skills(apps)


class Migration(migrations.Migration):
    dependencies = [
        ("warbands", "0027_hired_sword_types"),
    ]

    operations = [
        migrations.RunPython(load, migrations.RunPython.noop),
    ]
