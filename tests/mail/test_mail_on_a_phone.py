"""Every mail kind, in every language, as a 390 px phone shows it in real headless Chromium: no
horizontal scrolling (long words, links and the seed hash wrap), every link at least 44 px
high, the size a finger can tap, and no seat's name broken across lines (ケネデ/ィ: a table
squeezed to the phone's width may break a word anywhere). The mails are the golden mails'
(test_templates.py); a screenshot of each is left in
test-artifacts/screenshots/mail-<kind>.<locale>.png."""

from __future__ import annotations

import pytest

import engine.games as engine_games
from server import i18n
from server.games import presenter
from server.mail import render
from tests.mail.test_templates import contexts_by_kind
from tests.web.browser import browser, screenshot  # noqa: F401  (fixture)

PHONE = {"width": 390, "height": 844}
TAP = 44  # px: the least height of a link (WCAG 2.5.5, Apple's and Google's guidelines)

# What overflows the phone's width, which links are too small to tap, and which of ``names``
# (words: a seat's name, each word of it) in a table's cell is broken across lines: its letters
# on more than one line (in a paragraph a Japanese line may end inside a word, as Japanese is
# set; a table's label may not). Without ``names`` (other callers), no word is looked for.
MEASURE = """(names) => {
  const width = document.documentElement.clientWidth;
  const wide = [...document.querySelectorAll('body *')]
    .filter(e => e.getBoundingClientRect().right > width + 0.5)
    .map(e => e.tagName + ' ' + (e.textContent || '').trim().slice(0, 60));
  const small = [...document.querySelectorAll('a')]
    .filter(a => a.getBoundingClientRect().height < %d)
    .map(a => Math.round(a.getBoundingClientRect().height) + 'px ' + a.textContent.trim().slice(0, 60));
  const broken = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.parentElement.closest('td, th')) continue;
    for (const name of names || []) {
      for (let at = node.data.indexOf(name); at >= 0; at = node.data.indexOf(name, at + 1)) {
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + name.length);
        const tops = new Set([...range.getClientRects()].filter(r => r.width > 0)
                             .map(r => Math.round(r.top)));
        if (tops.size > 1) broken.push(name + ' in ' + node.data.trim().slice(0, 40));
      }
    }
  }
  return {scroll: document.documentElement.scrollWidth, width, wide, small, broken,
          links: document.querySelectorAll('a').length};
}""" % TAP


def name_words(locale: str) -> list[str]:
    """Every word of every built-in game's seat names in ``locale`` (a break between two words
    of a name is a line's end; one inside a word is a broken name)."""
    return sorted({word for game in engine_games.GAMES
                   for name in presenter(game).seat_names(locale).values()
                   for word in name.split() if len(word) > 1})


@pytest.mark.parametrize("locale", i18n.LOCALES)
def test_every_mail_kind_fits_a_phone_with_tap_sized_links(browser, locale):  # noqa: F811
    page = browser.new_page(viewport=PHONE)
    kinds, problems, links = set(), [], 0
    for name, context in contexts_by_kind(locale).items():
        kind = name.split("-")[0]
        kinds.add(kind)
        page.set_content(render.render(kind, context, locale).html)
        found = page.evaluate(MEASURE, name_words(locale))
        links += found["links"]
        if found["scroll"] > found["width"] or found["wide"]:
            problems.append((name, "wider than the phone", found["scroll"], found["wide"][:3]))
        if found["small"]:
            problems.append((name, "links under 44 px", found["small"][:3]))
        if found["broken"]:
            problems.append((name, "a name broken across lines", found["broken"][:3]))
        if name == kind:
            screenshot(page, f"mail-{name}.{locale}")
    assert kinds == set(render.KINDS), f"kinds not measured: {set(render.KINDS) - kinds}"
    assert links > 100  # the measure sees the links: every decision mail has some
    assert not problems, problems


def test_the_measure_sees_a_mail_too_wide_and_a_link_too_small(browser):  # noqa: F811
    page = browser.new_page(viewport=PHONE)
    page.set_content('<p style="white-space: nowrap">' + "x" * 400 + '</p><a href="#">tiny</a>'
                     '<table><tr><td style="white-space: nowrap">' + "y " * 300 + '</td></tr>'
                     '</table>')
    found = page.evaluate(MEASURE)
    assert found["scroll"] > 390 and len(found["small"]) == 1 and found["small"][0].endswith("px tiny")
    assert any(w.startswith("TABLE") for w in found["wide"])


def test_the_measure_sees_a_name_broken_across_lines(browser):  # noqa: F811
    assert {"Kennedy", "ケネディ"} <= set(name_words("en")) | set(name_words("ja"))
    page = browser.new_page(viewport=PHONE)
    page.set_content('<table style="width: 30px"><tr><td style="overflow-wrap: anywhere">'
                     'ケネディ 2</td><td>Kennedy 3</td></tr></table>'
                     '<table><tr><td>ケネディ 2 and Kennedy 3, whole</td></tr></table>'
                     '<p style="width: 30px">ケネディは、a paragraph set as Japanese is</p>')
    found = page.evaluate(MEASURE, ["Kennedy", "ケネディ"])
    assert found["broken"] == ["ケネディ in ケネディ 2"]
