"""Games online: the game service (``service``: create, act, view), a game in memory
(``live``) and this process's copies of the games (``copies``, over ``cache``), seats and
tokens (``seating``), people's actions and who is told (``play``), the websockets' rooms
and outboxes (``hub``) and what goes on the wire (``wire``: views and their patches),
other processes' commits heard (``relay``), the bots that play seats (``bots``,
``botrunner``), daily challenges, boards and replays (``boards``, ``replays``), custom
maps (``custom_maps``) and the marks coaching leaves on a game (``marks``)."""
