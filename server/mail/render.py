"""Render a mail from its templates: `templates/email/<kind>.txt` and `<kind>.html`, each
extending a base layout and defining a `subject` block; the HTML's stylesheet is inlined
(css-inline), as many mail clients ignore <style>; only the dark colour scheme's @media rules
stay in one (they cannot be inlined, and inline styles outrank them unless ``!important``). Text
is translated with Babel catalogues (server/i18n), by the recipient's locale.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache, partial
from pathlib import Path

import css_inline
from jinja2 import Environment, StrictUndefined, select_autoescape

from server.games.templates import GameTemplates
from server.i18n import quoted, supported, translations

TEMPLATES = Path(__file__).resolve().parents[2] / "templates" / "email"
KINDS = ("invitation", "seat_joined", "game_started", "your_decision", "game_over",
         "order_received", "order_refused", "reply_unknown", "reply_foreign", "reminder",
         "deadline_passed", "step_resolved", "digest", "sign_in", "webhook_disabled",
         "not_reached", "unsubscribed", "pause", "extension", "rematch", "table_talk",
         "chat_report", "chat_answer", "absence", "absence_invitation")

# Every rule inlined, but the at-rules (the dark colour scheme's @media) kept in a <style>: they
# cannot be inlined, and the clients that read them (Apple Mail, iOS, Outlook.com) apply them.
_INLINER = css_inline.CSSInliner(keep_style_tags=False, keep_at_rules=True)


@dataclass(frozen=True)
class Rendered:
    subject: str
    text: str
    html: str


class _MailEnvironment(Environment):
    """Jinja's environment, its ``a.b`` looking in a dict first: the mails' contexts are
    dicts, and Jinja tries an attribute first (an AttributeError raised and caught for every
    ``st.code`` of the 50-state table) — a tenth of a decision mail's rendering. Anything not
    a key of a dict (``d.items``) is looked up as Jinja does."""

    def getattr(self, obj, attribute):
        if type(obj) is dict:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


@lru_cache(maxsize=None)
def environment(locale: str) -> Environment:
    env = _MailEnvironment(loader=GameTemplates(TEMPLATES, "email"), undefined=StrictUndefined,
                      autoescape=select_autoescape(enabled_extensions=("html",),
                                                   default_for_string=False),
                      extensions=["jinja2.ext.i18n"], trim_blocks=True, lstrip_blocks=True,
                      keep_trailing_newline=True,
                      # Templates are read once per process: no stat of every template and
                      # partial at every mail (a changed template needs a restart).
                      auto_reload=False)
    env.install_gettext_translations(translations(locale), newstyle=True)
    env.filters["quoted"] = partial(quoted, locale=locale)
    return env


def render(kind: str, context: dict, locale: str = "en") -> Rendered:
    """Subject, plain text and HTML (CSS inlined) of one mail."""
    if kind not in KINDS:
        raise ValueError(f"no mail templates for {kind!r}")
    env = environment(supported(locale))
    text_template = env.get_template(f"{kind}.txt")
    html_template = env.get_template(f"{kind}.html")
    ctx = text_template.new_context(dict(context))
    subject = "".join(text_template.blocks["subject"](ctx)).strip()
    text = text_template.render(context)
    html = _INLINER.inline(html_template.render(context))
    return Rendered(" ".join(subject.split()), text, html)
