"""The disclosure rule on its own: which codes of a live round stay hidden, and how they are
taken out of JSON and sentences."""

from __future__ import annotations

from tables.disclosure import HIDDEN_IN_TEXT, RoundSecrets, hidden_codes


def test_face_down_cards_and_burns_are_hidden_face_up_ones_are_not() -> None:
    events = [
        ("card.dealt", {"card": "6E", "face_up": False, "hand": "box", "box": 1}),
        ("card.dealt", {"card": "12O", "face_up": True, "hand": "box", "box": 1}),
        ("card.burned", {"card": "3C", "face_up": False}),
        ("card.dealt", {"card": "Ah", "face": "down", "seat": 1}),
        ("card.dealt", {"card": "7h", "face": "up", "seat": 1}),
        ("card.community", {"card": "Qs"}),
    ]
    assert hidden_codes(events) == {"6E", "3C", "Ah"}


def test_a_revealed_or_shown_card_is_no_longer_hidden() -> None:
    events = [
        ("card.dealt", {"card": "4C", "face_up": False, "hand": "bank"}),
        ("card.dealt", {"card": "Ah", "face": "down", "seat": 1}),
        ("card.dealt", {"card": "Kd", "face": "down", "seat": 3}),
        ("card.revealed", {"card": "4C", "hand": "bank", "index": 0}),
        ("hand.shown", {"seat": 1, "down_cards": ["Ah", "2c"]}),
    ]
    assert hidden_codes(events) == {"Kd"}


def test_a_face_up_duplicate_of_a_hidden_code_does_not_free_it() -> None:
    events = [
        ("card.dealt", {"card": "6E", "face_up": False, "hand": "box", "box": 1}),
        ("card.misdrawn", {"card": "6E", "face_up": True}),
    ]
    assert hidden_codes(events) == {"6E"}


def test_a_card_of_an_event_the_rule_does_not_know_stays_hidden() -> None:
    events = [
        ("card.held", {"card": "6E", "street": 3}),
        ("card.corrected", {"misread": "9s", "card": "Ts"}),
        ("card.dealt", {"card": None, "face_up": False}),  # unknown to the server: nothing to hide
    ]
    assert hidden_codes(events) == {"6E", "9s", "Ts"}


def test_hidden_codes_are_taken_out_of_json_and_sentences_as_whole_words() -> None:
    secrets = RoundSecrets(hidden=frozenset({"6E", "Ah"}))
    shown = secrets.shown({"card": "6E", "cards": ["Ah", "7h"], "note": "read 6E twice", "n": 6})
    assert shown == {
        "card": None,
        "cards": [None, "7h"],
        "note": f"read {HIDDEN_IN_TEXT} twice",
        "n": 6,
    }
    assert secrets.text("serial 16E5, Ahx, 6E.") == f"serial 16E5, Ahx, {HIDDEN_IN_TEXT}."
    assert RoundSecrets().shown({"card": "6E"}) == {"card": "6E"}
