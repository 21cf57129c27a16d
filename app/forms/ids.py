"""Whether a `format: uuid` field asks for a *new* id (offer to generate one) or names an existing one.

A "New" button beside `page_id` invites a person to make up an id that matches nothing, and the call
fails. Most uuid fields name something that exists (`pageId`, `user_id`, "The ID of the target"), so
the rule is: generate only when the field says the id is new; when in doubt, no button.

1. The title or description says it names something existing ("existing", "id of", "identifier
   of/for", "refers to", "returned by", "from list/get/search"): no button.
2. Else the name or description says it is new: a button. Name words "new", "idempotency", "nonce",
   "request", "correlation", "trace", "dedup(lication)" (`request_id`, `newId`); description words
   "new id/uuid/identifier", "idempotency", "generate(d)", "random", "unique for this request/call".
3. Else no button: `page_id`, `skuId`, `id` are plain lines with the UUID pattern as a hint.
"""

from __future__ import annotations

import re

from app.forms.fields import Field
from app.forms.values import humanise

_NEW_NAME_WORDS = frozenset(
    {"new", "idempotency", "nonce", "request", "correlation", "trace", "dedup", "deduplication"}
)
_EXISTING_TEXT = re.compile(
    r"\bexisting\b|\bid of\b|\bidentifier (?:of|for)\b|\brefers? to\b|\breturned by\b"
    r"|\bfrom (?:the )?(?:list|get|search)",
    re.IGNORECASE,
)
_NEW_TEXT = re.compile(
    r"\bnew (?:id|uuid|identifier)\b|\bidempoten|\bgenerat|\brandom\b"
    r"|\bunique (?:\w+ )?for (?:this|each|every) (?:request|call)",
    re.IGNORECASE,
)


def asks_for_new_id(field: Field) -> bool:
    """Whether the form should offer to generate a fresh UUID for `field` (see the module's rule)."""
    words = humanise(field.name or "").lower().split()
    text = f"{field.label}. {field.help}"
    if _EXISTING_TEXT.search(text):
        return False
    return any(w in _NEW_NAME_WORDS for w in words) or _NEW_TEXT.search(text) is not None
