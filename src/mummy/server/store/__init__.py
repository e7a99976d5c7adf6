"""The database: engines and migrations (``db``, ``migrations/``), the tables
(``models``), every SQL statement (``repository``), how a batch of actions is committed
(``writer``), and the leases that say which process moves a game's bots (``leases``)."""
