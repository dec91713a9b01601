"""The dealer's side of the simulated shoe: cards leave, events are held, a log keeps the truth."""

import json
from pathlib import Path
from typing import IO, Any

from devices.codec.cards import DeckType, card_code, is_cut_card
from devices.codec.messages import CardDrawn, CutCard, ShoeEmpty, ShoeLoaded
from devices.simulator.device import ShoeDevice
from devices.simulator.shoe import SimulatedShoe


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

    def draw_one(self, now: float) -> None:
        """One physical card leaves the shoe (the cut card counts as a draw, not as a card)."""
        if self.device.output.roll("reboot"):
            self.device.boot(now)
        if self.shoe.empty:
            self.device.hold(ShoeEmpty(self.shoe.drawn, self.device.dev_ms(now)))
            self._load(now)
        draw = self.shoe.draw()
        dev_ms = self.device.dev_ms(now)
        if is_cut_card(draw.card.card_byte):
            event = self.device.hold(CutCard(draw.draw_index, dev_ms))
            code = "cut"
        else:
            message = CardDrawn(
                draw.draw_index, draw.card.card_byte, CardDrawn.METHOD_RFID, dev_ms, draw.card.uid
            )
            event = self.device.hold(message)
            code = card_code(self.shoe.deck, draw.card.card_byte) or "unidentified"
            self.cards_drawn += 1
            self.device.cards_drawn_this_shoe = draw.draw_index
        self.log.record(
            {
                "shoe": self.shoes_loaded,
                "draw_index": draw.draw_index,
                "card": code,
                "boot_id": event.boot_id,
                "seq": event.seq,
                "uid": draw.card.uid.hex(),
            }
        )

    def _load(self, now: float) -> None:
        self.shoe.load()
        self.shoes_loaded += 1
        self.device.cards_drawn_this_shoe = 0
        deck_type = DeckType(self.shoe.deck)
        self.device.hold(
            ShoeLoaded(deck_type, self.shoe.decks, self.shoe.shuffle_id, self.device.dev_ms(now))
        )
