"""Faults a simulated shoe injects into its own output, each with a probability per frame."""

import random
from dataclasses import dataclass, fields

MAX_GARBAGE_BURST = 48
PER_DRAW_FAULTS = frozenset({"reboot", "misread"})


@dataclass(frozen=True, slots=True)
class FaultPlan:
    corrupt: float = 0.0
    duplicate: float = 0.0
    drop: float = 0.0
    garbage: float = 0.0
    reboot: float = 0.0
    misread: float = 0.0

    @classmethod
    def parse(cls, text: str) -> "FaultPlan":
        """`corrupt=0.01,drop=0.02` → a plan; an unknown name or a value outside 0…1 is refused."""
        known = {f.name for f in fields(cls)}
        values: dict[str, float] = {}
        for item in filter(None, (part.strip() for part in text.split(","))):
            name, _, raw = item.partition("=")
            if name not in known:
                raise ValueError(f"unknown fault {name!r}; expected one of {sorted(known)}")
            value = float(raw)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"fault probability {name}={raw} is outside 0…1")
            values[name] = value
        return cls(**values)


class FaultyOutput:
    """Turns the bytes of one frame into what actually reaches the line."""

    def __init__(self, plan: FaultPlan, rng: random.Random) -> None:
        self.plan = plan
        self._rng = rng
        # Faults rolled once per draw get their own stream, so a seed fixes which draws they hit
        # whatever the line's timing does to the per-frame rolls.
        self._draw_rng = random.Random(rng.getrandbits(64))
        self.injected: dict[str, int] = dict.fromkeys((f.name for f in fields(FaultPlan)), 0)

    def emit(self, wire: bytes) -> bytes:
        out = b""
        if self.roll("garbage"):
            out += self._rng.randbytes(self._rng.randint(1, MAX_GARBAGE_BURST))
        if self.roll("drop"):
            return out
        frame = self._corrupted(wire) if self.roll("corrupt") else wire
        out += frame
        if self.roll("duplicate"):
            out += wire
        return out

    def roll(self, fault: str) -> bool:
        """True, and counted, when the named fault strikes this time."""
        probability: float = getattr(self.plan, fault)
        rng = self._draw_rng if fault in PER_DRAW_FAULTS else self._rng
        hit = probability > 0 and rng.random() < probability
        if hit:
            self.injected[fault] += 1
        return hit

    def _corrupted(self, wire: bytes) -> bytes:
        damaged = bytearray(wire)
        # Keep the delimiters: a flipped delimiter is the relay's business, not the sender's.
        position = self._rng.randrange(1, len(damaged) - 1)
        damaged[position] ^= 1 << self._rng.randrange(8)
        return bytes(damaged)
