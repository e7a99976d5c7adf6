"""The game server: HTTP and websockets over a service layer over a repository.

``app`` assembles the FastAPI application from routers (``routes/``: pages, games,
boards; ``sockets``: the websockets, beside ``hub``, which keeps their connections), with
dependencies (``deps``) that reach the service, the hub and people's actions (``play``)
on ``app.state``. ``service`` holds the flow of play online; ``live`` the rules that read
a game in memory (seats, tokens, versions, views); ``boards`` and ``replays`` what is
shown of finished games; ``repository`` every SQL statement over ``models`` (SQLAlchemy
2) and ``db`` (engines, Alembic migrations); ``writer`` in which thread an action is
committed. The games themselves are ``mummy.games.KINDS``.
"""
