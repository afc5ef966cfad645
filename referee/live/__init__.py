"""The live referee: games judged line by line as they are played, over HTTP (``referee serve``, docs/live.md).

- ``store``: the storage interface (``Store``) and its embedded implementation on SQLite (``SQLiteStore``).
- ``access``: host and seat tokens, and whose line a line is.
- ``tables``: the tables of a server (``TableService``): judged in memory by ``referee.Table``, kept in the store,
  watched by spectators; every operation of the contract, without HTTP.
- ``app``: the Starlette app (the routes, JSON errors, the event stream); ``openapi.json`` is its OpenAPI document.
- ``command``: the ``referee serve`` command (uvicorn).
"""
