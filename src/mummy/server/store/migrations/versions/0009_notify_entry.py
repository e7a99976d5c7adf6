"""On PostgreSQL, a log entry's notice carries the entry itself, so that the other server
processes apply it without reading the log back.

Several server processes serve the same games from one PostgreSQL (issue 16), and a
game's two players may be on two of them. With the notices of migration 0007, the
process that did not write an entry read it back from the log (one query, from a worker
thread) before it could tell its connection: with 500 players across two processes, that
read and its thread were a third of a process's busy time, and most of the time before
the other player saw a move. The entry is small (its seat, notation, client id and
answer, a few hundred bytes), and the notice has room for it.

The payload is ``{game id} {version} {origin} e:{entry}``, where ``{entry}`` is the JSON
object of the entry's ``seat``, ``text``, ``affects``, ``client_id`` and ``result``, in
base64 (no spaces: a process of migration 0007's kind reads the fourth field as "not a
rematch" and ignores the rest). An entry too large for a notice (PostgreSQL takes fewer
than 8000 bytes) is announced as before, and read from the log. Rematch notices are
unchanged.

Revision ID: 0009
Revises: 0008
"""

from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

_FUNCTION = """
CREATE OR REPLACE FUNCTION mummy_notify() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    origin text := coalesce(current_setting('mummy.origin', true), '');
    plain text;
    carried text;
BEGIN
    IF TG_TABLE_NAME = 'actions' THEN
        plain := NEW.game_id || ' ' || NEW.seq || ' ' || origin;
        carried := plain || ' e:' || translate(encode(convert_to(json_build_object(
            'seat', NEW.seat, 'text', NEW.text, 'affects', NEW.affects,
            'client_id', NEW.client_id, 'result', NEW.result)::text, 'UTF8'), 'base64'), E'\\n', '');
        PERFORM pg_notify('mummy', CASE WHEN octet_length(carried) < 8000 THEN carried ELSE plain END);
    ELSE
        PERFORM pg_notify('mummy', NEW.id || ' ' || NEW.version || ' ' || origin || ' rematch');
    END IF;
    RETURN NULL;
END
$$
"""

#: Migration 0007's function, put back by a downgrade.
_PLAIN = """
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
    if op.get_bind().dialect.name == "postgresql":
        op.execute(_FUNCTION)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(_PLAIN)
