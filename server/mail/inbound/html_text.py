"""The text a person typed into an HTML mail: block elements as lines, quoted history left out
(its place marked by a ">" line), after the tags and classes of reply_markers.py."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from server.mail.inbound import reply_markers as markers

# Elements that start a new line (HTML Living Standard §15.3.3, "display: block" by default).
_BLOCKS = frozenset(
    "address article aside blockquote br center dd div dl dt figure footer form h1 h2 h3 h4 h5 h6"
    " header hr li main nav ol p pre section table tbody td th thead tr ul".split())

# A "<" that no ">" closes before the next "<" is text, not a tag. html.parser rescans to the
# end of the input for each one (quadratic: 128 Ki "<a" take a minute), so they are escaped first.
_UNCLOSED_LT = re.compile(r"<(?=[^<>]*(?:<|\Z))")

_SPACES = re.compile(r"[ \t\r\n\f]+")  # HTML's ASCII whitespace, not U+00A0 (&nbsp;)


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skipping: str | None = None  # the tag whose content is being left out
        self.depth = 0  # how many of that tag are open
        self.pre = 0
        self.stopped = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.stopped:
            return
        if self.skipping:
            self.depth += tag == self.skipping
            return
        values = dict(attrs)
        if values.get("id") in markers.HTML_STOP_IDS:
            self.stopped = True
            return
        classes = (values.get("class") or "").split()
        if tag in markers.HTML_SKIP_TAGS or markers.HTML_SKIP_CLASSES.intersection(classes):
            self.skipping, self.depth = tag, 1
            if tag in markers.HTML_QUOTE_TAGS or markers.HTML_QUOTE_CLASSES.intersection(classes):
                # The quote's place, as a plain-text reply marks it: a reply written below it
                # is then known as written below the quote (new_text.py).
                self.parts.append("\n>\n")
        if tag in _BLOCKS:
            self.parts.append("\n")
        self.pre += tag == "pre"

    def handle_endtag(self, tag: str) -> None:
        if self.stopped:
            return
        if self.skipping:
            if tag == self.skipping:
                self.depth -= 1
                if self.depth == 0:
                    self.skipping = None
            return
        if tag in _BLOCKS:
            self.parts.append("\n")
        if tag == "pre" and self.pre:
            self.pre -= 1

    def handle_data(self, data: str) -> None:
        if not (self.stopped or self.skipping):
            self.parts.append(data if self.pre else _SPACES.sub(" ", data))


def html_to_text(html: str) -> str:
    """The visible text of the HTML, one line per block, without quoted mail or markup."""
    parser = _Text()
    try:
        parser.feed(_UNCLOSED_LT.sub("&lt;", html))
        parser.close()
    except Exception:  # it asserts on broken "<![" sections (3.11); keep what was read
        pass
    return "".join(parser.parts)
