"""Player decisions (draw, stand, reveal, declare bust, sit out) and the bank's own commands."""

from __future__ import annotations

from tables.engine.siete.builder import EventBuilder, refuse
from tables.engine.siete.cards import SIETE_Y_MEDIO_HALVES, VALUE_HALVES, format_points
from tables.engine.siete.checks import entered_card, hidden_card_code, verify_box_number
from tables.engine.siete.commands import (
    BankStand,
    DeclareBust,
    ExposeBankCard,
    IdentifyCard,
    RequestDraw,
    Reveal,
    RevealBank,
    SitOut,
    Stand,
)
from tables.engine.siete.rules import (
    BANK,
    BETTING,
    DEALING,
    PLAYERS,
    SETTLING,
    bank_must_draw,
    current_box,
    face_down_count,
    known_total,
    phase,
    round_in_progress,
)
from tables.engine.siete.state import Box


def _open_round(b: EventBuilder) -> None:
    if not round_in_progress(b.state.round):
        refuse("no_round_open", "No round is in progress at this table.")
    if b.round.held:
        refuse("round_held", "The round is held for the pit boss.")


def _box_on_turn(b: EventBuilder, number: object) -> Box:
    box_number = verify_box_number(number)
    _open_round(b)
    if phase(b.round) in (BETTING, DEALING):
        refuse("deal_not_complete", "The initial deal is not complete yet.")
    playing = current_box(b.round)
    if playing is None or playing.number != box_number:
        turn = f"box {playing.number}'s" if playing else "no box's"
        refuse(
            "not_your_turn",
            f"It is {turn} turn, not box {box_number}'s.",
            box=playing.number if playing else "",
            requested_box=box_number,
        )
    if playing.pending_draw is not None:
        refuse(
            "draw_pending",
            f"Box {box_number} is waiting for the card it asked for.",
            box=box_number,
        )
    return playing


def request_draw(b: EventBuilder, command: RequestDraw) -> None:
    box = _box_on_turn(b, command.box)
    if command.face_down and face_down_count(box.cards):
        refuse(
            "face_down_limit",
            "A player never holds two face-down cards: reveal the one held first.",
        )
    b.emit("draw.requested", box=box.number, face_down=bool(command.face_down))


def stand(b: EventBuilder, command: Stand) -> None:
    box = _box_on_turn(b, command.box)
    b.emit("box.stood", box=box.number, automatic=False)


def _hidden_index(box: Box) -> int | None:
    for index, hand_card in enumerate(box.cards):
        if not hand_card.face_up:
            return index
    return None


def reveal(b: EventBuilder, command: Reveal) -> None:
    box = _box_on_turn(b, command.box)
    index = _hidden_index(box)
    if index is None:
        refuse("no_face_down_card", f"Box {box.number} holds no face-down card.", box=box.number)
    code = hidden_card_code(b.state, box.cards[index].card, command.card)
    b.emit("card.revealed", hand="box", box=box.number, index=index, card=code)


def declare_bust(b: EventBuilder, command: DeclareBust) -> None:
    """The cards decide, not the words: a declaration on 7½ or less is refused (`not_bust`).

    The declaration shows the cards (R1), so a face-down card is turned up and recorded even
    when the declaration is refused: the refusal is then the fact `bust.refused`, and the turn
    goes on with every card face up. With every card already face up nothing changes, and the
    declaration is refused like any other command. Either way the total it names is face up.
    """
    box = _box_on_turn(b, command.box)
    index = _hidden_index(box)
    code = None if index is None else hidden_card_code(b.state, box.cards[index].card, command.card)
    total = sum(VALUE_HALVES[c.card] for i, c in enumerate(box.cards) if i != index and c.card)
    total += VALUE_HALVES[code] if code else 0
    if index is not None:
        b.emit("card.revealed", hand="box", box=box.number, index=index, card=code)
    if total <= SIETE_Y_MEDIO_HALVES:
        if index is None:
            refuse(
                "not_bust",
                f"Box {box.number} holds {format_points(total)}, which is not bust; "
                "the turn goes on.",
                box=box.number,
                total=format_points(total),
            )
        b.emit("bust.refused", box=box.number, code="not_bust", total_halves=total)
        return
    b.emit("box.bust", box=box.number, kind="declared")


def sit_out(b: EventBuilder, command: SitOut) -> None:
    """An exposed first card lets the player take the stake back, before any decision is made."""
    number = verify_box_number(command.box)
    _open_round(b)
    box = b.round.box(number)
    if b.state.settings.exposed_player_card != "player_option":
        refuse("sit_out_not_offered", "At this table an exposed card plays.")
    if box is None or box.removed is not None or not box.cards or not box.cards[0].face_up:
        refuse("card_not_exposed", f"Box {number} has no exposed first card.", box=number)
    if b.round.first_decision:
        refuse("decisions_started", "The first player decision is made: the deal stands as dealt.")
    b.emit("wager.withdrawn", box=number)


def reveal_bank(b: EventBuilder, command: RevealBank) -> None:
    _open_round(b)
    if phase(b.round) not in (BANK, SETTLING):
        refuse("not_bank_turn", "The bank's card is turned up after the players' turns.")
    hidden = [i for i, c in enumerate(b.round.bank) if not c.face_up or c.card is None]
    if not hidden:
        refuse("bank_already_revealed", "The bank's card is already face up.")
    code = hidden_card_code(b.state, b.round.bank[hidden[0]].card, command.card)
    b.emit("card.revealed", hand="bank", box=None, index=hidden[0], card=code)


def expose_bank_card(b: EventBuilder, command: ExposeBankCard) -> None:
    """After the first player decision the deal stands: an exposed bank card plays face up.

    Before it, the table's `exposed_bank_card` rule applies as in the deal (void: the round
    is held for the pit boss, since seeing the bank's card shifts the odds to the players).
    """
    _open_round(b)
    if phase(b.round) not in (PLAYERS, BANK):
        refuse("not_in_play", "The bank's card can be exposed only while the round is played.")
    hidden = [i for i, c in enumerate(b.round.bank) if not c.face_up or c.card is None]
    if not hidden:
        refuse("bank_already_revealed", "The bank's card is already face up.")
    code = hidden_card_code(b.state, b.round.bank[hidden[0]].card, command.card)
    b.emit("card.revealed", hand="bank", box=None, index=hidden[0], card=code)
    voids = not b.round.first_decision and b.state.settings.exposed_bank_card == "void"
    if voids:
        b.emit("round.held", reason="exposed_bank_card")
    b.alert("bank_card_exposed", "The bank's card was exposed during play.", card=code)


def bank_stand(b: EventBuilder, command: BankStand) -> None:
    _open_round(b)
    if phase(b.round) != BANK:
        refuse("not_bank_turn", "It is not the bank's turn.")
    total = known_total(b.round.bank)
    if total is None or not all(c.face_up for c in b.round.bank):
        refuse("bank_card_not_revealed", "Turn up the bank's card first.")
    if bank_must_draw(total):
        refuse(
            "bank_must_draw",
            f"The bank holds {format_points(total)} and must draw below 5.",
            total=format_points(total),
        )
    b.emit("bank.finished", total_halves=total, bust=total > SIETE_Y_MEDIO_HALVES)


def identify_card(b: EventBuilder, command: IdentifyCard) -> None:
    """Enter a face-down card the tablet did not know, as the dealer turns it up to settle."""
    if command.box is None:
        reveal_bank(b, RevealBank(card=command.card))
        return
    number = verify_box_number(command.box)
    _open_round(b)
    box = b.round.box(number)
    unknown = [] if box is None else [i for i, c in enumerate(box.cards) if c.card is None]
    if box is None or box.removed is not None or not unknown:
        refuse("no_unknown_card", f"Box {number} holds no unknown card.", box=number)
    standing = box.bust in (None, "undeclared")
    if not box.turn_over or (standing and phase(b.round) != SETTLING):
        refuse("not_at_settlement", "A standing box's cards are turned up after the bank's turn.")
    b.emit(
        "card.revealed",
        hand="box",
        box=number,
        index=unknown[0],
        card=entered_card(b.state, command.card),
    )
