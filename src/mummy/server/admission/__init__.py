"""Admission control: what the server lets in, for HTTP and websockets alike (``limits``:
the limits, rate limiters, the addresses shunned for ignoring ``Retry-After``, and the
guard middleware that applies them before a route sees a request; ``declared``: the rate
limits as each route declares them beside its path)."""
