"""The multiplayer web server: FastAPI app, rooms, WebSocket protocol, storage and the browser UI.

Start it with ``sushigo serve``; build it in code with :func:`sushigo.server.app.create_app`.
"""
