"""A resolved simultaneous step is not said to reveal what stays hidden (issue 46, item 4):
1960's Campaign Strategy cards and Mr. President's face-down cards are resolved, not shown, so
neither the "step resolved" mail of either game nor the mail settings' name of that kind says
the choices are revealed, in any language."""

from __future__ import annotations

import re

import pytest

from server import i18n
from server.i18n import gettext
from server.mail import kinds, render
from tests.mail.test_templates import contexts_by_kind

# "revealed" in each language, as the catalogues wrote it.
REVEALED = {"en": re.compile(r"\breveal", re.I), "ja": re.compile("公開"),
            "es": re.compile(r"revel", re.I)}


@pytest.mark.parametrize("locale", i18n.LOCALES)
def test_the_step_resolved_kind_is_not_named_revealed(locale):
    label = gettext(kinds.INFORMATIONAL["step_resolved"], locale)
    assert not REVEALED[locale].search(label), label


@pytest.mark.parametrize("locale", i18n.LOCALES)
def test_no_step_resolved_mail_says_the_choices_are_revealed(locale):
    found = {name: context for name, context in contexts_by_kind(locale).items()
             if name.split("-")[0] == "step_resolved"}
    assert len(found) >= 2, sorted(found)  # 1960's and Mr. President's
    for name, context in found.items():
        rendered = render.render("step_resolved", context, locale)
        headline = rendered.text.split("\n\n")[0] + rendered.subject
        first = [line for line in rendered.text.splitlines() if line.strip()][:3]
        assert not REVEALED[locale].search(" ".join(first) + headline), (name, first)
