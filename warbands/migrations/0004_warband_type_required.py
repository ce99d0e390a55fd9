import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("warbands", "0003_load_reference_data")]

    operations = [
        migrations.AlterField(
            model_name="warband",
            name="warband_type",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="warbands.warbandtype",
            ),
        ),
    ]
