"""Who may see each screen: the pages, their fragments and their websocket pushes read it here.

Beside the commands' rules, the same policy declares the readers of each supervising screen,
so that a page, a fragment and the push that feeds it can never disagree on who may look.
"""

from __future__ import annotations

from tables import roles

SCREEN_VIEWERS: dict[str, tuple[str, ...]] = {
    # The pit boss's floor: every table's tile, the alerts and the approvals queue.
    "floor": (roles.PIT_BOSS,),
    # The cashier's counter: the slips waiting and the cage's figures.
    "cage": (roles.CASHIER,),
    # The auditor's desk: reports, chains and round timelines.
    "audit": (roles.AUDITOR,),
    # The change notices ("table N changed at seq S", never a fact): every signed-in staff role.
    "notices": (roles.DEALER, roles.PIT_BOSS, roles.CASHIER, roles.AUDITOR),
}


def viewers(screen: str) -> tuple[str, ...]:
    return SCREEN_VIEWERS[screen]
