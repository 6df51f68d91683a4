"""The TimeControl value: building, judging, wording, and the time after a turn."""

from __future__ import annotations

import doctest

import pytest
from django.utils import translation

from clocks import arithmetic, timecontrol
from clocks.arithmetic import DAY, HOUR
from clocks.timecontrol import ClockKind, TimeControl
from core.errors import InvalidInput


def test_doctests_run() -> None:
    for module in (arithmetic, timecontrol):
        assert doctest.testmod(module).failed == 0, module.__name__


def test_a_time_control_is_a_frozen_hashable_value_whose_repr_rebuilds_it() -> None:
    bank = TimeControl.bank(10, increment_hours=36, weekend_pause=True)
    assert bank == TimeControl("bank", 10, 36 * HOUR, True)  # the kind's text is coerced
    assert bank.kind is ClockKind.BANK
    assert len({bank, TimeControl.bank(10, increment_hours=36, weekend_pause=True)}) == 1
    assert eval(repr(bank), {"TimeControl": TimeControl, "ClockKind": ClockKind}) == bank
    with pytest.raises(AttributeError):
        bank.days = 3  # type: ignore[misc]
    assert bank.replace(days=5).days == 5 and bank.days == 10
    assert TimeControl() == TimeControl.per_turn(3) == timecontrol.DEFAULT
    with pytest.raises(ValueError):
        TimeControl("blitz", 3)


def test_the_increment_is_kept_to_the_second() -> None:
    odd = TimeControl(ClockKind.BANK, 10, 5_400)  # 1.5 hours, as an old row might hold
    assert odd.increment_hours == 1.5 and odd.increment_seconds == 5_400
    assert TimeControl.from_hours(kind="bank", days=10, increment_hours=1.5) == odd
    assert "increment_hours" in odd.errors()  # asked for now: whole hours only
    with pytest.raises(TypeError):
        TimeControl.from_hours(kind="bank", days=10, increment_hours="36")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("control", "strict", "fields"),
    [
        (TimeControl.per_turn(3), True, set()),
        (TimeControl.per_turn(14, weekend_pause=True), True, set()),
        (TimeControl.per_turn(4), True, {"days"}),
        (TimeControl.per_turn(4), False, set()),  # the older days_per_turn: 1 to 30
        (TimeControl.per_turn(30), False, set()),
        (TimeControl.per_turn(31), False, {"days"}),
        (TimeControl.per_turn(0), False, {"days"}),
        (TimeControl.from_hours(kind="per_turn", days=3, increment_hours=5), True,
         {"increment_hours"}),
        (TimeControl.bank(30, increment_hours=240), True, set()),
        (TimeControl.bank(1), True, set()),
        (TimeControl.bank(31), True, {"days"}),
        (TimeControl.bank(40), False, {"days"}),
        (TimeControl.bank(10, increment_hours=241), True, {"increment_hours"}),
        (TimeControl.bank(10, increment_hours=-1), True, {"increment_hours"}),
    ],
)  # fmt: skip
def test_errors_name_the_fields(control: TimeControl, strict: bool, fields: set[str]) -> None:
    assert set(control.errors(strict_days=strict)) == fields


def test_validate_raises_invalid_input_with_the_field_errors() -> None:
    assert TimeControl.bank(10).validate() == TimeControl.bank(10)
    with pytest.raises(InvalidInput) as caught:
        TimeControl.bank(10, increment_hours=300).validate()
    assert caught.value.code == "invalid"
    assert set(caught.value.details["fields"]) == {"increment_hours"}


def test_labels_word_the_control() -> None:
    with translation.override("en"):
        assert TimeControl.per_turn(1).label() == "1 day per turn"
        assert TimeControl.per_turn(3).label() == "3 days per turn"
        assert str(TimeControl.bank(10, increment_hours=36)) == "10 days + 36 hours per turn"
        assert TimeControl.bank(10, increment_hours=1, weekend_pause=True).label() == (
            "10 days + 1 hour per turn, weekends off"
        )
        assert (
            TimeControl(ClockKind.BANK, 2, 5_400).label() == "2 days + 1 hour 30 minutes per turn"
        )


def test_a_bank_gets_the_increment_after_a_turn_capped_at_the_initial_bank() -> None:
    control = TimeControl.bank(10, increment_hours=36)
    bank = control.initial_seconds
    assert bank == 10 * DAY
    # 10 days + 36 hours per turn: a one-day turn leaves 9 days + 36 h, capped at 10 days.
    assert control.after_turn(left=bank, used=DAY) == bank
    assert control.after_turn(left=bank, used=5 * DAY) == 5 * DAY + 36 * HOUR
    # A turn that used more than was left (it was accepted on time) never goes negative.
    assert TimeControl.bank(10).after_turn(left=HOUR, used=2 * HOUR) == 0


def test_a_per_turn_clock_is_full_again_for_the_next_turn() -> None:
    assert TimeControl.per_turn(3).after_turn(left=HOUR, used=HOUR - 1) == 3 * DAY
