"""The FIDE Dutch system: kept as an import path; the adapter lives in :mod:`.swiss`.

``pair_next_round(tournament)`` pairs with the Dutch system by default; see
:mod:`tournaments.pairing.swiss` for the systems, the rule versions and the
corrections applied to py4swiss (effective pairing numbers in every round,
colour preferences by C.04.3 A.6).
"""

from tournaments.pairing.swiss import RULES_VERSION, PairingError, pair_next_round

__all__ = ["RULES_VERSION", "PairingError", "pair_next_round"]
