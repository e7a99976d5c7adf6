"""A batch of writes goes to the database in the order of its entries' places (issue 16).

Two processes writing batches on the same games lock the same rows (an entry's key in
the log, its game's row); in different orders each may wait for a row the other holds,
and PostgreSQL breaks such a deadlock only after a second, failing a batch. With one
order in every process (game id, then version) there is nothing to deadlock on.
"""

from __future__ import annotations

import asyncio
import threading

from sqlalchemy import Connection, create_engine

from mummy.server.store.writer import Writer
from mummy.server.store.writes import Write


def _write(game_id: str, seq: int) -> Write:
    return Write(row={"game_id": game_id, "seq": seq}, stamp={})


def test_a_batch_is_written_in_the_order_of_its_places() -> None:
    written: list[list[tuple[str, int]]] = []

    def execute(conn: Connection, batch: list[Write]) -> None:
        written.append([w.place for w in batch])

    engine = create_engine("sqlite://")
    writer = Writer(engine, threading.Lock(), execute)
    # Submitted as one process happens to have them: games and versions in any order.
    batch = [_write("g2", 7), _write("g1", 4), _write("g2", 6), _write("g1", 3)]

    async def one_turn() -> None:
        for write in batch:
            writer.write_soon(write)  # committed together at the loop's next turn
        await asyncio.gather(*(asyncio.wrap_future(w.done) for w in batch))

    try:
        asyncio.run(one_turn())
    finally:
        writer.close()
        engine.dispose()
    assert written == [[("g1", 3), ("g1", 4), ("g2", 6), ("g2", 7)]]
    assert all(w.done.result() is None for w in batch)
