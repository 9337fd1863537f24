"""Which part of 1960's board a decision is about (the presenter's ``focus``, issue 47): the
game page shows it right under the decision's prompt, so that on a phone the player decides
with the part in view, and leaves it out of the board further down (board.html).

- the Debates (who debates first, a Debate card, its side, the award): the Debate Board;
- a choice naming states (Swing State, events, support checks, the debate award, Campaigning
  without a plan): the map with its electoral votes and support;
- a choice naming regions (Advertising, media removed): media support and endorsements;
- a choice naming issues (Issue Shift, the second-place award, issue cubes): the issue track.
A form that draws its board part itself (``form["board"]``: a planner with its tappable map
or issue rows, forms.py) needs none; nor does the card play (its form is the hand).
"""

from __future__ import annotations

from engine.games.tmotp.data import ISSUES, REGIONS, STATES

DEBATES = ("debate_first", "debate_round", "debate_side", "debate_award")


def parts(form: dict | None, view: dict) -> list[str]:
    """The template parts (templates/games/tmotp/web/) the decision ``form`` is about."""
    if not form or form.get("board") or form.get("kind") == "activity":
        return []
    out = []
    if form.get("step_name") in DEBATES and view.get("debate"):
        out.append("debate_board.html")
    words = {word for action in form.get("legal") or [] for word in action.split()}
    if words & set(STATES):
        out.append("map.html")
    elif words & set(REGIONS):
        out.append("media.html")
    elif words & set(ISSUES):
        out.append("issues.html")
    return out
