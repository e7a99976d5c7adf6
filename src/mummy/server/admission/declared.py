"""The rate limits as the routes declare them: each route that a limit guards says which,
beside its path (``openapi_extra=rate_limit("games")``), and the guard (``limits.Guard``)
reads the app's routes for them once, instead of keeping a table of paths of its own.
"""

from __future__ import annotations

import re
from typing import Any, Final

from starlette.routing import compile_path

#: The kinds of limit, and what each counts, in the words of a refusal.
NAMED: Final = {"games": "new games", "actions": "actions", "previews": "previews", "prints": "sheets to print",
                  "sockets": "websocket connections"}


#: The key of a route's ``openapi_extra`` that names the kind of limit its requests count
#: against (:func:`rate_limit`), and the key that says its route decides whether one counts.
RATE_LIMIT: Final = "x-rate-limit"
CHARGED: Final = "x-rate-limit-charged-by-route"


def rate_limit(kind: str, by_route: bool = False) -> dict[str, Any]:
    """What a route declares beside its path, ``openapi_extra=rate_limit("games")``: its
    requests count against the limit ``kind`` (one of :data:`NAMED`), checked by the
    guard before the request is parsed; ``by_route``: the route decides whether a request
    counts (:class:`Charge`: a daily challenge counts only when it creates a game). The
    declaration is in ``/openapi.json`` too, where a client reads which limit applies."""
    if kind not in NAMED:
        raise ValueError(f"no limit called {kind!r}; limits: {', '.join(NAMED)}")
    return {RATE_LIMIT: kind, CHARGED: by_route}


#: Rate-limited requests: (method, the route's path pattern, the kind of limit).
Rated = list[tuple[str, re.Pattern[str], str]]


def rated_routes(app: Any) -> tuple[Rated, Rated]:
    """The app's rate-limited requests as the routes declare them (:func:`rate_limit`):
    (method, path, kind) counted by the guard, and those whose route decides."""
    guarded: Rated = []
    charged: Rated = []
    for route in _routes(getattr(app, "routes", ())):
        extra = getattr(route, "openapi_extra", None) or {}
        if RATE_LIMIT in extra and route.path:
            pattern = compile_path(route.path)[0]
            rows = [(method, pattern, extra[RATE_LIMIT]) for method in sorted(route.methods or ())]
            (charged if extra.get(CHARGED) else guarded).extend(rows)
    return guarded, charged


def _routes(routes: Any) -> Any:
    """Every route with its whole path, the included routers' too (FastAPI keeps those in
    router objects of their own since 0.160: ``iter_route_contexts`` walks them)."""
    try:
        from fastapi.routing import iter_route_contexts
    except ImportError:  # an older FastAPI: the app's routes are its routes
        return routes
    return iter_route_contexts(routes)
