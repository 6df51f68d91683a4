"""Hooks of the clocks app, sent inside the vacation's transaction (profile row locked).

* ``vacation_started(sender=Profile, profile, now)`` — the player's clocks must stop
  (games.timekeeping stops them in the games that allow vacation).
* ``vacation_ended(sender=Profile, profile, ended)`` — they run again from `ended`
  (the planned end if the player came back late).

Lock order: the profile row is locked first; receivers then lock game rows in id order.
"""

from django.dispatch import Signal

vacation_started = Signal()
vacation_ended = Signal()
