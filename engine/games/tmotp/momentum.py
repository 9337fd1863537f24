"""3. Momentum Phase: decay, issue shift, awards and endorsements, issue support decay.

GMT 2nd edition order: decay, shift, awards, issue decay. Z-Man 1st edition: decay, awards,
issue decay, shift (Rule Changes from Previous Editions: Momentum Phase).
"""
from .bag import draw_endorsement
from .board import issue_leader, lose, media_total, own
from .data import ISSUES, SEATS
from .flow import Step, step
from .messages import msg

GMT_ORDER = ["momentum_decay", "issue_shift", "award_third", "award_second", "award_first",
             "issue_support_decay"]
ZMAN_ORDER = ["momentum_decay", "award_third", "award_second", "award_first",
              "issue_support_decay", "issue_shift"]


def momentum_phase(g) -> None:
    g.s["round"] = "momentum"
    g.s["queue"][:0] = GMT_ORDER if g.gmt else ZMAN_ORDER


def momentum_decay(g) -> None:
    """Step 1: both players discard half their momentum markers, rounded down."""
    for seat in SEATS:
        g.s["momentum"][seat] -= g.s["momentum"][seat] // 2
    g.note("Momentum decays: {seat1} keeps {n1}, {seat2} keeps {n2}.", seat1="kennedy",
           n1=g.s["momentum"]["kennedy"], seat2="nixon", n2=g.s["momentum"]["nixon"])


def issue_shift(g) -> None:
    """The player with more media support cubes may switch two adjacent issues; on a tie, neither."""
    k, n = media_total(g.s, "kennedy"), media_total(g.s, "nixon")
    if k != n:
        g.call("issue_shift", then="run_queue", seat="kennedy" if k > n else "nixon")


@step
class IssueShift(Step):
    name = "issue_shift"

    def actions(self, g, f, seat):
        t = g.s["issue_track"]
        return ["pass", f"swap {t[0]} {t[1]}", f"swap {t[1]} {t[2]}"]

    def do(self, g, f, seat, action):
        words = action.split()
        if words[0] == "swap":
            t = g.s["issue_track"]
            i, j = t.index(words[1]), t.index(words[2])
            t[i], t[j] = t[j], t[i]
            g.note("{seat} switches {issue1} and {issue2} on the Issues Track.", seat=seat,
                   issue1=words[1], issue2=words[2])
        g.end()

    def prompt(self, g, f, seat):
        return msg("Issue Shift: you have more media support; you may switch two adjacent issues "
                   "on the Issues Track (now {issues}) or pass.", issues=list(g.s["issue_track"]))


def _leader_of(g, place: int):
    return issue_leader(g.s, g.s["issue_track"][place])


def award_third(g) -> None:
    """Third-place issue: one momentum marker."""
    seat = _leader_of(g, 2)
    if seat:
        g.s["momentum"][seat] += 1
        g.note("{seat} leads {issue} and takes a momentum marker.", seat=seat,
               issue=g.s["issue_track"][2])


def award_second(g) -> None:
    """Second-place issue: one momentum marker or one Endorsement Card, the leader's choice."""
    seat = _leader_of(g, 1)
    if seat:
        g.call("award_choice", then="run_queue", seat=seat)


@step
class AwardChoice(Step):
    name = "award_choice"

    def actions(self, g, f, seat):
        return ["momentum", "endorsement"]

    def do(self, g, f, seat, action):
        issue = g.s["issue_track"][1]
        if action == "momentum":
            g.s["momentum"][seat] += 1
            g.note("{seat} leads {issue} and takes a momentum marker.", seat=seat, issue=issue)
            g.end()
        else:
            g.note("{seat} leads {issue} and takes an endorsement card.", seat=seat, issue=issue)
            g.s["stack"].pop()
            draw_endorsement(g, seat, then="run_queue")

    def prompt(self, g, f, seat):
        return msg("You lead the second-place issue: take a momentum marker or an endorsement card.")


def award_first(g) -> None:
    """First-place issue: one momentum marker and one Endorsement Card."""
    seat = _leader_of(g, 0)
    if seat:
        g.s["momentum"][seat] += 1
        g.note("{seat} leads {issue} and takes a momentum marker and an endorsement card.",
               seat=seat, issue=g.s["issue_track"][0])
        draw_endorsement(g, seat, then="run_queue")


def issue_support_decay(g) -> None:
    """Step 4: one issue support cube is removed from each issue tile that has any."""
    for issue in ISSUES:
        for seat in SEATS:
            if own(g.s["issues"][issue], seat):
                lose(g.s["issues"], issue, seat, 1)
