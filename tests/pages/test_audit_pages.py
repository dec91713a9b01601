"""The auditor's page: who gets it, the downloads and their hashes, the chain, a round."""

from __future__ import annotations

import hashlib
import io

import pytest
from django.contrib.auth.models import User
from django.test import Client
from pypdf import PdfReader

from reports.services.storing import produce_report
from tests.pages.supervision_floor import (
    LiveFloor,
    live_floor,
    play_rounds,
    start_a_round_with_a_face_down_card,
)
from tests.reports.custody_floor import Floor, past_shift

pytestmark = pytest.mark.django_db


@pytest.fixture
def floor(
    dealer_dora: User, pit_boss_paula: User, pit_boss_pedro: User, cashier_carmen: User
) -> LiveFloor:
    return live_floor(dealer_dora, pit_boss_paula, pit_boss_pedro, cashier_carmen, opened=False)


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_only_an_auditor_gets_the_audit_desk(floor: LiveFloor, auditor_alba: User) -> None:
    for user in (floor.dealer, floor.pit_boss, floor.cashier):
        for path in ("/audit/", f"/audit/tables/{floor.table.pk}/verify/"):
            assert signed_in(user).get(path).status_code == 403, (user, path)
    assert signed_in(auditor_alba).get("/audit/").status_code == 200


def test_the_auditor_downloads_a_pdf_whose_hash_the_page_shows(
    floor: LiveFloor, auditor_alba: User
) -> None:
    key = past_shift(
        Floor(floor.table, floor.dealer, floor.pit_boss, floor.other_pit_boss, floor.cashier)
    )
    report = produce_report("table_shift", key, table=floor.refresh())
    client = signed_in(auditor_alba)
    page = client.get("/audit/", {"gaming_day": key.gaming_day.isoformat(), "shift": key.shift})
    rendering = report.renderings.get(format="pdf")
    pdf = client.get(f"/audit/renderings/{rendering.pk}/")
    assert pdf.status_code == 200
    assert pdf["Content-Type"] == "application/pdf"
    assert hashlib.sha256(pdf.content).hexdigest() == rendering.sha256 == pdf["X-Content-SHA256"]
    assert rendering.sha256.encode() in page.content
    assert len(PdfReader(io.BytesIO(pdf.content)).pages) >= 1
    assert report.content_hash.encode() in page.content
    assert b'data-expected="SyM-T"' in page.content or b'data-expected="SyM-1"' in page.content


def test_the_chain_verifies_to_its_head(floor: LiveFloor, auditor_alba: User) -> None:
    response = signed_in(auditor_alba).get(f"/audit/tables/{floor.table.pk}/verify/")
    assert b'data-verified="ok"' in response.content
    assert floor.refresh().head_hash.encode() in response.content


def test_a_finished_round_has_a_timeline_and_one_in_play_is_refused(
    floor: LiveFloor, auditor_alba: User
) -> None:
    from tables.services import custody
    from tests.reports.custody_floor import OPENING_CHIPS

    custody.custody_open(table_id=floor.table.pk, pit_boss=floor.pit_boss, chips=OPENING_CHIPS)
    custody.count_confirm(table_id=floor.table.pk, dealer=floor.dealer, closing=False)
    play_rounds(floor, 1)
    start_a_round_with_a_face_down_card(floor)
    client = signed_in(auditor_alba)
    done = client.get(f"/audit/tables/{floor.table.pk}/rounds/1/")
    assert done.status_code == 200
    assert b'data-replay="match"' in done.content
    in_play = client.get(f"/audit/tables/{floor.table.pk}/rounds/2/")
    assert in_play.status_code == 403
    assert b"7O" not in in_play.content
    lookup = client.get("/audit/rounds/", {"table": floor.table.pk, "round": 1})
    assert lookup.status_code == 302


def test_an_unknown_rendering_is_not_found(floor: LiveFloor, auditor_alba: User) -> None:
    assert signed_in(auditor_alba).get("/audit/renderings/999/").status_code == 404
