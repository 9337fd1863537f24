"""The rating a player is shown (issue 47 item 3): OpenSkill's ordinal on the Elo-like scale.

The ladder orders by the ordinal, mu - 3 sigma (services/ratings.py): with OpenSkill's prior
(mu 25, sigma 25/3) a newcomer's is 0, and a first loss takes it below zero (-1.8), which
reads as a penalty for having started. OpenSkill's own answer (its FAQ, "How do I scale
rating ordinal score to reflect Elo?", and the ``alpha``/``target`` arguments of
``ordinal()``): one standard deviation of the prior is about 200 Elo points, so show
alpha * ordinal + target with alpha = 200 / sigma0 (= 24) and target = 1500. A newcomer then
reads 1500, where lichess's Glicko-2 starts every player (the number players of rated sites
know as "new here"); two newcomers' first game leaves the loser at 1456 and the winner at 1583.
The scale is a display only: the ladder's order is the ordinal's, and the API keeps mu, sigma
and the ordinal beside it. It is never shown below 0 (an ordinal under -62.5, which no real
record reaches).
"""

from __future__ import annotations

from openskill.models import PlackettLuce

_PRIOR = PlackettLuce()
POINTS_PER_SIGMA = 200         # one standard deviation of the prior's skill
ALPHA = POINTS_PER_SIGMA / _PRIOR.sigma     # 24 points per unit of the ordinal
TARGET = 1500                  # a newcomer's shown rating


def shown(mu: float, sigma: float) -> int:
    """The rating a player is shown for (mu, sigma): a whole number, 1500 for a newcomer."""
    value = _PRIOR.rating(mu=mu, sigma=sigma).ordinal(alpha=ALPHA, target=TARGET)
    return max(0, round(value))
