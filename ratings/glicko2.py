"""Glicko-2 rating updates, after Mark Glickman's paper "Example of the Glicko-2 system".

Pure Python, no Django: the platform feeds it numbers and stores what comes back.

The platform uses a rating period of one game: a player's rating changes as soon as
each rated game ends (as on lichess), so a period holds one result.  The function
nevertheless takes any number of results, which is how the paper's example is tested.

>>> me = Rating(1500.0, 200.0, 0.06)
>>> after = update(me, [GameResult(Rating(1400.0, 30.0), 1.0),
...                     GameResult(Rating(1550.0, 100.0), 0.0),
...                     GameResult(Rating(1700.0, 300.0), 0.0)])
>>> round(after.rating, 1), round(after.deviation, 2), round(after.volatility, 6)
(1464.1, 151.52, 0.059996)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

# Glicko-2 works on its own scale; 173.7178 = 400 / ln(10) converts to and from it.
SCALE = 173.7178
DEFAULT_RATING = 1500.0
DEFAULT_DEVIATION = 350.0
DEFAULT_VOLATILITY = 0.06
# The system constant: how much volatility may change.  The paper suggests 0.3 to 1.2.
TAU = 0.5
CONVERGENCE = 0.000001
# Deviation is capped at the unrated value so long absences never exceed "unknown".
MAX_DEVIATION = 350.0


@dataclass(frozen=True)
class Rating:
    """A player's rating, deviation (RD) and volatility on the Glicko scale."""

    rating: float = DEFAULT_RATING
    deviation: float = DEFAULT_DEVIATION
    volatility: float = DEFAULT_VOLATILITY


@dataclass(frozen=True)
class GameResult:
    """One game of the period: the opponent's pre-period rating and our score (1, ½, 0)."""

    opponent: Rating
    score: float


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _new_volatility(sigma: float, phi: float, variance: float, delta: float, tau: float) -> float:
    """Step 5 of the paper: solve for the new volatility (Illinois regula falsi)."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        numerator = ex * (delta * delta - phi * phi - variance - ex)
        denominator = 2.0 * (phi * phi + variance + ex) ** 2
        return numerator / denominator - (x - a) / (tau * tau)

    upper = a
    if delta * delta > phi * phi + variance:
        lower = math.log(delta * delta - phi * phi - variance)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        lower = a - k * tau
    f_upper, f_lower = f(upper), f(lower)
    while abs(lower - upper) > CONVERGENCE:
        candidate = upper + (upper - lower) * f_upper / (f_lower - f_upper)
        f_candidate = f(candidate)
        if f_candidate * f_lower <= 0:
            upper, f_upper = lower, f_lower
        else:
            f_upper /= 2.0
        lower, f_lower = candidate, f_candidate
    return math.exp(upper / 2.0)


def update(player: Rating, results: Sequence[GameResult], *, tau: float = TAU) -> Rating:
    """Return the player's rating after one rating period with these results.

    With no results only the deviation grows (step 6 of the paper).

    >>> update(Rating(1500.0, 50.0, 0.06), []).deviation > 50.0
    True
    """
    for result in results:
        if result.score not in (0.0, 0.5, 1.0):
            raise ValueError(f"a game score must be 1, 0.5 or 0, not {result.score!r}")
    mu = (player.rating - DEFAULT_RATING) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not results:
        grown = math.sqrt(phi * phi + sigma * sigma) * SCALE
        return Rating(player.rating, min(grown, MAX_DEVIATION), sigma)

    inverse_variance = 0.0
    improvement_sum = 0.0
    for result in results:
        mu_j = (result.opponent.rating - DEFAULT_RATING) / SCALE
        phi_j = result.opponent.deviation / SCALE
        expected = _expected(mu, mu_j, phi_j)
        g_j = _g(phi_j)
        inverse_variance += g_j * g_j * expected * (1.0 - expected)
        improvement_sum += g_j * (result.score - expected)
    variance = 1.0 / inverse_variance
    delta = variance * improvement_sum

    new_sigma = _new_volatility(sigma, phi, variance, delta, tau)
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / variance)
    new_mu = mu + new_phi * new_phi * improvement_sum
    return Rating(
        rating=new_mu * SCALE + DEFAULT_RATING,
        deviation=min(new_phi * SCALE, MAX_DEVIATION),
        volatility=new_sigma,
    )


def rate_game(white: Rating, black: Rating, white_score: float) -> tuple[Rating, Rating]:
    """Both players' ratings after one rated game (a rating period of one game each)."""
    return (
        update(white, [GameResult(black, white_score)]),
        update(black, [GameResult(white, 1.0 - white_score)]),
    )
