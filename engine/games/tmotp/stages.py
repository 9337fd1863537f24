"""The stages a turn's queue names, each a function of the state."""
from . import momentum
from .debates import debates
from .election_day import election_day
from .strategy import campaign_strategy
from .turn import activity, initiative, new_cards, start_turn

STAGES = {
    "new_cards": new_cards,
    "initiative": initiative,
    "activity": activity,
    "momentum_phase": momentum.momentum_phase,
    "momentum_decay": momentum.momentum_decay,
    "issue_shift": momentum.issue_shift,
    "award_third": momentum.award_third,
    "award_second": momentum.award_second,
    "award_first": momentum.award_first,
    "issue_support_decay": momentum.issue_support_decay,
    "campaign_strategy": campaign_strategy,
    "next_turn": start_turn,
    "debates": debates,
    "election_day": election_day,
}
