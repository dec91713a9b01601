"""The API's JSON parser: the standard one, then the shared bounds (`tables.api.bounds`), so a
body nested too deep, a number past 64 bits or a control character is a 400 naming its field."""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import ValidationError
from rest_framework.parsers import JSONParser

from tables.api.bounds import MAX_JSON_DEPTH, first_problem


class BoundedJSONParser(JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ValidationError(
                {"body": [f"The body is nested more than {MAX_JSON_DEPTH} levels deep."]}
            ) from None
        problem = first_problem(data)
        if problem is not None:
            field, sentence = problem
            raise ValidationError({field: [f"{field} {sentence}"]})
        return data
