"""The game server: HTTP and websockets over a service layer over a repository.

``app`` builds the FastAPI application (routes only), ``service`` holds the rules of
play online (seats, tokens, versions, idempotent actions, bots, commitments) and talks
to ``repository``, which alone touches the database (SQLAlchemy 2, migrated by Alembic).
"""
