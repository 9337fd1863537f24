"""Every mail kind, in every language, as a 390 px phone shows it in real headless Chromium: no
horizontal scrolling (long words, links and the seed hash wrap) and every link at least 44 px
high, the size a finger can tap. The mails are the golden mails' (test_templates.py); a
screenshot of each is left in test-artifacts/screenshots/mail-<kind>.<locale>.png."""

from __future__ import annotations

import pytest

from server import i18n
from server.mail import render
from tests.mail.test_templates import contexts_by_kind
from tests.web.browser import browser, screenshot  # noqa: F401  (fixture)

PHONE = {"width": 390, "height": 844}
TAP = 44  # px: the least height of a link (WCAG 2.5.5, Apple's and Google's guidelines)

# What overflows the phone's width, and which links are too small to tap.
MEASURE = """() => {
  const width = document.documentElement.clientWidth;
  const wide = [...document.querySelectorAll('body *')]
    .filter(e => e.getBoundingClientRect().right > width + 0.5)
    .map(e => e.tagName + ' ' + (e.textContent || '').trim().slice(0, 60));
  const small = [...document.querySelectorAll('a')]
    .filter(a => a.getBoundingClientRect().height < %d)
    .map(a => Math.round(a.getBoundingClientRect().height) + 'px ' + a.textContent.trim().slice(0, 60));
  return {scroll: document.documentElement.scrollWidth, width, wide, small,
          links: document.querySelectorAll('a').length};
}""" % TAP


@pytest.mark.parametrize("locale", i18n.LOCALES)
def test_every_mail_kind_fits_a_phone_with_tap_sized_links(browser, locale):  # noqa: F811
    page = browser.new_page(viewport=PHONE)
    kinds, problems, links = set(), [], 0
    for name, context in contexts_by_kind(locale).items():
        kind = name.split("-")[0]
        kinds.add(kind)
        page.set_content(render.render(kind, context, locale).html)
        found = page.evaluate(MEASURE)
        links += found["links"]
        if found["scroll"] > found["width"] or found["wide"]:
            problems.append((name, "wider than the phone", found["scroll"], found["wide"][:3]))
        if found["small"]:
            problems.append((name, "links under 44 px", found["small"][:3]))
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
