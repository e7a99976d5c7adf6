"""The server's surface: the HTTP routes (``routes/``), their request schemas (``schemas``)
and answers (``answers``), what routes are given (``deps``), how errors are answered
(``handlers``), the websocket endpoint (``sockets``), the browser's files from memory
(``assets``) and the request log (``logs``). Routes are thin: they validate a request's
shape and hand it to the rooms below (``play``, ``coaching``)."""
