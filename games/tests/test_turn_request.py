"""games.api.views.turn_request: the fast path reads exactly what the serializer validates."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework.exceptions import ValidationError

from games.api.serializers import TurnRequestSerializer
from games.api.views import turn_request

values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-3, max_value=10**20),
    st.floats(allow_nan=False),
    st.text(max_size=80),
    st.sampled_from(["D2L", " d2-d4 , d4p ", "D2-D4\x00", "E3xE5,F4", " ", "", "7", "1.0"]),
    st.text(alphabet="D2-4LPx, \t", min_size=60, max_size=70),
    st.lists(st.integers(), max_size=2),
)
bodies = st.one_of(
    st.fixed_dictionaries({}, optional={"ply": values, "turn": values, "other": values}),
    st.lists(values, max_size=2),
    values,
)


def _serializer(body: Any) -> tuple[int, str] | str:
    serializer = TurnRequestSerializer(data=body)
    if not serializer.is_valid():
        return f"invalid: {sorted(serializer.errors)}"
    return serializer.validated_data["ply"], serializer.validated_data["turn"]


def _fast(body: Any) -> tuple[int, str] | str:
    try:
        return turn_request(body)
    except ValidationError as error:
        return f"invalid: {sorted(error.detail)}"


@settings(max_examples=600, deadline=None)
@given(bodies)
def test_same_answer_as_the_serializer(body: Any) -> None:
    assert _fast(body) == _serializer(body)


def test_the_usual_bodies() -> None:
    assert turn_request({"ply": 3, "turn": " D2-D4,D4P "}) == (3, "D2-D4,D4P")
    assert _fast({"ply": 0, "turn": "D2L"}) == "invalid: ['ply']"
    assert _fast({"ply": True, "turn": "D2L"}) == "invalid: ['ply']"
    assert _fast({"ply": 1, "turn": "x" * 65}) == "invalid: ['turn']"
    assert _fast({"ply": "2", "turn": "D2L"}) == (2, "D2L")  # the serializer's leniency
