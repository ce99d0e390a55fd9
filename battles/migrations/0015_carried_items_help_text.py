"""The help text of an organiser's proposed declaration says what it is, not where it is
handled."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("battles", "0014_live_changes"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterField(
            model_name="participant",
            name="declaration_proposed_by",
            field=models.ForeignKey(
                blank=True,
                help_text="An organiser who declared the carried items for the warband's player: they wait for the player's confirmation.",
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
    ]
