"""The database itself refuses UPDATE and DELETE on the event log, on PostgreSQL and SQLite.

TRUNCATE is left to the table's owner (the application role should not own it in
production); the hash chain catches any change that gets around these triggers.
"""

from django.db import migrations

POSTGRES_INSTALL = """
CREATE OR REPLACE FUNCTION tables_event_log_refuse_change() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'the table event log is append-only: % refused', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END
$$ LANGUAGE plpgsql;
CREATE TRIGGER tables_tableevent_append_only
    BEFORE UPDATE OR DELETE ON tables_tableevent
    FOR EACH ROW EXECUTE FUNCTION tables_event_log_refuse_change();
"""
POSTGRES_REMOVE = """
DROP TRIGGER IF EXISTS tables_tableevent_append_only ON tables_tableevent;
DROP FUNCTION IF EXISTS tables_event_log_refuse_change();
"""
SQLITE_INSTALL = (
    """CREATE TRIGGER tables_tableevent_no_update BEFORE UPDATE ON tables_tableevent
       BEGIN SELECT RAISE(ABORT, 'the table event log is append-only: UPDATE refused'); END""",
    """CREATE TRIGGER tables_tableevent_no_delete BEFORE DELETE ON tables_tableevent
       BEGIN SELECT RAISE(ABORT, 'the table event log is append-only: DELETE refused'); END""",
)
SQLITE_REMOVE = (
    "DROP TRIGGER IF EXISTS tables_tableevent_no_update",
    "DROP TRIGGER IF EXISTS tables_tableevent_no_delete",
)


def install(apps, schema_editor):
    statements = _statements(schema_editor.connection.vendor, install=True)
    for statement in statements:
        schema_editor.execute(statement, None)


def remove(apps, schema_editor):
    for statement in _statements(schema_editor.connection.vendor, install=False):
        schema_editor.execute(statement, None)


def _statements(vendor, *, install):
    if vendor == "postgresql":
        return [POSTGRES_INSTALL if install else POSTGRES_REMOVE]
    if vendor == "sqlite":
        return list(SQLITE_INSTALL if install else SQLITE_REMOVE)
    raise RuntimeError(f"The event log's append-only guard has no recipe for {vendor}.")


class Migration(migrations.Migration):
    dependencies = [("tables", "0002_floor_and_event_log")]
    operations = [migrations.RunPython(install, remove)]
