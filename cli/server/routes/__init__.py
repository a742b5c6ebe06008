"""The HTTP routes, one `APIRouter` per subject; `app.create_app` includes them in this order.

- `play`: ``POST /v1/replay``, ``/v1/fair-hint``, ``/v1/analyze`` (what a player needs beyond exact hints);
- `service`: ``GET /healthz``, ``/v1/stats``;
- `deals`: ``GET /v1/deals/{code}``, ``/v1/deals/{code}/solution``, ``POST /v1/hint``;
- `curated`: ``GET /v1/curated``;
- `endgames`: ``GET /v1/endgames``, ``POST /v1/endgames/{game}``.

Each module's `router(...)` takes the running `Service` (and the app's `Contract` and shared
parameters where it needs them) and returns its routes; no route keeps state of its own beyond
the service's.
"""
