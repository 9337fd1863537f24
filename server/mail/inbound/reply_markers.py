"""The one table of what mail programs write around a person's reply: attribution lines, quoted
mail separators and header blocks, client footers, sign-offs and the HTML that holds quotes.

server/mail/inbound/new_text.py reads a reply with these; nothing else in the reader names a
mail program or a language. The patterns are matched against single stripped lines already
NFKC-normalised (full-width colons are ":"), each at most new_text's _LONGEST characters, so
none can cost more than a line's length squared.

Why hand-written rather than a library. mail-parser-reply 1.36 (alfonsrv, MIT) was evaluated
as the maintained multi-language candidate and quotequail 0.5.4 (MIT) as the second:

- mail-parser-reply's table has no Russian or Portuguese and knows Japanese only in Gmail's
  form; it has none of the translated Outlook mobile footers, and keeps ">" quoted lines in
  the text when no attribution names them (we drop them wherever they stand).
- It matches whole bodies with patterns such as ``On\\s(.+?\\s?.+?)\\swrote:`` under a
  negative look-ahead: a 48 KB line of "On On On ..." takes 100 s (4 KB: 6 s), and our reader
  must stay linear on hostile mail (tests/mail/inbound/test_read_reply.py::
  test_hostile_lines_are_read sends 600 KB of it).
- Its signature rule cuts at any line starting "- " and everything after it, which would drop
  order lines written as a list.
- quotequail splits quoted from new text but has no signatures, footers or sign-offs, and
  neither Japanese (but Gmail's form) nor Chinese.

So the reader stays ours, and this table borrows their patterns, with credit: mail-parser-reply
``MAIL_LANGUAGES`` (wrote_header, from_header, signatures, sent_from), quotequail
``REPLY_PATTERNS``/``FORWARD_MESSAGES``/``HEADER_MAP`` (both MIT), crisp-oss/email-reply-parser
``lib/regex.ts`` (MIT) and talon's quotation markers (mailgun/talon, Apache-2.0).
"""

from __future__ import annotations

import re

# --- Attribution lines ("On ... wrote:") ------------------------------------------------------
# (how the first line starts, the whole attribution). Gmail wraps a long one over two or three
# lines, so the whole is matched on up to three lines joined when the first starts like one.
ATTRIBUTIONS = [
    # Gmail, Apple Mail, Thunderbird, Yahoo, Outlook mobile; old Gmail wrote "<a@b>wrote:"
    (r"On\s", r"On\s.+(\s|>)wrote\s?:"),
    # Yahoo's "--- On Mon, 1/2/12, Bob <b@x> wrote:" and Zoho's "---- On ... wrote ----"
    (r"-{2,}\s?On\s", r"-{2,}\s?On\s.+\swrote\s?:?(\s?-{2,})?"),
    (r"El\s", r"El\s.+\sescribió\s?:"),  # Spanish
    (r"Am\s", r"Am\s.+\sschrieb\s?.*:"),  # German: "Am ... schrieb X:", "Am ... um 10:00 schrieb"
    (r"Le\s", r"Le\s.+\sa\sécrit\s?:"),  # French
    (r"Em\s", r"Em\s.+\sescreveu\s?:"),  # Portuguese
    (r"(Il|In data)\s", r"(Il|In data)\s.+\sha\sscritto\s?:"),  # Italian
    (r"Op\s", r"Op\s.+\sschreef\s?.*:"),  # Dutch
    # Norwegian and Danish Gmail: "tir. 18. apr. 2017 kl. 13:09 skrev Test user <t@x>:"
    (r"[a-zæøå]{3,4}\.\s\d", r"[a-zæøå]{3,4}\.\s.+\sskrev\s.+:"),
    # Japanese Gmail: "2026年11月3日(火) 10:00 Whistlestop <r+42@...>:"
    (r"\d{4}年", r"\d{4}年\d{1,2}月\d{1,2}日[^:]*\d{1,2}:\d{2}.*:"),
    # Japanese Apple Mail: "2026/11/03 10:00、Whistlestop <r+42@...>のメール:"
    (r"\d{4}/\d{1,2}/\d{1,2}", r"\d{4}/\d{1,2}/\d{1,2}.*のメ(ール|ッセージ)\s?:"),
    # Russian Gmail, which names no verb: "ср, 30 апр. 2025 г. в 15:19, John Doe <doe@x>:"
    (r"(пн|вт|ср|чт|пт|сб|вс),\s\d",
     r"(пн|вт|ср|чт|пт|сб|вс),\s.*\d{4}\sг\.\sв\s\d{1,2}:\d{2},.+:"),
]

# Attributions known by the verb that ends them, in any language (the start is a date or a
# name, which no pattern can know): "X wrote:", "... написал(а):", "... 写道：" (Chinese
# Gmail and Apple Mail), "... さんは書きました:" (Thunderbird, Japanese), "... schrieb:",
# "... skrev:" (Nordic), "... napisał(a):" (Polish), "... kirjoitti:" (Finnish).
ATTRIBUTION_VERB = re.compile(
    r".*(\swrote|\sescribió|\sa\sécrit|schrieb|\sescreveu|\sha\sscritto|\sschreef|\sskrev"
    r"|\sнаписала?|\sнаписал\(а\)|\sпишет|写道|寫道|さんは書きました|のメール|のメッセージ"
    r"|\snapisał(\(a\))?|\spisze|\skirjoitti)\s?:")

# A date or a time: an attribution ending in a verb counts when it holds one, or when only
# quoted lines follow it (a person may write "Here is what I wrote:").
DATED = re.compile(r"\d{1,2}:\d{2}|\d{4}|\d{1,2}[./]\d{1,2}[./]\d{2}")

# Any other line holding a date or time (DATED) that ends in ":" right above quoted lines
# introduces them (Yandex's '26.06.2014, 14:41, "Alexander L" <a@x>:', Mail.ru's "... от
# Alexander L <a@x>:"): new_text.py's _dated_introduction.

# --- Separators before quoted or forwarded mail ---------------------------------------------
# Outlook's "-----Original Message-----" in its languages, Yahoo's and Zimbra's "----- Original
# Message -----", Proton's and Thunderbird's "-------- Original Message --------", Gmail's
# "---------- Forwarded message ---------", Outlook's 32 underscores, Apple Mail's "Begin
# forwarded message:" (after quotequail's FORWARD_MESSAGES and crisp's quote headers).
SEPARATOR = re.compile(
    r"-{2,}\s*(Original Message|Mensaje original|Ursprüngliche Nachricht|Message d'origine"
    r"|Mensagem original|Messaggio originale|Oorspronkelijk bericht|Исходное сообщение"
    r"|Пересылаемое сообщение|元のメッセージ|原始邮件|原始郵件|Forwarded message"
    r"|Mensaje reenviado|Message transféré|Weitergeleitete Nachricht|Mensagem encaminhada"
    r"|転送されたメッセージ|转发的邮件)\s*-{2,}"
    r"|_{20,}"
    r"|(Begin forwarded message|Inicio del mensaje reenviado|Anfang der weitergeleiteten E-Mail"
    r"|Début du message réexpédié|Início da mensagem reencaminhada):", re.I)

# --- Header blocks of the quoted mail ("From: ..." then "Sent: ...") ------------------------
# Outlook (desktop, web, mobile) and Gmail's "*From:*", in English, Spanish, Portuguese,
# French, German, Italian, Dutch, Japanese, Chinese and Russian (after mail-parser-reply's
# from_header and quotequail's HEADER_MAP). The block needs its first line and a second one
# within HEADER_LINES, so that an order starting "From" is never taken for one. Hotmail
# starts the block with "Date:", "Subject:" (either line kind may come first).
HEADER_FROM = re.compile(
    r"\*?(From|De|Von|Da|Van|Från|Fra|Od|差出人|发件人|寄件者|От|От кого)\*?\s?:")
HEADER_NEXT = re.compile(
    r"\*?(Sent|Date|To|Subject|Cc|Enviado( em)?|Enviada( em)?|Fecha|Para|Asunto|Data|Assunto"
    r"|Envoyé"
    r"|À|Objet|Gesendet|Datum|An|Betreff|Inviato|Oggetto|Verzonden|Aan|Onderwerp|Skickat"
    r"|送信日時|日付|宛先|件名|发送时间|日期|收件人|主题|寄件日期|主旨|Отправлено|Дата|Кому|Тема)"
    r"\*?\s?:")
HEADER_LINES = 4

# --- Client footers and signatures -----------------------------------------------------------
# RFC 3676 §4.3 "-- " (and "--" once mail software has trimmed the space), and the footers mail
# programs add under a reply, in their translations; a footer may carry its link
# ("Get Outlook for iOS<https://aka.ms/o0ukef>"). After mail-parser-reply's sent_from, crisp's
# signatureRegex and the footers real fixtures carry (tests/mail/inbound/corpus/).
_LINK = r"(\s?<[^<>]{1,200}>|\s\S{1,200})?\.?"
SIGNATURE = re.compile(
    r"--"
    r"|[—–─━=_~*-]{5,}"  # a rule over a signature ("——————" in Chinese mail, "=====")
    r"|(Sent from my|Sent from my mobile|Envoyé de mon|Enviado desde mi|Enviado do meu"
    r"|Inviato da(l mio)?|Verzonden (vanaf|met) mijn|Verstuurd vanaf mijn|Sendt fra min"
    r"|Skickat från min|Отправлено с( моего)?) .{1,40}"
    r"|(Sent|Sent from|Sent with|Sent via) (Outlook|Mail|Gmail|Yahoo Mail|Proton Mail|ProtonMail"
    r"|AOL|TypeApp|Spark|BlueMail|Sparrow|Samsung|the Samsung|Edison)\b.{0,60}"
    r"|(Get|Download) (the )?Outlook (for|app for) (iOS|Android|Windows)" + _LINK +
    r"|(Obtenir|Télécharger) Outlook pour (iOS|Android)" + _LINK +
    r"|Envoyé (à partir de|depuis) .{1,60}"
    r"|(Outlook für (iOS|Android) (beziehen|herunterladen))" + _LINK +
    r"|(Gesendet (von|mit|aus) .{1,60})|Von meinem .{1,30} gesendet"
    r"|(Obtener|Descargar|Descarga) Outlook para (iOS|Android)" + _LINK +
    r"|Enviado (desde|de|do|pelo|a partir do?) .{1,60}"
    r"|(Obter o|Baixe o|Baixar o) Outlook para (iOS|Android)" + _LINK +
    r"|(Скачать|Получить) Outlook для (iOS|Android)" + _LINK +
    r"|(iOS|Android) ?版(の)? ?Outlook を(入手|ダウンロード)" + _LINK +
    r"|Outlook for (iOS|Android) を(入手|ダウンロード)" + _LINK +
    r"|.{1,30}から送信|获取 ?Outlook for (iOS|Android)" + _LINK +
    r"|(从|發自|发自)我的.{1,30}|从.{1,20}发送|来自.{1,20}的(iPhone|邮件)", re.I)

# --- Sign-offs --------------------------------------------------------------------------------
# A closing word on its own line ("Thanks," "Saludos" "よろしくお願いします"), maybe with the
# writer's name after it ("Cheers, Bob"): it ends the reply when only short lines that are no
# order (a name, a title, a telephone number) follow. After mail-parser-reply's signatures
# (en, de, es, fr, it, ja, zh) and crisp's signatureRegex; orders are lowercase notation.
SIGN_OFF = re.compile(
    r"(thanks?( you| again| a lot| so much)?|thx|ty|many thanks|cheers|best|all the best"
    r"|best wishes|(best |kind |warm |warmest )?regards|sincerely|yours( truly| sincerely)?"
    r"|talk soon|take care"
    r"|saludos( cordiales)?|un saludo|gracias|muchas gracias|atentamente|cordialmente|abrazos"
    r"|mit freundlichen gr(ü|ue)(ß|ss)en|(viele |beste |liebe |herzliche )?gr(ü|ue)(ß|ss)e"
    r"|gru(ß|ss)|lg|mfg|danke( schön| sehr)?|vielen dank"
    r"|merci( beaucoup)?|cordialement|bien à vous|amitiés|bonne (journée|soirée)|à bientôt"
    r"|obrigad[oa]|abraços?|atenciosamente|saudações|att\.?"
    r"|grazie( mille)?|saluti|cordiali saluti|distinti saluti"
    r"|(med )?venlig(e)? hilsen|hilsen|mvh|(med )?vänliga hälsningar|hälsningar"
    r"|спасибо|с уважением|с наилучшими пожеланиями|всего доброго|всего хорошего"
    r"|(以上、?)?よろしく(お願い(いた|致)?します|お願いいたします)?|以上(です)?"
    r"|ありがとうございます|ありがとう|宜しくお願い(いた|致)?します"
    r"|谢谢|謝謝|此致|敬礼|祝好|顺祝商祺|多谢)"
    r"[\s,.!?、。！？~-]*([\s,]+\S.{0,40})?", re.I)

# What may stand under a sign-off: a few short lines, none starting with a lowercase letter
# (the notation's words are lowercase; a name, a title or a telephone number is not).
SIGN_OFF_TAIL_LINES = 4
SIGN_OFF_TAIL_LENGTH = 60
SIGNATURE_ADDRESS = re.compile(r"@|://|www\.")  # a mail address or a web page

# A lone name or initial closing the reply without a "-- " line: one or two capitalised words
# ("Alice", "Bob Smith", "J.", "-Abhishek Kona", "— A."), or a name in a script without case.
# Ambiguous with an order written capitalised ("Pass"), so the reader keeps it apart
# (Reply.closing) and the reply handler reads it as an order only if the game knows its verb.
_UPPER = "A-ZÀ-ÖØ-ÞА-ЯЁ"
_LETTER = "A-Za-zÀ-ÖØ-öø-ÿĀ-ſА-Яа-яЁё'’."
_NAME_WORD = f"[{_UPPER}][{_LETTER}]*(-[{_LETTER}]+)?"
LONE_NAME = re.compile(
    rf"[-–—~/]?\s?({_NAME_WORD}(\s{_NAME_WORD})?|[\u4e00-\u9fff\u3040-\u30ff]{{1,6}})")

# --- HTML ----------------------------------------------------------------------------------
# Elements whose content is never the reply's own text: markup, and quoted mail (Apple Mail,
# Thunderbird and Gmail put the quoted message in <blockquote>).
HTML_SKIP_TAGS = frozenset({"style", "script", "title", "template", "blockquote"})
# Quoted mail, whose place html_text marks with a ">" line (so that a reply written below it is
# known as written below a quote).
HTML_QUOTE_TAGS = frozenset({"blockquote"})
# Classes around quoted mail and signatures: Gmail (gmail_quote, gmail_quote_container,
# gmail_signature), Thunderbird (moz-cite-prefix, moz-signature), Yahoo (yahoo_quoted), Proton
# (protonmail_quote, protonmail_signature_block), Apple Mail on iOS (AppleOriginalContents).
HTML_SKIP_CLASSES = frozenset({"gmail_quote", "gmail_quote_container", "gmail_signature",
                               "moz-cite-prefix", "moz-signature", "yahoo_quoted",
                               "protonmail_quote", "protonmail_signature_block"})
HTML_QUOTE_CLASSES = frozenset({"gmail_quote", "gmail_quote_container", "yahoo_quoted",
                                "protonmail_quote"})
# Outlook (desktop, web, mobile): the "From: ... Sent: ..." header of the quoted mail starts at
# <div id="divRplyFwdMsg">, after an empty <div id="appendonsend">; Hotmail's quoted mail after
# <hr id="stopSpelling"> (talon's quotation markers); all that follows is history.
HTML_STOP_IDS = frozenset({"divRplyFwdMsg", "appendonsend", "stopSpelling"})
