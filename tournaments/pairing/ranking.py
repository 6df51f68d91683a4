"""Initial ranking: who gets which starting rank."""

from __future__ import annotations

from collections.abc import Iterable

from tournaments.pairing.model import PlayerEntry


def assign_starting_ranks(entrants: Iterable[tuple[str, int]]) -> list[PlayerEntry]:
    """Give ``(name, rating)`` entrants starting ranks 1..n.

    Higher rating first; equal ratings by name (case-insensitive, then exact,
    so the order never depends on the input order except for true duplicates,
    which keep their input order). FIDE also orders by title; the platform has
    no titles, so rating and name are the whole initial order (C.04.2).

    >>> [(p.id, p.name) for p in assign_starting_ranks([("bea", 1500), ("Al", 1500), ("Cy", 1700)])]
    [(1, 'Cy'), (2, 'Al'), (3, 'bea')]
    """
    ordered = sorted(entrants, key=lambda e: (-e[1], e[0].casefold(), e[0]))
    return [
        PlayerEntry(id=rank, name=name, rating=rating)
        for rank, (name, rating) in enumerate(ordered, start=1)
    ]
