"""The ledger is append-only in the database too: a trigger refuses UPDATE and DELETE on it.

TRUNCATE is not affected, nor is the test suite's flush, which empties the tables with the
triggers switched off (tests/postgresql).
"""

from django.db import migrations

CREATE = """
CREATE FUNCTION warbands_ledger_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'ledger entries are append-only (% refused)', TG_OP
        USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER warbands_ledgerentry_append_only
    BEFORE UPDATE OR DELETE ON warbands_ledgerentry
    FOR EACH ROW EXECUTE FUNCTION warbands_ledger_append_only();
"""

DROP = """
DROP TRIGGER IF EXISTS warbands_ledgerentry_append_only ON warbands_ledgerentry;
DROP FUNCTION IF EXISTS warbands_ledger_append_only();
"""


class Migration(migrations.Migration):
    dependencies = [("warbands", "0006_starting_chests")]

    operations = [migrations.RunSQL(CREATE, DROP)]
