"""The pit boss's pages through Django's test client: what each viewer gets, and the forms."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from reports.models import Slip
from tables.models import CorrectionRequest
from tables.services import custody
from tables.services.corrections import correction_request
from tests.pages.supervision_floor import (
    LiveFloor,
    live_floor,
    play_rounds,
    start_a_round_with_a_face_down_card,
)

pytestmark = pytest.mark.django_db
HIDDEN_CARD = b"7O"
# The page's CSRF token (64 random letters and digits) holds "7O" in about one page in sixty.
RANDOM_TOKENS = re.compile(rb"[A-Za-z0-9]{32,}")


def shown(content: bytes) -> bytes:
    """The page without its random tokens: what the hidden card must not be found in."""
    return RANDOM_TOKENS.sub(b"", content)


@pytest.fixture
def floor(
    dealer_dora: User, pit_boss_paula: User, pit_boss_pedro: User, cashier_carmen: User
) -> LiveFloor:
    return live_floor(dealer_dora, pit_boss_paula, pit_boss_pedro, cashier_carmen)


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize(
    "path", ["/floor/", "/floor/tiles/", "/floor/lists/", "/floor/tables/{table}/"]
)
def test_only_a_pit_boss_gets_the_floor(floor: LiveFloor, auditor_alba: User, path: str) -> None:
    url = path.format(table=floor.table.pk)
    for user in (floor.dealer, floor.cashier, auditor_alba):
        response = signed_in(user).get(url)
        assert response.status_code == 403, user
        assert b"tile-" not in response.content
    assert signed_in(floor.pit_boss).get(url).status_code == 200


def test_a_dealer_cannot_post_to_the_floor(floor: LiveFloor) -> None:
    response = signed_in(floor.dealer).post(f"/floor/tables/{floor.table.pk}/fill/", {})
    assert response.status_code == 403
    assert not Slip.objects.exists()


def test_the_floor_shows_every_table_and_no_face_down_card(floor: LiveFloor) -> None:
    play_rounds(floor, 2)
    start_a_round_with_a_face_down_card(floor)
    page = signed_in(floor.pit_boss).get("/floor/")
    assert page.status_code == 200
    assert f'id="tile-{floor.table.pk}"'.encode() in page.content
    assert f'id="tile-{floor.stud.pk}"'.encode() in page.content
    assert b'data-status="in_round"' in page.content
    assert b'data-live-socket="/ws/floor/?tiles=en"' in page.content
    assert HIDDEN_CARD not in shown(page.content)


def test_the_table_page_draws_the_face_down_card_as_a_back(floor: LiveFloor) -> None:
    start_a_round_with_a_face_down_card(floor)
    client = signed_in(floor.pit_boss)
    for url in (f"/floor/tables/{floor.table.pk}/", f"/floor/tables/{floor.table.pk}/live/"):
        page = client.get(url)
        assert page.status_code == 200
        assert b'data-back="1"' in page.content
        assert HIDDEN_CARD not in shown(page.content)


def request_void(floor: LiveFloor, by: User) -> CorrectionRequest:
    return correction_request(
        table_id=floor.table.pk,
        command_type="void_round",
        command_data={"reason": "wrong deck"},
        reason="Wrong deck.",
        requested_by=by,
    )


def test_the_requesters_own_request_has_no_approve_button(floor: LiveFloor) -> None:
    start_a_round_with_a_face_down_card(floor)
    request_void(floor, floor.pit_boss)
    own = signed_in(floor.pit_boss).get("/floor/lists/")
    assert b"data-own-request" in own.content
    assert b"data-approve" not in own.content
    other = signed_in(floor.other_pit_boss).get("/floor/lists/")
    assert b"data-approve" in other.content


def test_approving_ones_own_request_is_refused_and_changes_nothing(floor: LiveFloor) -> None:
    start_a_round_with_a_face_down_card(floor)
    correction = request_void(floor, floor.pit_boss)
    head = floor.refresh().head_seq
    response = signed_in(floor.pit_boss).post(
        f"/floor/approvals/correction/{correction.pk}/", {"decision": "approve"}
    )
    assert response.status_code == 403
    assert b'class="refusal"' in response.content
    correction.refresh_from_db()
    assert correction.status == CorrectionRequest.Status.PENDING
    assert floor.refresh().head_seq == head


def test_another_pit_boss_approves_from_the_queue(floor: LiveFloor) -> None:
    start_a_round_with_a_face_down_card(floor)
    correction = request_void(floor, floor.dealer)
    response = signed_in(floor.other_pit_boss).post(
        f"/floor/approvals/correction/{correction.pk}/", {"decision": "approve", "note": "ok"}
    )
    assert response.status_code == 200
    correction.refresh_from_db()
    assert correction.status == CorrectionRequest.Status.APPROVED
    assert b"Nothing is waiting." in response.content


def test_a_fill_requested_on_the_floor_is_counted_by_denomination(floor: LiveFloor) -> None:
    response = signed_in(floor.pit_boss).post(
        f"/floor/tables/{floor.table.pk}/fill/", {"chips-100": "5", "chips-25": "4"}
    )
    assert response.status_code == 302
    (slip,) = Slip.objects.all()
    assert (slip.slip_type, slip.stage) == ("fill", Slip.Stage.REQUESTED)


def test_a_count_that_is_not_a_number_is_refused_with_a_sentence(floor: LiveFloor) -> None:
    response = signed_in(floor.pit_boss).post(
        f"/floor/tables/{floor.table.pk}/fill/", {"chips-100": "five"}
    )
    assert response.status_code == 422
    assert b"whole numbers" in response.content
    assert not Slip.objects.exists()


def test_a_table_opens_with_a_count_and_closes_with_one(
    dealer_dora: User, pit_boss_paula: User, pit_boss_pedro: User, cashier_carmen: User
) -> None:
    floor = live_floor(dealer_dora, pit_boss_paula, pit_boss_pedro, cashier_carmen, opened=False)
    client = signed_in(floor.pit_boss)
    opened = client.post(f"/floor/tables/{floor.table.pk}/open/", {"chips-100": "10"})
    assert opened.status_code == 302
    # The pit boss's count waits for the table's dealer, who confirms it with his own login.
    assert floor.refresh().status == "closed"
    custody.count_confirm(table_id=floor.table.pk, dealer=floor.dealer, closing=False)
    assert floor.refresh().status == "open"
    closed = client.post(f"/floor/tables/{floor.table.pk}/close/", {"chips-100": "10"})
    assert closed.status_code == 302
    assert floor.refresh().status == "closed"
    custody.count_confirm(table_id=floor.table.pk, dealer=floor.dealer, closing=True)
    page = client.get(f"/floor/tables/{floor.table.pk}/")
    assert b'name="carry"' in page.content  # the last closer can be carried forward
    # One opener per shift: opening again in the same shift is refused, nothing recorded.
    head = floor.refresh().head_seq
    again = client.post(f"/floor/tables/{floor.table.pk}/open/", {"carry": "1"})
    assert again.status_code == 409
    assert b'class="refusal"' in again.content
    assert floor.refresh().head_seq == head


def test_an_unknown_action_is_not_found(floor: LiveFloor) -> None:
    response = signed_in(floor.pit_boss).post(f"/floor/tables/{floor.table.pk}/explode/", {})
    assert response.status_code == 404


@pytest.mark.parametrize(
    ("language", "heading"),
    [("es", "Sala del jefe de sala"), ("pt-br", "Salão do chefe de mesa"), ("en", "Pit boss's")],
)
def test_the_floor_speaks_the_chosen_language(
    floor: LiveFloor, language: str, heading: str
) -> None:
    client = signed_in(floor.pit_boss)
    client.cookies["django_language"] = language
    page = client.get("/floor/")
    assert heading in page.content.decode()
