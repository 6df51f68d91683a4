"""Small text helpers shared by the parsers (private to the engine).

RULES.md §6 and §7 write notation in ASCII: Python's ``str.upper()``,
``str.strip()`` and ``str.split()`` know Unicode (``"ſ".upper() == "S"``,
``"\\u00a0".isspace()``), so the parsers use these helpers instead.

>>> non_ascii("pa\\u017fs")
"non-ASCII character 'ſ' (U+017F)"
>>> non_ascii("D2-D4") is None
True
>>> shown("D" + "9" * 100)
"'D999999999999999999999999999999999999999'... (101 characters)"
>>> ascii_upper("d5"), ascii_upper("\\u01313")
('D5', 'ı3')
"""

from __future__ import annotations

__all__ = [
    "ASCII_SPACE",
    "ascii_upper",
    "decimal",
    "non_ascii",
    "shown",
    "shown_number",
    "shown_value",
]

#: the whitespace notation may contain: what ``str.isspace()`` says of ASCII,
#: less the information separators U+001C-U+001F
ASCII_SPACE = " \t\n\r\x0b\x0c"

#: inputs longer than this are shortened in error messages
SHOWN_LIMIT = 80


def shown(text: str, limit: int = SHOWN_LIMIT) -> str:
    """``repr(text)``, or for a long text the repr of its start and its length."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[: limit // 2]!r}... ({len(text)} characters)"


def shown_number(value: object) -> str:
    """A budget (seconds, nodes) as an error message shows it: the number, or what
    it is when it is not a number or too long to show (``repr`` refuses integers of
    more than 4300 digits).

    >>> shown_number(0.5), shown_number(10**400), shown_number(None)
    ('0.5', 'an integer of 1329 bits', 'a NoneType')
    """
    if isinstance(value, float) or (isinstance(value, int) and abs(value) < 10**18):
        return repr(value)
    if isinstance(value, int):
        return f"an integer of {value.bit_length()} bits"
    return f"a {type(value).__name__}"


def shown_value(value: object, limit: int = SHOWN_LIMIT) -> str:
    """Any input as an error message shows it: a text by :func:`shown`, a number by
    :func:`shown_number`, anything else by its repr, shortened.

    >>> shown_value("D3"), shown_value(None), shown_value(10**5000)
    ("'D3'", 'None', 'an integer of 16610 bits')
    >>> shown_value(list(range(100)))
    '[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 1... (390 characters)'
    """
    if isinstance(value, str):
        return shown(value, limit)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return shown_number(value)
    text = repr(value)
    return text if len(text) <= limit else f"{text[: limit // 2]}... ({len(text)} characters)"


def non_ascii(text: str) -> str | None:
    """A description of the first non-ASCII character of ``text``, or None if all are ASCII."""
    if text.isascii():
        return None
    ch = next(c for c in text if not c.isascii())
    what = "whitespace" if ch.isspace() else "character"
    return f"non-ASCII {what} {ch!r} (U+{ord(ch):04X})"


def ascii_upper(name: str) -> str:
    """``name.upper()`` for ASCII text; other text unchanged (it never names a cell)."""
    return name.upper() if name.isascii() else name


def decimal(digits: str, max_digits: int) -> int | None:
    """The value of a string of ASCII digits, or None if it needs more than
    ``max_digits`` digits (leading zeros aside).

    Python refuses to convert more than 4300 digits (a bare ValueError); the
    parsers call this first and report a number that is too long themselves.

    >>> decimal("007", 2), decimal("100", 2), decimal("9" * 5000, 9)
    (7, None, None)
    """
    value = digits.lstrip("0")
    if len(value) > max_digits:
        return None
    return int(value) if value else 0
