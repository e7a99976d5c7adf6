"""On PostgreSQL, every entry written to a game's log, and a rematch claimed, is announced
to the other server processes (``NOTIFY mummy``), in the transaction that writes it.

Several server processes may serve the same games from one PostgreSQL (issue 16). Each
keeps copies of games in memory, and the websockets of a game may be open on any of them:
a process that did not write an entry learns of it here, reads the log after its copy's
version, and tells its own connections. A trigger rather than a statement of the server's:
the notice costs no round trip of its own, and it is sent by every writer, whatever wrote.

The payload is ``{game id} {version} {origin}``, plus `` rematch`` when a game's
rematch was claimed; the origin is the writing process's ``mummy.origin`` setting (each
server sets it on its connections, so that it can skip its own notices). Notices are
delivered when the transaction commits, in the order of the commits, and never for one
rolled back. SQLite serves one process: nothing to do there.

Revision ID: 0007
Revises: 0006
"""

from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

_FUNCTION = """
CREATE OR REPLACE FUNCTION mummy_notify() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    origin text := coalesce(current_setting('mummy.origin', true), '');
BEGIN
    IF TG_TABLE_NAME = 'actions' THEN
        PERFORM pg_notify('mummy', NEW.game_id || ' ' || NEW.seq || ' ' || origin);
    ELSE
        PERFORM pg_notify('mummy', NEW.id || ' ' || NEW.version || ' ' || origin || ' rematch');
    END IF;
    RETURN NULL;
END
$$
"""


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(_FUNCTION)
    op.execute("CREATE TRIGGER actions_notify AFTER INSERT ON actions FOR EACH ROW EXECUTE FUNCTION mummy_notify()")
    op.execute("CREATE TRIGGER games_rematch_notify AFTER UPDATE OF rematch ON games FOR EACH ROW "
               "WHEN (NEW.rematch IS DISTINCT FROM OLD.rematch) EXECUTE FUNCTION mummy_notify()")


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("DROP TRIGGER IF EXISTS games_rematch_notify ON games")
    op.execute("DROP TRIGGER IF EXISTS actions_notify ON actions")
    op.execute("DROP FUNCTION IF EXISTS mummy_notify()")
