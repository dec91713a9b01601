"""Adapters from the pure engines to the services (see tables.games)."""

from tables import games


def _siete() -> games.GameBinding:
    from tables.bindings.siete import BINDING

    return BINDING


def _stud() -> games.GameBinding:
    from tables.bindings.stud import BINDING

    return BINDING


games.register_loader("siete_y_medio", _siete)
games.register_loader("seven_card_stud", _stud)
