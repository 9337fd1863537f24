"""Replies that carry a command (issue 46, item 3) in en, ja and es, written as the players'
mail programs write them: the command on the first line, then a human sentence, a sign-off and
a signature or the program's footer, then the quoted decision mail in the program's own
quoting style.

Two sources: the real public reply mails of the corpus (tests/mail/inbound/corpus/, one per
language: Gmail in English, in Japanese and in Spanish), whose written text becomes the
command's; and the quoting styles of Gmail, Outlook, Apple Mail and Thunderbird in each
language, written here as those programs write them (the attribution or header block in the
program's translation, ">" quotes or none, the footer). ``CLIENTS`` names both kinds.
"""

from __future__ import annotations

from email.message import EmailMessage

from tests.mail.inbound import corpus

# (the human sentence, the sign-off, the name under it, the signature or footer), per language.
HUMAN = {
    "en": ("Sorry Bob, let's keep it moving.", "Thanks,", "Jack",
           "-- \nJack Kennedy\nHyannis Port"),
    "ja": ("ボブさん、申し訳ないですが、このまま進めましょう。", "よろしくお願いします。", "ジャック",
           "iPhoneから送信"),
    "es": ("Perdona, Bob, sigamos adelante.", "Saludos,", "Jack", "Enviado desde mi iPhone"),
}

# The real corpus mail of each language (its client's own quote, footer and encoding).
REAL = {"en": "talon/gmail.eml", "ja": "mail/japanese.eml",
        "es": "email_reply_parser/quote_reply_spanish_multiline.txt"}

CLIENTS = ("real", "gmail", "outlook", "apple", "thunderbird")


def written(command: str, locale: str) -> str:
    """What the player writes above the quote: the command, a sentence, a sign-off, a name and
    a signature."""
    sentence, sign_off, name, signature = HUMAN[locale]
    return f"{command}\n{sentence}\n\n{sign_off}\n{name}\n\n{signature}"


def _quoted(text: str) -> str:
    return "\n".join("> " + line if line else ">" for line in text.splitlines())


def _styled(client: str, locale: str, body: str, original: str, sender: str) -> str:
    """The reply's text as ``client`` writes it in ``locale`` (the text above or below the
    quote, the quote)."""
    who = f"Whistlestop <{sender}>"
    if client == "gmail":
        head = {"en": f"On Mon, Dec 7, 2026 at 10:00 AM {who} wrote:",
                "ja": f"2026年12月7日(月) 10:00 {who}:",
                "es": f"El lun, 7 dic 2026 a las 10:00, {who} escribió:"}[locale]
        return f"{body}\n\n{head}\n\n{_quoted(original)}\n"
    if client == "outlook":  # no ">": the original under a header block
        head = {"en": ("From", "Sent", "To", "Subject", "Monday, December 7, 2026 10:00 AM"),
                "ja": ("差出人", "送信日時", "宛先", "件名", "2026年12月7日 10:00"),
                "es": ("De", "Enviado", "Para", "Asunto", "lunes, 7 de diciembre de 2026 10:00")
                }[locale]
        return (f"{body}\n\n________________________________\n{head[0]}: {who}\n"
                f"{head[1]}: {head[4]}\n{head[2]}: player@example.org\n{head[3]}: Re: your move"
                f"\n\n{original}\n")
    if client == "apple":  # the footer above, the attribution inside the quote
        head = {"en": f"On 7 Dec 2026, at 10:00, {who} wrote:",
                "ja": f"2026/12/07 10:00、{who}のメール:",
                "es": f"El 7 dic 2026, a las 10:00, {who} escribió:"}[locale]
        return f"{body}\n\n{_quoted(head)}\n>\n{_quoted(original)}\n"
    if client == "thunderbird":  # bottom-posted under the quote
        head = {"en": "On 07/12/2026 10:00, Whistlestop wrote:",
                "ja": "Whistlestop さんは書きました:",
                "es": "El 07/12/26 a las 10:00, Whistlestop escribió:"}[locale]
        return f"{head}\n{_quoted(original)}\n\n{body}\n"
    raise ValueError(client)


def reply(client: str, locale: str, command: str, *, sender: str, to: str, mail,
          message_id: str | None = None) -> bytes:
    """The player's reply to ``mail`` (our mail, as received), carrying ``command``."""
    body = written(command, locale)
    subject = "Re: " + mail["Subject"]
    if client == "real":
        entry = next(e for e in corpus.entries() if e["file"] == REAL[locale])
        return corpus.reply_from({**entry, "order": "legal"}, body, sender=sender, to=to,
                                 message_id=message_id or "<command.reply@players.example>",
                                 in_reply_to=mail["Message-ID"],
                                 references=mail["References"] or "", subject=subject)
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, to, subject
    msg["In-Reply-To"] = mail["Message-ID"]
    msg["References"] = ((mail["References"] or "") + " " + mail["Message-ID"]).strip()
    if message_id:
        msg["Message-ID"] = message_id
    if client == "apple":
        msg["X-Mailer"] = "iPhone Mail (20A362)"
    elif client == "thunderbird":
        msg["User-Agent"] = "Mozilla Thunderbird 115.5.0"
    original = mail.get_body(("plain",)).get_content()
    msg.set_content(_styled(client, locale, body, original, str(mail["From"])))
    return bytes(msg)
