"""A form token keeps its answer as the bytes that were sent: text could not hold a NUL.

The column changes type with ``convert_to``, which keeps every stored answer exactly (Django's
own ``::bytea`` cast would read backslashes in the HTML as escapes). Going back, an answer that
holds a NUL cannot be text again: those tokens are dropped (a token only stops a form from
being applied twice, and lives a week)."""

from django.db import migrations, models

TO_BYTES = (
    "ALTER TABLE core_formtoken ALTER COLUMN content TYPE bytea USING convert_to(content, 'UTF8')"
)
TO_TEXT = [
    "DELETE FROM core_formtoken WHERE position('\\x00'::bytea IN content) > 0",
    "ALTER TABLE core_formtoken ALTER COLUMN content TYPE text USING convert_from(content, 'UTF8')",
]


class Migration(migrations.Migration):
    dependencies = [("core", "0001_initial")]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="formtoken",
                    name="content",
                    field=models.BinaryField(blank=True, default=b""),
                )
            ],
            database_operations=[migrations.RunSQL(sql=TO_BYTES, reverse_sql=TO_TEXT)],
        )
    ]
