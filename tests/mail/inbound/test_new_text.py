"""The pieces of read_reply one rule each: where a reply's own text ends (new_lines), format=flowed
(unflow) and HTML bodies (html_to_text)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.mail.inbound.body import unflow
from server.mail.inbound.html_text import html_to_text
from server.mail.inbound.new_text import new_lines

ORDERS = ("campaign NY 2", "campaign OH 1")
HISTORY = "\n> Kennedy, it is your move.\n> campaign TX 3\n"


@pytest.mark.parametrize("end", [
    # Attribution lines.
    "On Tue, Nov 3, 2026 at 10:00 AM Whistlestop <r+42@whistlestop.example> wrote:",
    "On Tue, Nov 3, 2026 at 10:00 AM Whistlestop <\nr+42-kennedy@whistlestop.example> wrote:",
    "On Tuesday, November 3, 2026, 10:00:00 AM EST, Whistlestop\n<r+42@whistlestop.example>\n"
    "wrote:",
    "El lun, 3 nov 2026 a las 10:00, Whistlestop (<r+42@whistlestop.example>) escribió:",
    "El mar, 3 nov 2026 a las 10:00, Whistlestop (<\nr+42@whistlestop.example>) escribió:",
    "2026/11/03 10:00 に Whistlestop さんは書きました:",
    "Whistlestop さんは書きました：",
    "2026年11月3日(火) 10:00 Whistlestop <r+42@whistlestop.example>:",
    "2026年11月3日(火) 10:00 Whistlestop <\nr+42@whistlestop.example>:",
    "2026/11/03 10:00、Whistlestop <r+42@whistlestop.example>のメール:",
    "Am Di., 3. Nov. 2026 um 10:00 Uhr schrieb Whistlestop <r+42@whistlestop.example>:",
    "Le mar. 3 nov. 2026 à 10:00, Whistlestop <r+42@whistlestop.example> a écrit :",
    "Em ter., 3 de nov. de 2026 às 10:00, Whistlestop escreveu:",
    "Whistlestop wrote:",  # older Thunderbird, followed by quoted lines
    # Quoted-mail separators and header blocks.
    "-----Original Message-----\nFrom: Whistlestop\nSent: Tuesday, November 3, 2026 10:00",
    "-----Mensaje original-----",
    "________________________________\nFrom: Whistlestop <r+42@whistlestop.example>",
    "From: Whistlestop <r+42@whistlestop.example>\nSent: Tuesday, November 3, 2026 10:00 AM\n"
    "To: Alice",
    "*From:* Whistlestop <r+42@whistlestop.example>\n*Date:* Tue, Nov 3, 2026 at 10:00 AM",
    "De: Whistlestop <r+42@whistlestop.example>\nEnviado: martes, 3 de noviembre de 2026 10:00",
    "差出人: Whistlestop <r+42@whistlestop.example>\n送信日時: 2026年11月3日 10:00",
    "---------- Forwarded message ---------\nFrom: Whistlestop",
    "Begin forwarded message:",
    # Signatures and mobile footers.
    "-- \nAlice Player\nalice.example.com",
    "--\nAlice",
    "Sent from my iPhone",
    "Sent from my iPad",
    "Enviado desde mi iPhone",
    "iPhoneから送信",
    "Get Outlook for iOS",
    "Get Outlook for Android",
    "Sent from Outlook for Android",
    "Von meinem iPhone gesendet",
])
def test_reply_ends_at(end):
    text = "campaign NY 2\n   campaign OH 1  \n\n" + end + "\n" + HISTORY
    assert new_lines(text) == ORDERS


@pytest.mark.parametrize("text", [
    "campaign NY 2\nHere is what I wrote:\ncampaign OH 1",  # a person's "wrote:" is text
    "campaign NY 2\nFrom: my notes\ncampaign OH 1",  # one "From:" line is no header block
    "campaign NY 2\n-- not a signature\ncampaign OH 1",
    "campaign NY 2\n---\ncampaign OH 1",
    "campaign NY 2\nOn reflection\ncampaign OH 1",
])
def test_text_that_only_looks_like_an_end_is_kept(text):
    assert new_lines(text) == tuple(text.split("\n"))


def test_quoted_lines_are_dropped_wherever_they_stand():
    assert new_lines("> Your move?\ncampaign NY 2\n  > > old\ncampaign OH 1\n>") == ORDERS


def test_only_a_quote_leaves_nothing():
    assert new_lines("\n\nOn Tue, Whistlestop wrote:\n> campaign TX 3\n") == ()


def test_blank_and_invisible_whitespace_is_dropped_and_no_break_spaces_made_plain():
    text = "\ufeff\n \u00a0 \ncampaign\u00a0NY 2\u200b\n\t\n campaign\u202fOH 1 \n"
    assert new_lines(text) == ORDERS


def test_nothing_below_the_attribution_is_read():
    """Deliberate: bottom-posted text cannot be told from unmarked quoted history."""
    text = "On Tue, Whistlestop wrote:\n> Your move?\ncampaign NY 2\n"
    assert new_lines(text) == ()


# --- format=flowed (RFC 3676) ---------------------------------------------------------------

@pytest.mark.parametrize(("flowed", "delsp", "text"), [
    ("campaign in \nNew York\n", False, "campaign in New York\n"),
    ("a \nb \nc\nd\n", False, "a b c\nd\n"),
    ("日本語の \n文章\n", True, "日本語の文章\n"),  # §4.2 DelSp=yes: the soft-break space goes
    (" From here\n >not quoted\n", False, "From here\n>not quoted\n"),  # §4.4 space-stuffing
    ("-- \nAlice\n", False, "-- \nAlice\n"),  # §4.3 the signature line is not flowed
    ("> a \n> b\nc\n", False, "> a b\nc\n"),
    ("> a \nb\n", False, "> a \nb\n"),  # §4.5 a quote depth change ends the paragraph
    (">> a \n>> b \n", False, ">> a b \n"),
])
def test_unflow(flowed, delsp, text):
    assert unflow(flowed, delsp=delsp) == text


# --- HTML bodies ----------------------------------------------------------------------------

@pytest.mark.parametrize(("html", "text"), [
    ("<div>campaign NY 2</div><div>campaign OH 1</div>", "campaign NY 2\ncampaign OH 1"),
    ("campaign NY 2<br>campaign\n  OH 1<br/>", "campaign NY 2\ncampaign OH 1"),
    ("<p>a &amp; b &lt;c&gt; &#233;t&eacute;</p>", "a & b <c> été"),
    ("<style>p {color: red}</style><script>x()</script><title>T</title>a", "a"),
    ("a<blockquote type=cite>old<blockquote>older</blockquote>still old</blockquote>b", "a\nb"),
    ('a<div class="gmail_quote"><div>x</div>quoted</div>b', "a\nb"),
    ('a<div class="moz-signature">-- <br>Alice</div>', "a"),
    ('a<div id="appendonsend"></div><div>campaign TX 3</div>', "a"),
    ('a<hr><div id="divRplyFwdMsg"><b>From:</b> W</div><p>campaign TX 3</p>', "a"),
    ("<pre>campaign  NY 2\ncampaign OH 1</pre>", "campaign  NY 2\ncampaign OH 1"),
    ("<table><tr><td>a</td><td>b</td></tr></table>", "a\nb"),
    ("a<div class=gmail_quote>unclosed", "a"),
    ("a<!-- comment -->b<![if !supportLists]>c<![endif]>", "abc"),
])
def test_html_to_text(html, text):
    assert "\n".join(filter(None, (line.strip() for line in html_to_text(html).split("\n")))) \
        == text


@given(st.text(alphabet=st.sampled_from(list("<>/!-[]=\"' abdivpreclass&#;x\n")), max_size=200))
def test_html_to_text_never_raises(html):
    assert isinstance(html_to_text(html), str)


@given(st.text(max_size=300), st.booleans())
def test_unflow_keeps_every_character_but_breaks_stuffing_and_soft_spaces(text, delsp):
    out = unflow(text.replace("\r", ""), delsp=delsp)
    assert set(out) <= set(text) | {"\n", " ", ">"}


def test_classic_outlook_html_ends_at_its_from_and_sent_lines():
    html = ('<p class=MsoNormal>campaign NY 2</p><p class=MsoNormal>campaign OH 1</p>'
            '<div style="border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0in 0in 0in">'
            '<p class=MsoNormal><b>From:</b> Whistlestop &lt;r+42@whistlestop.example&gt;<br>'
            '<b>Sent:</b> Tuesday, November 3, 2026 10:00 AM<br><b>To:</b> Bob</p></div>'
            '<p class=MsoNormal>campaign TX 3</p>')
    assert new_lines(html_to_text(html)) == ORDERS
