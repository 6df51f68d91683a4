"""A player is to be told something: apps above games (tournaments) send ``notice``
and the notifications app, their sibling, receives it (notifications.receivers), so
neither imports the other.

``notice(sender, user, kind, params=None, url="", dedupe_key="", game=None)`` — the
arguments of ``notifications.services.notify``; sent inside the sender's transaction,
so the notice commits with the change it tells of.  Nobody listening (the
notifications app not installed): nothing happens.
"""

from django.dispatch import Signal

notice = Signal()
