"""Where the corpus of real tool schemas lives.

`../shared/schemas/` (beside the checkout) is the maintained original; CI runs on a clean
checkout that may not have it, so a byte-for-byte copy is kept in `tests/fixtures/schemas/`.
The original wins when present, so an updated corpus is picked up without a copy step.
"""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SHARED_SCHEMAS = REPO.parent / "shared" / "schemas"
VENDORED_SCHEMAS = REPO / "tests" / "fixtures" / "schemas"
SCHEMAS_DIR = SHARED_SCHEMAS if SHARED_SCHEMAS.is_dir() else VENDORED_SCHEMAS
