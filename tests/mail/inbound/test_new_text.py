"""The pieces of read_reply one rule each: where a reply's own text ends (new_lines), format=flowed
(unflow) and HTML bodies (html_to_text)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.mail.inbound.body import unflow
from server.mail.inbound.html_text import html_to_text
from server.mail.inbound.new_text import new_lines, read_new_text

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


def test_nothing_below_an_unmarked_quote_is_read():
    """Deliberate: text below a quote not marked with ">" cannot be told from quoted history."""
    for text in ("On Tue, Whistlestop wrote:\nYour move?\ncampaign NY 2\n",
                 "\n-----Original Message-----\nFrom: W\nSent: Tue\n\ncampaign TX 3\n",
                 "From: W <r+42@whistlestop.example>\nSent: Tue\n\ncampaign TX 3\n",
                 "-- \nAlice\ncampaign NY 2\n"):
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
    # A quote's place is marked with a ">" line, as plain text marks it.
    ("a<blockquote type=cite>old<blockquote>older</blockquote>still old</blockquote>b",
     "a\n>\nb"),
    ('a<div class="gmail_quote"><div>x</div>quoted</div>b', "a\n>\nb"),
    ('a<div class="moz-signature">-- <br>Alice</div>', "a"),
    ('a<div id="appendonsend"></div><div>campaign TX 3</div>', "a"),
    ('a<hr><div id="divRplyFwdMsg"><b>From:</b> W</div><p>campaign TX 3</p>', "a"),
    ("<pre>campaign  NY 2\ncampaign OH 1</pre>", "campaign  NY 2\ncampaign OH 1"),
    ("<table><tr><td>a</td><td>b</td></tr></table>", "a\nb"),
    ("a<div class=gmail_quote>unclosed", "a\n>"),
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


# --- full-width and compatibility characters (NFKC) -------------------------------------------

@pytest.mark.parametrize(("written", "read"), [
    ("ｐｌａｙ　３", "play 3"),  # full-width letters, ideographic space, full-width digit
    ("ｃａｍｐａｉｇｎ　ＮＹ　２", "campaign NY 2"),
    ("play ３ １２", "play 3 12"),
    ("ｓｔａｎｄｉｎｇ　ｔｒｉｇｇｅｒ　ｈｅｌｐｓ＿ｍｅ", "standing trigger helps_me"),
    ("play\u00a03", "play 3"),  # a no-break space
    ("ﾌﾟﾚｲ", "プレイ"),  # half-width katakana made full-width
])
def test_full_width_and_compatibility_characters_read_as_the_notations(written, read):
    assert new_lines(f"{written}\n\n2026年11月3日(火) 10:00 Whistlestop <r+42@x>：\n> old\n") \
        == (read,)


# --- attributions in the languages players write in ---------------------------------------

@pytest.mark.parametrize("attribution", [
    "On Tue, Nov 3, 2026 at 10:00 AM Whistlestop <r+42@whistlestop.example>wrote:",
    "--- On Tue, 11/3/26, Whistlestop <r+42@whistlestop.example> wrote:",  # Yahoo classic
    "---- On Tue, 03 Nov 2026 10:00:00 +0900 r+42@whistlestop.example wrote ----",  # Zoho
    "Am Di., 3. Nov. 2026 um 10:00 Uhr schrieb Whistlestop <\nr+42@whistlestop.example>:",
    "Le mar. 3 nov. 2026 à 10:00, Whistlestop <r+42@whistlestop.example>\na écrit :",
    "El mar., 3 nov. 2026 a las 10:00, Whistlestop (<r+42@whistlestop.example>)\nescribió:",
    "Em ter., 3 de nov. de 2026 às 10:00, Whistlestop (\nr+42@whistlestop.example) escreveu:",
    "In data 3 novembre 2026 10:00:00 Whistlestop <r+42@x> ha scritto:",
    "вт, 3 нояб. 2026 г. в 10:00, Whistlestop <r+42@whistlestop.example>:",  # Russian Gmail
    "03.11.2026 10:00 пользователь Whistlestop <\nr+42@whistlestop.example> написал:",
    "3 нояб. 2026 г., в 10:00, Whistlestop <r+42@x> написал(а):",  # Russian Apple Mail
    "2026年11月3日周二 上午10:00 Whistlestop <r+42@whistlestop.example> 写道：",  # Chinese
    "在 2026年11月3日，上午10:00，Whistlestop <r+42@x> 写道：",
    "Whistlestop <r+42@x> 在 2026年11月3日 周二 10:00 写道：",
    "tir. 3. nov. 2026 kl. 10:00 skrev Whistlestop <r+42@whistlestop.example\n>:",
    "26.06.2014, 14:41, \"Whistlestop\" <r+42@whistlestop.example>:",  # Yandex
])
def test_reply_ends_at_the_attribution_in_any_language(attribution):
    text = "campaign NY 2\ncampaign OH 1\n\n" + attribution + "\n" + HISTORY
    assert new_lines(text) == ORDERS


@pytest.mark.parametrize("separator", [
    "-------- Original Message --------",  # Proton Mail, Thunderbird
    "----- Original Message -----",  # Yahoo, Zimbra
    "-----Ursprüngliche Nachricht-----",
    "-----Message d'origine-----",
    "-----Mensagem original-----",
    "——————————————————————————————",  # a rule over a Chinese signature
    "*From:* Whistlestop\n*Sent:* Tuesday",
    "De: Whistlestop\nEnviada em: terça-feira, 3 de novembro de 2026 10:00",
    "Von: Whistlestop\nGesendet: Dienstag, 3. November 2026 10:00",
    "От: Whistlestop\nОтправлено: 3 ноября 2026 г. 10:00",
    "发件人: Whistlestop\n发送时间: 2026年11月3日 10:00",
    "Date: Tue, 3 Nov 2026 10:00:00 +0900\nSubject: Your move",  # Hotmail's block
])
def test_reply_ends_at_the_quoted_mails_separator_or_header(separator):
    text = "campaign NY 2\ncampaign OH 1\n" + separator + "\ncampaign TX 3\n"
    assert new_lines(text) == ORDERS


# --- client footers -----------------------------------------------------------------------

@pytest.mark.parametrize("footer", [
    "Get Outlook for iOS<https://aka.ms/o0ukef>",
    "Get Outlook for Android<https://aka.ms/ghei36>",
    "Download Outlook for Android",
    "Sent from Proton Mail for Android",
    "Sent from Proton Mail for iOS.",
    "Sent with Proton Mail secure email.",
    "Envoyé à partir de Outlook pour iOS<https://aka.ms/o0ukef>",
    "Obtenir Outlook pour Android",
    "Gesendet von Outlook für Android<https://aka.ms/AAb9ysg>",
    "Outlook für iOS beziehen<https://aka.ms/o0ukef>",
    "Obtener Outlook para iOS<https://aka.ms/o0ukef>",
    "Enviado desde Outlook para Android",
    "Obter o Outlook para iOS<https://aka.ms/o0ukef>",
    "Скачать Outlook для Android",
    "Отправлено с iPhone",
    "iOS 版 Outlook を入手",
    "iPhoneから送信",
    "获取 Outlook for iOS",
    "发自我的iPhone",
    "Sent from TypeApp<http://www.typeapp.com/r?b=2621>",
    "Sent from Yahoo Mail on Android",
])
def test_reply_ends_at_a_client_footer(footer):
    assert new_lines("campaign NY 2\ncampaign OH 1\n\n" + footer + "\n\ncampaign TX 3\n") == ORDERS


def test_a_footer_like_sentence_is_text():
    text = "campaign NY 2\nSent from my desk, is much easier then my mobile phone."
    assert new_lines(text) == tuple(text.split("\n"))


# --- sign-offs without "-- " ----------------------------------------------------------------

@pytest.mark.parametrize("sign_off", [
    "Thanks,\nAlice", "Thanks!", "Thank you,\nAlice Player\nalice@example.com", "Cheers,",
    "Cheers, Bob", "Best regards,\n\nAlice Player\nCEO @ Acme !", "Saludos,\nAna", "Saludos",
    "Gracias", "Un saludo", "Mit freundlichen Grüßen\nMax Mustermann", "Viele Grüße", "Merci",
    "Cordialement,\nJean", "Obrigado!", "Спасибо!", "С уважением,\nИван", "よろしくお願いします",
    "以上、よろしくお願いいたします", "谢谢！", "Med venlig hilsen / Kind regards\n\nTim\nCEO",
])
def test_a_sign_off_closing_the_reply_is_not_read(sign_off):
    assert new_lines("campaign NY 2\ncampaign OH 1\n\n" + sign_off + "\n") == ORDERS


@pytest.mark.parametrize("text", [
    "Thanks!\ncampaign NY 2\ncampaign OH 1",  # a sign-off word above orders is text
    "campaign NY 2\nThanks,\ncampaign OH 1",
])
def test_a_sign_off_word_above_orders_is_read(text):
    assert new_lines(text) == tuple(text.split("\n"))


@pytest.mark.parametrize(("name", "read"), [
    ("Alice", ("Alice",)), ("Bob Smith", ("Bob Smith",)), ("J.", ("J.",)),
    ("-Abhishek Kona", ("-Abhishek Kona",)), ("— A.", ("— A.",)), ("田中", ("田中",)),
    ("Pass", ("Pass",)),  # an order capitalised, or a name: replies.py asks the game
    ("pass", ()), ("Bob Smith Jr Esq", ()), ("Campaign NY 2", ()),
])
def test_a_lone_name_or_initial_at_the_end_is_kept_apart(name, read):
    reading = read_new_text("campaign NY 2\ncampaign OH 1\n" + name + "\n")
    assert reading.closing == read
    assert reading.lines == (ORDERS if read else ORDERS + (name,))


def test_a_lone_line_is_never_taken_for_a_name():
    assert read_new_text("Pass\n").lines == ("Pass",)


# --- bottom-posting -------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "On Tue, Nov 3, 2026 at 10:00 AM Whistlestop <r+42@x> wrote:\n> Your move?\n> campaign TX 3\n"
    "\ncampaign NY 2\ncampaign OH 1\n",
    "\n\nOn Tue, Nov 3, 2026 at 10:00 AM Whistlestop <\nr+42@x> wrote:\n\n> campaign TX 3\n>\n"
    "campaign NY 2\ncampaign OH 1\n\n-- \nAlice\n",
    "> On Tue, Nov 3, 2026, Whistlestop wrote:\n> campaign TX 3\n\ncampaign NY 2\ncampaign OH 1\n",
    "2026年11月3日(火) 10:00 Whistlestop <r+42@x>:\n> campaign TX 3\nｃａｍｐａｉｇｎ　ＮＹ　２\n"
    "campaign OH 1\nよろしくお願いします\n",
])
def test_a_reply_below_a_marked_quote_is_read_when_nothing_stands_above_it(text):
    assert new_lines(text) == ORDERS


def test_a_reply_below_an_html_quote_is_read():
    html = ('<div class="gmail_quote">On Tue, Whistlestop wrote:<blockquote>campaign TX 3'
            '</blockquote></div><div>campaign NY 2</div><div>campaign OH 1</div>')
    assert new_lines(html_to_text(html)) == ORDERS


def test_text_above_the_quote_wins_over_text_below_it():
    text = "campaign NY 2\ncampaign OH 1\nOn Tue, Whistlestop wrote:\n> q\ncampaign TX 3\n"
    assert new_lines(text) == ORDERS


def test_a_reply_below_a_wrapped_attribution_known_by_its_verb_is_read():
    text = ("03.11.2026 10:00 пользователь Whistlestop <\nr+42@whistlestop.example> написал:\n"
            "> campaign TX 3\n\ncampaign NY 2\ncampaign OH 1\n")
    assert new_lines(text) == ORDERS
