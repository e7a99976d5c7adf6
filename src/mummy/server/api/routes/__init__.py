"""The HTTP routes, one router per concern, assembled by ``create_app`` (``app``):

* ``pages``: the browser client's pages and the games' content for drawing them;
* ``games``: creating, viewing and playing games, their records and replays;
* ``boards``: the daily challenge and the leaderboards.

The websocket is in ``mummy.server.api.sockets``, beside the hub that keeps its connections.
Routes are thin: they validate the request's shape (``schemas``), read the seat token
from ``Authorization: Bearer TOKEN`` and reach the service through dependencies
(``deps``); a :class:`~mummy.server.errors.ServiceError` becomes a JSON error with its
status (``handlers``).
"""
