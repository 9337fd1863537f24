"""read_reply on every mail of the reply corpus (corpus/, SOURCES.md), made a reply ordering
"campaign NY 2": it reads the lines index.json pins ("reads", "closing"), and none of the quoted
history. The same mails are played against a live game by tests/mail/test_reply_corpus.py."""

from __future__ import annotations

import pytest

from server.mail.inbound import Kind, read_reply
from tests.mail.inbound import corpus

DOMAIN = "whistlestop.example"
TOKEN = "42-kennedy-5f0c9a7e31b24d68c0e1f2a3"
ORDER = "campaign NY 2"
ENTRIES = corpus.entries()


def _read(entry: dict):
    raw = corpus.reply_from(entry, ORDER, sender="jack@example.org",
                            to=f"Game <r+{TOKEN}@{DOMAIN}>", message_id="<reply.1@example.org>",
                            in_reply_to="<wso.7.kennedy.3f2a9c1d0e@whistlestop.example>")
    return read_reply(raw, DOMAIN)


def test_the_corpus_is_large_and_every_mail_names_its_source():
    assert len(ENTRIES) >= 40
    for entry in ENTRIES:
        assert (corpus.CORPUS / entry["file"]).is_file()
        assert entry["source"]["repo"] and entry["source"]["path"] and entry["source"]["licence"]
        assert entry["step"] in ("sequential", "sealed")
        assert entry["order"] in ("legal", "fullwidth", "keep")


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["file"] for e in ENTRIES])
def test_a_corpus_reply_reads_as_pinned(entry):
    reply = _read(entry)
    assert (reply.kind, reply.token, reply.sender) == (Kind.ORDER, TOKEN, "jack@example.org")
    assert reply.message_id == "<reply.1@example.org>"
    assert [line.replace(ORDER, "{order}") for line in reply.lines] == entry["reads"]
    assert list(reply.closing) == entry.get("closing", [])
    if entry["order"] == "keep":
        assert ORDER not in reply.lines
    elif entry["step"] == "sequential":
        assert reply.lines[0] == ORDER  # the order first: a sequential step applies it
    else:
        assert ORDER in reply.lines  # a sealed step takes the first legal line


def test_the_named_cases_are_in_the_corpus():
    by_file = {e["file"]: e for e in ENTRIES}
    assert by_file["mail/japanese_iso_2022.eml"]["order"] == "fullwidth"
    assert "bottom-posted" in by_file["talon/thunderbird.eml"]["shows"]
    assert by_file["crisp/email_with_regards.txt"]["step"] == "sealed"
    assert "Regards," in (corpus.CORPUS / "crisp/email_with_regards.txt").read_text()


def test_substitution_keeps_the_rest_of_the_mail_byte_for_byte():
    """Outside the person's text and the addressing, a corpus reply is its original."""
    entry = next(e for e in ENTRIES if e["file"] == "talon/outlook.eml")
    original = (corpus.CORPUS / entry["file"]).read_bytes()
    raw = corpus.reply_from(entry, ORDER, sender="jack@example.org", to="r+x@y",
                            message_id="<m@x>", in_reply_to="<a@b>")
    body = raw.split(b"\n\n", 1)[1]
    assert body.count(ORDER.encode()) == 2  # in the text/plain part and its HTML alternative
    assert body.replace(ORDER.encode(), b"Hello") == original.split(b"\n\n", 1)[1]
