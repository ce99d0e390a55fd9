"""Exploration and trading (post-battle steps 3 to 9): treasure items that sell for a set
price, the Straggler's and the catacombs' exploration dice, kept gems, hired swords. The
reference data is loaded again for the new items."""

import django.db.models.deletion
from django.db import migrations, models

from warbands.reference import load_reference_data


def load(apps, schema_editor):
    load_reference_data(apps)


class Migration(migrations.Migration):
    dependencies = [
        ("battles", "0006_secret_dice"),
        ("warbands", "0013_pouch_of_a_held_hero"),
    ]

    operations = [
        migrations.AddField(
            model_name="item",
            name="sells_for",
            field=models.PositiveIntegerField(
                blank=True,
                help_text="What it sells for, when not half its price (treasure found exploring).",
                null=True,
            ),
        ),
        migrations.AddField(
            model_name="warband",
            name="catacombs_reroll",
            field=models.BooleanField(
                default=False,
                help_text="Entrance to the Catacombs (6×5): may re-roll one exploration die, for good.",
            ),
        ),
        migrations.AddField(
            model_name="warband",
            name="exploration_extra_dice",
            field=models.PositiveSmallIntegerField(
                default=0,
                help_text="The Straggler (4-4): at the next exploration roll one more die and discard one.",
            ),
        ),
        migrations.AddField(
            model_name="warrior",
            name="kept_gems",
            field=models.BooleanField(
                default=False, help_text="Kept the Jewelsmith's gems: +1 to his rarity rolls."
            ),
        ),
        migrations.AlterField(
            model_name="item",
            name="category",
            field=models.CharField(
                choices=[
                    ("hand_to_hand", "Hand-to-hand weapon"),
                    ("missile", "Missile weapon"),
                    ("blackpowder", "Blackpowder weapon"),
                    ("armour", "Armour"),
                    ("misc", "Miscellaneous"),
                    ("animal", "Animal"),
                    ("mutation", "Mutation"),
                    ("treasure", "Treasure"),
                ],
                max_length=20,
            ),
        ),
        migrations.CreateModel(
            name="HiredSword",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("name", models.CharField(max_length=100)),
                (
                    "kind",
                    models.CharField(
                        choices=[
                            ("hired_sword", "Hired sword"),
                            ("dramatis_persona", "Dramatis persona"),
                        ],
                        default="hired_sword",
                        max_length=20,
                    ),
                ),
                ("hire_fee", models.PositiveIntegerField(default=0)),
                ("upkeep", models.PositiveIntegerField(default=0)),
                (
                    "status",
                    models.CharField(
                        choices=[("active", "With the warband"), ("left", "Left")],
                        default="active",
                        max_length=10,
                    ),
                ),
                ("notes", models.CharField(blank=True, max_length=200)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "hired_after",
                    models.ForeignKey(
                        blank=True,
                        help_text="Hired in this battle's post-battle sequence: his first upkeep is due after the next one.",
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="battles.battle",
                    ),
                ),
                (
                    "warband",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="hired_swords",
                        to="warbands.warband",
                    ),
                ),
            ],
            options={
                "ordering": ["created_at", "pk"],
            },
        ),
        migrations.RunPython(load, migrations.RunPython.noop),
    ]
