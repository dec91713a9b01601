"""Rule errors: every refusal carries a stable code and a sentence a dealer understands."""

from __future__ import annotations

from collections.abc import Mapping

ParamValue = str | int


class RuleError(Exception):
    """A command the rules refuse. Nothing is recorded when one is raised.

    `code` is stable and machine-readable (snake_case); `message` is the English sentence for
    the dealer's screen; `params` holds the values that sentence uses, so the edge can say the
    same in another language from `code` and `params`. Neither ever names a hidden card or a
    total that depends on one. `status` hints the HTTP mapping: 409 when the table is in the
    wrong state for it, 422 when the input itself is wrong.
    """

    code: str = "rule_violation"
    status: int = 409

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        status: int | None = None,
        params: Mapping[str, ParamValue] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.params: dict[str, ParamValue] = dict(params or {})
        if code is not None:
            self.code = code
        if status is not None:
            self.status = status


class InvalidInputError(RuleError):
    """The command itself is malformed: a card code, an amount, a box number."""

    code = "invalid_input"
    status = 422


class NotAllowedNowError(RuleError):
    """The command is well-formed but the round's state does not allow it now."""

    code = "not_allowed_now"
    status = 409
