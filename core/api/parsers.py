"""The API's JSON parser: DRF's, refusing what would otherwise fail later as a 500.

* nesting beyond Python's recursion limit (RecursionError inside the decoder);
* integers outside a signed 64-bit column (OverflowError at the database, or Python's
  integer-string limit for thousands of digits);
* strings with lone surrogates (``"\\ud800"``): no database or UTF-8 answer can hold them;
* NUL characters in strings: PostgreSQL text refuses them.
"""

from __future__ import annotations

import codecs
import json
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser as DRFJSONParser

INT64 = 2**63
_MAX_DIGITS = 20  # len(str(INT64)) + a sign: longer cannot fit, whatever the digits


def _integer(text: str) -> int:
    if len(text) > _MAX_DIGITS or not -INT64 <= (value := int(text)) < INT64:
        raise ParseError(_("A number in the body is too large (at most 64-bit integers)."))
    return value


def _constant(name: str) -> float:
    raise ParseError(_("%(value)s is not a JSON number.") % {"value": name})


def _check_strings(data: Any) -> None:
    """Walk the parsed body without recursion (it may be deep) and check every string."""
    pending = [data]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            texts = [item]
        elif isinstance(item, dict):
            texts = list(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
            continue
        else:
            continue
        for text in texts:
            if "\x00" in text:
                raise ParseError(_("A string in the body contains a NUL character."))
            try:
                text.encode("utf-8")
            except UnicodeEncodeError:
                raise ParseError(
                    _("A string in the body is not valid Unicode (a lone surrogate).")
                ) from None


class JSONParser(DRFJSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        parser_context = parser_context or {}
        encoding = parser_context.get("encoding", settings.DEFAULT_CHARSET)
        try:
            text = codecs.getreader(encoding)(stream).read()
            data = json.loads(text, parse_int=_integer, parse_constant=_constant)
        except RecursionError:
            raise ParseError(_("The JSON body is nested too deeply.")) from None
        except (ValueError, UnicodeDecodeError) as exc:
            raise ParseError(_("JSON parse error - %(reason)s") % {"reason": exc}) from None
        _check_strings(data)
        return data
