"""Capped exponential backoff with full jitter, so many readers do not reconnect in step."""

import random
from dataclasses import dataclass, field


@dataclass
class Backoff:
    base_s: float = 0.1
    cap_s: float = 5.0
    rng: random.Random = field(default_factory=random.Random)
    attempts: int = 0

    def next_delay(self) -> float:
        ceiling = min(self.cap_s, self.base_s * 2**self.attempts)
        self.attempts += 1
        return self.rng.uniform(ceiling / 2, ceiling)

    def reset(self) -> None:
        self.attempts = 0
