"""The bearer token of every API request with its user, as one named SQL statement
(PostgreSQL; see core.rows for why, and games.hot_reads for the other hot read).
Other databases keep the queryset in ``services.user_for_token``; ``accounts/tests/
test_hot_reads.py`` checks both find the same token and user."""

from __future__ import annotations

from functools import cache

from django.contrib.auth import get_user_model
from django.db import connection

from accounts.models import ApiToken
from core.rows import RowReader, column


class _TokenRead:
    def __init__(self) -> None:
        user_model = get_user_model()
        self.token = RowReader(ApiToken, "t")
        self.user = RowReader(user_model, "u")

        def field(name: str) -> str:
            return column(ApiToken, name)

        self.sql = (
            f"SELECT {self.token.columns()}, {self.user.columns()} "
            f'FROM "{ApiToken._meta.db_table}" t '
            f'JOIN "{user_model._meta.db_table}" u ON u."id" = t."{field("user")}" '
            f'WHERE t."{field("prefix")}" = %s AND t."{field("revoked")}" IS NULL '
            'ORDER BY t."id" LIMIT 1'
        )

    def __call__(self, prefix: str) -> ApiToken | None:
        with connection.cursor() as cursor:
            cursor.execute(self.sql, [prefix])
            row = cursor.fetchone()
        if row is None:
            return None
        token = self.token.load(row)
        token.user = self.user.load(row, self.token.width)
        return token


@cache
def _statement() -> _TokenRead:
    return _TokenRead()  # built at first use: the models' apps must be ready


def live_token(prefix: str) -> ApiToken | None:
    """The unrevoked token with this prefix, its user joined, or None."""
    return _statement()(prefix)
