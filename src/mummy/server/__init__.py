"""The game server: HTTP and websockets over a service layer over a repository.

``app`` builds the FastAPI application (routes and wire schemas only), ``service`` holds
the rules of play online (seats, tokens, versions, idempotent actions, bots, commitments)
and alone touches the database through ``models`` (SQLAlchemy 2) and ``db`` (engines,
Alembic migrations); ``games`` adapts each game's engine to one interface.
"""
