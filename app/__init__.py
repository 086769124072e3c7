"""Menagerie's web service: HTTP API, WebSockets, auth, persistence and realtime fan-out.

``app.main.create_app()`` builds the FastAPI application; ``menagerie serve`` runs it.
"""
