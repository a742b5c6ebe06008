"""The deal-code service: an HTTP JSON API (FastAPI on uvicorn) on the same library and store as the CLI.

Optional: needs the ``server`` extra (``pip install 'halfmoon-solver[server]'``). `create_app`
builds the application for a `ServiceConfig`; ``halfmoon serve`` runs it. docs/http.md
describes the endpoints, limits and error shapes.
"""

from halfmoon import InputError

from .app import create_app
from .config import ServiceConfig

__all__ = ["ServiceConfig", "InputError", "create_app"]
