"""A decision of the game page answered by taps and clicks only (issue 47, "Must show"): no
fill, no type, no keyboard. Each step is a ``click`` on what a finger would touch (a choice's
label, a state tile of the map, a +, a box to tick, Send), counted. Used by
tests/web/test_browser_taps_only.py and bench/phone_paint.py (the taps a 1960 turn takes).

The planners (Campaigning, support placement, Positioning, Advertising) are spent by taps on
the board while the page's running total says something is left (``[data-sum=left]``); a tap
that would overspend (the total's warning shows) is taken back with the row's −, and that place
is left alone from then on. Whatever is left unspent is given up with the "then stop" box when
the form has one. The engine judges the plan when it is sent, as always.
"""

from __future__ import annotations

from dataclasses import dataclass

ASKED = "section.decision .ask > form.decision-form"   # not the sealed choice's "change" form
FORCED = "section.decision .ask > form.forced button[type=submit]"
MAX_TAPS = 60  # taps on one plan before giving up (a plan of 10 CP takes about 12)

# Where the board part a decision needs sits, by the form's kind: the first one shown counts.
BOARD_PART = {
    "activity": [".decision-form .faces", ".decision-form .face"],
    "picks": [".decision-form .faces", ".decision-form .face"],
    "cards": [".decision-form .faces"],
    "card": [".decision-form .face"],
    "campaigning": [".decision-form .tap-map", "#map-h"],
    "placement": [".decision-form .tap-map", "#map-h"],
    "positioning": [".decision-form .rows"],
    "advertising": [".decision-form .rows"],
    "choices": [".decision-form"],
    "forced": ["form.forced"],
    "mrpresident": ["#round-focus-h", "#score-h"],
}


class NotByTaps(AssertionError):
    """The page does not let this decision be made by taps."""


@dataclass
class Answered:
    kind: str
    taps: int
    refused: str | None = None   # the page's refusal, if the order was refused
    note: str = ""               # a planner's: what the taps placed, and what was left


def _shown(locator) -> list:
    return [locator.nth(i) for i in range(locator.count()) if locator.nth(i).is_visible()]


def _left(form) -> int | None:
    """What the running total says is left, or None when it shows no such count."""
    out = form.locator("[data-sum=left]")
    if not out.count() or not out.first.is_visible():
        return None
    text = out.first.text_content().strip().replace("−", "-")
    try:
        return int(text)
    except ValueError:
        return None


def _over(form) -> bool:
    over = form.locator(".plan-total .over")
    return bool(over.count()) and over.first.is_visible()


def kind_shown(page) -> str | None:
    """The kind of decision form the page asks now ("forced" for a lone "Go on"), or None."""
    if page.locator(FORCED).count():
        return "forced"
    form = page.locator(ASKED)
    return form.get_attribute("data-kind") if form.count() else None


def answer(page, rng) -> Answered | None:
    """Answer the decision the page shows by taps (a random choice where there is one); None
    when the page asks nothing. The page is the answer's page afterwards."""
    taps = 0

    def tap(locator) -> None:
        nonlocal taps
        locator.click()
        taps += 1

    if page.locator(FORCED).count():
        with page.expect_navigation():
            tap(page.locator(FORCED))
        return Answered("forced", taps)
    form = page.locator(ASKED)
    if not form.count():
        return None
    kind = form.get_attribute("data-kind")
    note = ""
    if kind in ("campaigning", "placement"):
        taps += _spend(form, rng, "g.target",
                       lambda code: form.locator(f'.tapped li[data-for="{code}"] button.less'),
                       "data-state")
    elif kind in ("positioning", "advertising"):
        taps += _spend(form, rng, ".rows li[data-code]",
                       lambda code: form.locator(f'.rows li[data-code="{code}"] button.less'),
                       "data-code", plus=True)
    if kind in ("campaigning", "placement", "positioning", "advertising"):
        note = _plan_note(form)
    elif kind == "cards":
        sizes = [int(n) for n in (form.locator("fieldset[data-sizes]").get_attribute(
            "data-sizes") or "").split() if n.isdigit()]
        boxes = _shown(form.locator('label:has(input[name="card"])'))
        n = max([s for s in sizes if s <= len(boxes)] or [0])
        if n:
            for label in rng.sample(boxes, n):
                tap(label)
        else:
            radios = _shown(form.locator('label:has(input[type="radio"][name="action"])'))
            if not radios:
                raise NotByTaps(f"{kind}: nothing to tick or choose")
            tap(rng.choice(radios))
    else:   # activity, card, picks, choices, Mr. President's rounds: one choice
        radios = _shown(form.locator('label:has(input[type="radio"][name="action"])'))
        if not radios:
            raise NotByTaps(f"{kind}: no choice to tap")
        tap(rng.choice(radios))
    with page.expect_navigation():
        tap(form.locator("button[type=submit]").last)
    page.wait_for_load_state()
    refused = page.locator("p.refused[role=alert]")
    return Answered(kind, taps, refused.first.text_content() if refused.count() else None,
                    note)


def _plan_note(form) -> str:
    """What the running total says before sending: "spent 3, left 0"."""
    got = form.evaluate("""f => Object.fromEntries([...f.querySelectorAll('[data-sum]')]
      .map(o => [o.dataset.sum, o.textContent.trim()]))""")
    return ", ".join(f"{k} {v}" for k, v in got.items())


def _spend(form, rng, target: str, less, code_attr: str, plus: bool = False) -> int:
    """Tap the planner's targets until nothing is left; the taps made."""
    targets = _shown(form.locator(target))
    if not targets:
        raise NotByTaps(f"{form.get_attribute('data-kind')}: no place to tap on the page")
    rng.shuffle(targets)
    taps, spent_any = 0, False
    budget = _left(form)
    while targets and taps < MAX_TAPS:
        left = _left(form)
        if left is not None and left <= 0:
            break
        here = targets[0]
        code = here.get_attribute(code_attr)
        button = here.locator("button.more") if plus else here
        before = _left(form)
        button.click()
        taps += 1
        if _over(form):
            less(code).click()
            taps += 1
            targets.pop(0)
            continue
        after = _left(form)
        if after is not None and after == before:    # this place takes no more
            targets.pop(0)
            continue
        spent_any = True
        if budget is None:   # no count of what is left: one cube is an answer
            break
    stop = form.locator('label:has(input[name="stop"])')
    if stop.count() and stop.first.is_visible() and (_left(form) or 0) > 0:
        stop.first.click()
        taps += 1
    if not spent_any and not (stop.count() and stop.first.is_visible()):
        raise NotByTaps(f"{form.get_attribute('data-kind')}: no tap could spend anything")
    return taps


def top_of(page, kind: str) -> float | None:
    """The page-top of the first board part the decision ``kind`` needs that is shown (px from
    the document's top), or None when none is."""
    return page.evaluate("""(sels) => {
      for (const s of sels) {
        for (const e of document.querySelectorAll(s)) {
          const r = e.getBoundingClientRect();
          if (r.height > 0 && !e.closest('[hidden]')) return r.top + window.scrollY;
        }
      }
      return null;
    }""", BOARD_PART.get(kind, BOARD_PART["choices"]))
