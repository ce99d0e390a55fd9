"""The hired-sword catalogue: ``HiredSwordType`` with a warrior type of
no warband list for each, his own rating value, a hired sword's link on ``Warrior``, then the
catalogue loaded from ``warbands/data/hired_swords.json``."""

import django.db.models.deletion
from django.db import migrations, models

from warbands.reference import load_hired_swords


def load(apps, schema_editor):
    load_hired_swords(apps)


class Migration(migrations.Migration):
    dependencies = [
        ("warbands", "0025_item_restrictions"),
        ("warbands", "0026_rule_summaries"),
    ]

    operations = [
        migrations.AddField(
            model_name="warriortype",
            name="rating_value",
            field=models.PositiveSmallIntegerField(
                blank=True,
                help_text="Hired swords: rated this + experience instead of 5 (or 20 when large).",
                null=True,
            ),
        ),
        migrations.CreateModel(
            name="HiredSwordType",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("key", models.SlugField(max_length=60, unique=True)),
                ("name", models.CharField(max_length=100)),
                ("grade", models.CharField(blank=True, max_length=10)),
                ("hire_fee", models.PositiveIntegerField()),
                ("upkeep", models.PositiveIntegerField()),
                (
                    "hired_by",
                    models.JSONField(
                        blank=True,
                        default=dict,
                        help_text='Families: {"only": [...]} or {"except": [...]}.',
                    ),
                ),
                (
                    "upkeep_with_race",
                    models.JSONField(
                        blank=True,
                        help_text='A dearer upkeep: {"race": "dwarf", "upkeep": 40}.',
                        null=True,
                    ),
                ),
                (
                    "never_with",
                    models.JSONField(
                        blank=True,
                        default=list,
                        help_text="Keys of hired swords he will not serve beside.",
                    ),
                ),
                ("equipment", models.JSONField(blank=True, default=list)),
                ("special_rules", models.JSONField(blank=True, default=list)),
                (
                    "warrior_type",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="hired_sword",
                        to="warbands.warriortype",
                    ),
                ),
            ],
            options={
                "ordering": ["name"],
            },
        ),
        migrations.AddField(
            model_name="warrior",
            name="hired_sword",
            field=models.ForeignKey(
                blank=True,
                help_text="A hired sword: not counted in the warband's size; upkeep after each battle.",
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="warbands.hiredswordtype",
            ),
        ),
        migrations.RunPython(load, migrations.RunPython.noop),
    ]
