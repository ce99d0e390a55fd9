"""Checksums of tables' rows in one query: the whole database's (``tests.helpers.fingerprint``)
and the warband lists' (``tests/conftest.py``). Apart from ``tests.helpers`` so that it stays
under 500 lines."""

from __future__ import annotations

from django.db import connection


def per_table_checksum_sql(tables: list[str]) -> str:
    """One query answering, for each of ``tables``, its name and a checksum of its rows: their
    number and the sum of their 64-bit hashes, which does not depend on their order (no sort,
    so the crawls can afford it before and after every request)."""
    rows = "count(*) || ':' || coalesce(sum(hashtextextended(t::text, 0)::numeric), 0)"
    return " UNION ALL ".join(f"SELECT '{t}' AS n, {rows} AS h FROM \"{t}\" t" for t in tables)


def checksum_sql(tables: list[str]) -> str:
    """One query answering one checksum of every row of ``tables`` (``per_table_checksum_sql``)."""
    parts = per_table_checksum_sql(tables)
    return f"SELECT md5(string_agg(n || h, '' ORDER BY n)) FROM ({parts}) x"


def checksum(sql: str) -> str:
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return cursor.fetchone()[0]


def table_checksums(tables: list[str]) -> dict[str, str]:
    """{table: checksum of its rows} for ``tables``, in one query."""
    with connection.cursor() as cursor:
        cursor.execute(per_table_checksum_sql(tables))
        return dict(cursor.fetchall())
