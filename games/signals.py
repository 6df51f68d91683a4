"""Hooks for the rest of the platform (tournaments, ratings, bots, notifications).

Services send these *inside* their database transaction, after the change is
saved, so a receiver's own database writes (a rating update, a tournament
standing) commit or roll back together with the game.  A receiver that talks
to the outside world defers it to the commit: a Celery task's ``delay`` does
(core.tasks.AfterCommitTask); anything else uses ``transaction.on_commit``.

* ``game_started(sender=Game, game)`` — a game became active (standard opening
  at accept time, pie opening once the colour is chosen).
* ``turn_played(sender=Game, game, turn, profiles, reply_follows)`` — a turn was stored;
  ``game`` is already updated (position, ply, maybe finished).  ``turn.automatic``: it
  was played from its player's conditional lines (games.conditional).  ``reply_follows``:
  the next player's conditional reply is played right after, in the same transaction
  (its own turn_played follows), so the player ``game`` shows to act will not have to.
* ``game_finished(sender=Game, game, profiles)`` — result, termination and ``finished``
  are set.

``profiles`` maps the players' user ids to their ``Profile`` rows, loaded with the
locked game: use them instead of querying (a turn is the hottest write of the site).
It may be None (a sender without them) or lack a user without a profile row: fall
back to a query then.
* ``pie_step(sender=Game, game)`` — a pie game waits for its next setup step.
* ``draw_offer_changed(sender=Game, game)`` — a draw was offered, withdrawn or declined
  (games.agreements; an offer accepted finishes the game, one lapsed by a turn goes
  with the turn): the game pages are told (stream.receivers).
* ``challenge_created / challenge_accepted(sender=Challenge, challenge)``.
* ``game_opened(sender=Game, game, user)`` — one of the players opened the game's page
  (the notifications about it are read then).
* ``auto_vacation(sender=Game, game, user, days_left, now)`` — a clock ran out and a
  vacation day was spent instead of the game (games.timekeeping.expire_game).
* ``time_running_low(sender=Game, warnings, now)`` — the sweeper's movers with under
  24 hours left (a list of games.timekeeping.LowTime, each once per turn: its ``key``).
  A receiver returns how many players it warned (the sweep report adds them up).

Connect with ``@receiver(turn_played)`` in your app's ``receivers.py`` imported
from ``AppConfig.ready``.
"""

from django.dispatch import Signal

game_started = Signal()
# A pie game waits for its next setup step (no game_started until the colour is chosen):
# sent when it is created (the placer must act) and when the adaptoids are placed (the
# chooser must act).  pie_step(sender=Game, game).
pie_step = Signal()
turn_played = Signal()
game_finished = Signal()
challenge_created = Signal()
draw_offer_changed = Signal()
challenge_accepted = Signal()
auto_vacation = Signal()
time_running_low = Signal()
game_opened = Signal()
