"""The dealer's side of the simulated shoe: cards leave, events are held, a log keeps the truth."""

import json
from pathlib import Path
from typing import IO, Any

from devices.codec.cards import DeckType, card_code, is_cut_card
from devices.codec.messages import (
    CardDrawn,
    CardMisread,
    CutCard,
    DrawAborted,
    ShoeEmpty,
    ShoeLoaded,
    Tamper,
)
from devices.simulator.device import ShoeDevice
from devices.simulator.ring import HeldEvent
from devices.simulator.shoe import Draw, SimulatedShoe

LOW_CONFIDENCE = 0x03
CARD_PUSHED_BACK = 0x05
COMMANDS = ("draw", "misread", "abort", "lid open", "lid closed", "reboot")


class DrawLog:
    """Every card drawn, in order, one JSON object per line, flushed as it happens."""

    def __init__(self, path: Path | None = None) -> None:
        self.entries: list[dict[str, Any]] = []
        self._file: IO[str] | None = path.open("w", encoding="utf-8") if path else None

    def record(self, entry: dict[str, Any]) -> None:
        self.entries.append(entry)
        if self._file is not None:
            self._file.write(json.dumps(entry, sort_keys=True) + "\n")
            self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()


def read_draw_log(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as log:
        return [json.loads(line) for line in log if line.strip()]


class CardDealer:
    def __init__(self, device: ShoeDevice, shoe: SimulatedShoe, log: DrawLog) -> None:
        self.device = device
        self.shoe = shoe
        self.log = log
        self.cards_drawn = 0
        self.shoes_loaded = 0

    def start(self, now: float) -> None:
        self.device.boot(now)
        self._load(now)

    def perform(self, command: str, now: float) -> None:
        """One line of the interactive shoe: a draw (empty line), or a named incident."""
        command = command.strip().lower() or "draw"
        if command not in COMMANDS:
            raise ValueError(f"unknown command {command!r}; expected one of {COMMANDS}")
        if command in ("draw", "misread"):
            self.draw_one(now, misread=command == "misread")
        elif command == "abort":
            index = self.shoe.drawn + 1
            self.device.hold(DrawAborted(index, CARD_PUSHED_BACK, self.device.dev_ms(now)))
        elif command.startswith("lid"):
            self._lid(command == "lid open", now)
        else:
            self.device.boot(now)

    def draw_one(self, now: float, misread: bool = False) -> None:
        """One physical card leaves the shoe (the cut card counts as a draw, not as a card)."""
        if self.device.output.roll("reboot"):
            self.device.boot(now)
        if self.shoe.empty:
            self.device.hold(ShoeEmpty(self.shoe.drawn, self.device.dev_ms(now)))
            self._load(now)
        draw = self.shoe.draw()
        if is_cut_card(draw.card.card_byte):
            event = self.device.hold(CutCard(draw.draw_index, self.device.dev_ms(now)))
            self._record(draw, event, "cut")
            return
        self.cards_drawn += 1
        self.device.cards_drawn_this_shoe = draw.draw_index
        if misread or self.device.output.roll("misread"):
            reading = CardMisread(draw.draw_index, LOW_CONFIDENCE, self.device.dev_ms(now))
            self._record(draw, self.device.hold(reading), "misread")
            return
        message = CardDrawn(
            draw.draw_index,
            draw.card.card_byte,
            CardDrawn.METHOD_RFID,
            self.device.dev_ms(now),
            draw.card.uid,
        )
        code = card_code(self.shoe.deck, draw.card.card_byte) or "unidentified"
        self._record(draw, self.device.hold(message), code)

    def _record(self, draw: Draw, event: HeldEvent, code: str) -> None:
        self.log.record(
            {
                "shoe": self.shoes_loaded,
                "draw_index": draw.draw_index,
                "card": code,
                "boot_id": event.boot_id,
                "seq": event.seq,
                # The uid is only known when the card was read.
                "uid": draw.card.uid.hex() if code not in ("cut", "misread") else "",
            }
        )

    def _lid(self, opened: bool, now: float) -> None:
        self.device.lid_open = opened
        self.device.hold(Tamper(Tamper.KIND_LID, opened, self.device.dev_ms(now)))

    def _load(self, now: float) -> None:
        self.shoe.load()
        self.shoes_loaded += 1
        self.device.cards_drawn_this_shoe = 0
        deck_type = DeckType(self.shoe.deck)
        self.device.hold(
            ShoeLoaded(deck_type, self.shoe.decks, self.shoe.shuffle_id, self.device.dev_ms(now))
        )
