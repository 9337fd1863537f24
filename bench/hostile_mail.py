"""How long the reply reader takes on hostile mail, against ordinary mail of the same size.

Run from the repository root:  python bench/hostile_mail.py

Each hostile input once took from a minute to hours in the standard library's parsers (quoted
strings and comments in headers, unclosed HTML tags, quadratic codecs, attribution patterns).
The limit is measured in the same run: reading an ordinary reply of the same size; the ratio is
hostile / ordinary, and the goal is at most LIMIT times. No assertions: it always exits 0.
"""
from __future__ import annotations

import time
from email.message import EmailMessage

import common  # noqa: F401  (puts the repository on sys.path)
from server.mail.inbound import read_reply

DOMAIN = "whistlestop.test"
ADDRESS = f"r+1-kennedy-{'0' * 24}@{DOMAIN}"
LIMIT = 50.0


def text_mail(body: str, subtype: str = "plain") -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"] = "alice@example.com", ADDRESS
    msg.set_content(body, subtype=subtype)
    return bytes(msg)


def header_mail(name: str, value: str) -> bytes:
    return f"{name}: {value}\r\nDelivered-To: {ADDRESS}\r\n\r\ncampaign NY 2\r\n".encode()


def seconds(raw: bytes, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        read_reply(raw, DOMAIN)
        best = min(best, time.perf_counter() - started)
    return best


CASES = {
    "attribution-like lines": lambda: text_mail("On " * 200_000),
    "Japanese date lines": lambda: text_mail("2026年11月3日" + "1:23 " * 100_000),
    "unclosed HTML tags": lambda: text_mail("<a" * 128 * 1024, "html"),
    'From: of quotes': lambda: header_mail("From", '"' * 200_000),
    "Content-Type: of comments": lambda: header_mail("Content-Type", "(" * 200_000),
    "References: of escapes": lambda: header_mail("References", '"\\' * 100_000),
    "Subject: of encoded words": lambda: header_mail("Subject", "=?utf-8?q?a?= " * 15_000),
}


def main() -> None:
    worst = 0.0
    for name, make in CASES.items():
        raw = make()
        ordinary = text_mail("campaign NY 2\n" * (len(raw) // 14))
        ratio = seconds(raw) / seconds(ordinary)
        worst = max(worst, ratio)
        print(f"{name:28} {len(raw) / 1024:7.0f} KiB  {ratio:6.2f}x an ordinary mail")
    print(f"worst: {worst:.2f}x an ordinary mail of the same size (limit {LIMIT:g}x; "
          f"ratio {worst / LIMIT:.2f})")


if __name__ == "__main__":
    main()
