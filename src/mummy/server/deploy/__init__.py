"""Running the server: ``mummy serve`` on uvicorn, with ``--workers N`` processes on one
port started again when one dies (``supervisor``), and a server in a process of its own
for tests and benchmarks (``process``)."""
