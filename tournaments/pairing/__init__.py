"""Pairing, standings and TRF for tournaments: pure Python, no Django.

Everything works on small frozen values; nothing here touches a database.
Players are identified by their *starting rank* (1..n); points are integer
*half-points* (2 = a win); per-player outcomes (TRF result codes) drive
points, so forfeits and byes need no special cases.

Build a tournament from the platform's data
-------------------------------------------
>>> from tournaments.pairing import (
...     Outcome, PlayerEntry, RoundResult, Tournament, assign_starting_ranks,
...     pair_next_round, record_round, standings, write_trf, read_trf, format_points,
... )
>>> entrants = assign_starting_ranks([("Ann", 1800), ("Bob", 1650), ("Cid", 1700)])
>>> [(p.id, p.name) for p in entrants]          # rating, then name
[(1, 'Ann'), (2, 'Cid'), (3, 'Bob')]
>>> t = Tournament(players=tuple(entrants), total_rounds=3, first_color="w")

A stored game becomes one :class:`RoundResult` on each side, e.g. round 1
where 1 beat 3 with White and 2 had the bye::

    PlayerEntry(1, "Ann", 1800, results=[RoundResult(3, "w", Outcome.WIN)])
    PlayerEntry(3, "Bob", 1650, results=[RoundResult(1, "b", Outcome.LOSS)])
    PlayerEntry(2, "Cid", 1700, results=[RoundResult.bye(Outcome.PAIRING_BYE)])

Forfeits are ``FORFEIT_WIN``/``FORFEIT_LOSS`` (with the scheduled opponent),
a player missing a round gets ``RoundResult.bye(Outcome.ZERO_POINT_BYE)``
(or ``HALF_POINT_BYE`` if granted), and every player needs exactly one entry
per completed round. ``withdrawn=True`` players are never paired again;
``Tournament(requested_byes={id: Outcome.HALF_POINT_BYE})`` leaves players
out of the *next* round only. ``bye_points`` sets what the pairing bye is
worth (2 = 1 point, default; 1 = ½; 0). ``forbidden_pairs`` never meet.

Pair the next round (FIDE Dutch system)
---------------------------------------
The Dutch rules of February 2026 by default; ``rules="2017"`` pairs by the
rules before (``RULES``, ``RULES_VERSIONS``).

>>> pairing = pair_next_round(t)                 # raises PairingError if impossible
>>> pairing.round, pairing.pairs()               # (white, black), bye as (id, 0)
(1, [(1, 2), (3, 0)])
>>> t = record_round(t, pairing, {1: Outcome.DRAW})   # White's outcome per board
>>> {player_id: format_points(p) for player_id, p in t.points().items()}
{1: '½', 2: '½', 3: '1'}

Round robin: :func:`berger_rounds(n, double=False)` gives every round of the
FIDE Berger tables.

Standings
---------
>>> [(s.rank, s.name, format_points(s.points)) for s in standings(t, ["BH", "SB"])]
[(1, 'Bob', '1'), (2, 'Ann', '½'), (3, 'Cid', '½')]

Tie-breaks follow FIDE C.07 as revised in 2023 (unplayed rounds: a virtual
opponent with the player's own score; opponents' rounds after a withdrawal
count as draws; voluntary unplayed rounds are cut first). Names: ``BH``,
``BH-C1``, ``BH-C2``, ``BH-M1``, ``SB``, ``DE``, ``PS``, ``WIN``, ``WON``,
``BPG``, ``BWG``, ``ARO``, ``KS``; ``SWISS_TIEBREAKS`` and
``ROUND_ROBIN_TIEBREAKS`` are the usual orders; :func:`format_tiebreak`
displays a value as a decimal. ``standings(t, names, withdrawals=...)`` and
``tiebreak_values`` take an optional ``{player: rounds before withdrawing}``
(default: :func:`withdrawal_rounds`, from ``PlayerEntry.withdrawn``);
:func:`trailing_absences` infers it from results alone (TRF files).

Other systems and checks
------------------------
``pair_next_round(t, system="burstein")`` (or ``"dubov"``; ``SYSTEMS``) pairs
with the other FIDE Swiss systems py4swiss implements.
:func:`check_tournament` lists the violations of the absolute criteria in the
completed rounds (:class:`Violation`: round, players, rule, message).

TRF-16
------
``write_trf(t, name="Club Open")`` returns the text; ``read_trf(text)``
returns a ``TrfDocument(tournament, name)`` or raises ``TrfError`` (a
``ValueError`` with ``.line`` and ``.reason``). The command line
``python -m tournaments.pairing FILE.trf`` prints the next round like
``bbpPairings --dutch FILE -p`` (``--system burstein|dubov``);
``python -m tournaments.pairing standings FILE.trf --tiebreaks BH,SB,PS``
prints the standings and ``python -m tournaments.pairing check FILE.trf``
the violations of the absolute criteria. TRF ``XXA`` lines give acceleration
points (``Tournament.accelerations``); unknown lines are refused.

Errors: ``TournamentError`` (inconsistent data, a ``ValueError``),
``PairingError`` (no valid pairing; end the tournament cleanly), ``TrfError``.
"""

from tournaments.pairing.berger import berger_rounds
from tournaments.pairing.checker import Violation, check_tournament
from tournaments.pairing.model import (
    Board,
    Color,
    Outcome,
    PlayerEntry,
    RoundPairing,
    RoundResult,
    Tournament,
    TournamentError,
    forbidden_pairs_from_groups,
    format_points,
    record_round,
)
from tournaments.pairing.ranking import assign_starting_ranks
from tournaments.pairing.standings import (
    ROUND_ROBIN_TIEBREAKS,
    SWISS_TIEBREAKS,
    TIEBREAK_NAMES,
    TIEBREAK_SCALE,
    VOLUNTARY_UNPLAYED,
    Standing,
    format_tiebreak,
    standings,
    tiebreak_values,
    trailing_absences,
    withdrawal_rounds,
)
from tournaments.pairing.swiss import (
    DEFAULT_RULES,
    RULES,
    RULES_VERSION,
    RULES_VERSIONS,
    SYSTEM_VERSIONS,
    SYSTEMS,
    PairingError,
    effective_pairing_numbers,
    pair_next_round,
)
from tournaments.pairing.trf import TrfDocument, TrfError, read_trf, write_trf

__all__ = [
    "DEFAULT_RULES",
    "ROUND_ROBIN_TIEBREAKS",
    "RULES",
    "RULES_VERSION",
    "RULES_VERSIONS",
    "SWISS_TIEBREAKS",
    "SYSTEMS",
    "SYSTEM_VERSIONS",
    "TIEBREAK_NAMES",
    "TIEBREAK_SCALE",
    "VOLUNTARY_UNPLAYED",
    "Board",
    "Color",
    "Outcome",
    "PairingError",
    "PlayerEntry",
    "RoundPairing",
    "RoundResult",
    "Standing",
    "Tournament",
    "TournamentError",
    "TrfDocument",
    "TrfError",
    "Violation",
    "assign_starting_ranks",
    "berger_rounds",
    "check_tournament",
    "effective_pairing_numbers",
    "forbidden_pairs_from_groups",
    "format_points",
    "format_tiebreak",
    "pair_next_round",
    "read_trf",
    "record_round",
    "standings",
    "tiebreak_values",
    "trailing_absences",
    "withdrawal_rounds",
    "write_trf",
]
