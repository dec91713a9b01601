"""The database round trips of one dealer request, on PostgreSQL, listed statement by statement:
a write (a Siete y Medio command) and a read (the table's live state), each with the process's
state cache warm (the request lands on the worker that served the table last) and cold (it
lands on another: the state comes from the stored snapshot and its tail).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/h_snapshots_b \\
        .venv/bin/python bench/queries_per_request.py --aged-prefix aged

Round trips: BEGIN travels with the table lock, and the policy's reads behind it, in one
pipeline (tables/services/append_statements.py); the lock and the write run on the raw
psycopg cursor and are logged beside Django's own statements.

Requests go through Django's test client with the dealer's real token in the header, so
authentication, permissions, the service and the commit are all counted.
"""

from __future__ import annotations

import argparse
import itertools
import re
import uuid
from typing import Any

from _django import setup


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--aged-prefix", help="also a table seeded by bench/seed_history.py")
    args = parser.parse_args()
    setup(require_postgres=True)
    from bench_floor import PASSWORD, SIETE_STAKE, ensure_floor
    from rest_framework.test import APIClient

    tables = ensure_floor(f"queries-{uuid.uuid4().hex[:6]}", 1, log=lambda _: None)
    if args.aged_prefix:
        tables += ensure_floor(args.aged_prefix, 1, log=lambda _: None)
    for table in tables:
        client = APIClient()
        signed_in = client.post(
            "/api/auth/token", {"username": table.dealer, "password": PASSWORD}, format="json"
        )
        client.credentials(HTTP_AUTHORIZATION=f"Token {signed_in.json()['token']}")
        base = f"/api/tables/{table.table_id}"
        client.post(f"{base}/siete/start-round", {}, format="json")  # refused if one is open
        taken = {box["box"] for box in client.get(base).json()["state"]["boxes"]}
        free = [box for box in range(1, 7) if box not in taken][:3]
        assert len(free) == 3, "play the table's round to its end first"
        print(f"== {table.name} ({table.head_seq} prior events)")
        for box in free:
            cold = box == free[1]
            wager = {"box": box, "amount": SIETE_STAKE}
            label = f"write, cache {'cold' if cold else 'warm'}"
            show(label, client, "post", f"{base}/siete/place-wager", wager, cold)
        show("read, cache warm", client, "get", base, None, False)
        show("read, cache cold", client, "get", base, None, True)


def show(label: str, client: Any, method: str, path: str, body: Any, cold: bool) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tables.services import engine_state

    if cold:
        engine_state.forget()
    with CaptureQueriesContext(connection) as queries:
        response = getattr(client, method)(path, body, format="json")
    assert response.status_code < 300, response.content
    statements = [query["sql"] for query in queries]
    # psycopg sends BEGIN with the next statement; in the lock's pipeline it costs no trip.
    trips = len(statements) - sum(
        sql == "BEGIN" and "same round trip" in following
        for sql, following in itertools.pairwise(statements)
    )
    print(f"{label}: {trips} round trips ({len(statements)} logged statements)")
    for sql in statements:
        print(f"    {summary(sql)}")


def summary(sql: str) -> str:
    note = re.search(r"-- and (\d+) more", sql)
    sql = re.sub(r"\s+", " ", sql)
    if sql.startswith("SELECT"):
        tables = re.findall(r'FROM "?(\w+)"?', sql) + re.findall(r'JOIN "?(\w+)"?', sql)
        pipelined = f"  + {note.group(1)} reads in the same round trip" if note else ""
        return f"SELECT ... {', '.join(dict.fromkeys(tables))}{pipelined}"
    return sql[:90]


if __name__ == "__main__":
    main()
