"""The web page at ``/``, the API docs without internet, and CORS: mounted on the app by `install_page`.

The page is plain files shipped inside the package (``static/``: HTML, one CSS file, three JS
modules; no build step, no CDN) and talks to the service only through the public ``/v1`` API.
``/docs`` (Swagger UI) and ``/redoc`` load their scripts from this server too, from the files
of the `fastapi-offline` package, so both work on a machine with no internet.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Sequence

from fastapi import FastAPI, Request
from fastapi.middleware.cors import CORSMiddleware
from fastapi.openapi.docs import (
    get_redoc_html,
    get_swagger_ui_html,
    get_swagger_ui_oauth2_redirect_html,
)
from fastapi.responses import FileResponse, HTMLResponse
from fastapi.staticfiles import StaticFiles

STATIC = Path(__file__).parent / "static"


def docs_assets() -> Path | None:
    """The folder holding swagger-ui-bundle.js, swagger-ui.css and redoc.standalone.js, if installed."""
    try:
        folder = Path(str(resources.files("fastapi_offline") / "static"))
    except ModuleNotFoundError:
        return None
    return folder if (folder / "swagger-ui-bundle.js").is_file() else None


def install_page(app: FastAPI, cors_origins: Sequence[str] = ()) -> None:
    """Serve the page at ``/`` (its files under ``/page/``), ``/docs`` and ``/redoc`` offline, and
    allow cross-origin requests from `cors_origins` (none by default; ``*`` for any).

    The app must be created with ``docs_url=None, redoc_url=None`` (these routes replace them).
    """
    app.mount("/page", StaticFiles(directory=STATIC), name="page")

    @app.get("/", include_in_schema=False)
    async def page() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    assets = docs_assets()
    if assets is not None:
        app.mount("/docs-assets", StaticFiles(directory=assets), name="docs-assets")
    openapi_url = app.openapi_url or "/openapi.json"

    @app.get("/docs", include_in_schema=False)
    async def swagger(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "")
        if assets is None:
            return _no_assets(root + openapi_url)
        return get_swagger_ui_html(
            openapi_url=root + openapi_url, title=f"{app.title}: API",
            oauth2_redirect_url=root + "/docs/oauth2-redirect",
            swagger_js_url=f"{root}/docs-assets/swagger-ui-bundle.js",
            swagger_css_url=f"{root}/docs-assets/swagger-ui.css",
            swagger_favicon_url=f"{root}/docs-assets/favicon.png",
        )

    @app.get("/docs/oauth2-redirect", include_in_schema=False)
    async def swagger_redirect() -> HTMLResponse:
        return get_swagger_ui_oauth2_redirect_html()

    @app.get("/redoc", include_in_schema=False)
    async def redoc(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "")
        if assets is None:
            return _no_assets(root + openapi_url)
        return get_redoc_html(openapi_url=root + openapi_url, title=f"{app.title}: API",
                              redoc_js_url=f"{root}/docs-assets/redoc.standalone.js",
                              redoc_favicon_url=f"{root}/docs-assets/favicon.png", with_google_fonts=False)

    if cors_origins:
        app.add_middleware(
            CORSMiddleware, allow_origins=list(cors_origins), allow_methods=["GET", "POST"],
            allow_headers=["content-type"], expose_headers=["Retry-After"], max_age=600,
        )


def _no_assets(schema: str) -> HTMLResponse:
    return HTMLResponse(
        f"<!doctype html><title>API docs</title><p>The API viewer's files are not installed "
        f"(<code>pip install fastapi-offline</code>); the OpenAPI schema is at <a href='{schema}'>{schema}</a>.",
        status_code=503,
    )
