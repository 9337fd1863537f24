"""Mail: what a player reads (rendered from their view of the game, in their language) and how it
is sent (SMTP, with a Message-ID fixed by the outbox row so that a repeat is recognizable)."""
