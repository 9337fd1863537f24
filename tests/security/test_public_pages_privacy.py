"""Public pages list only what their reader may see (issue 45, finding L2), written as the
attack: a player's page (/players/<id>) listed their private games to anyone, with links to
them, so a stranger learnt who played whom, when, and with what outcome."""
from __future__ import annotations

from tests.web.pages_helpers import Reader


def finished_game(client, store, a, b, public: bool) -> int:
    gid = client.two_player_game(store, a, b, public=public)
    assert client.post(f"/games/{gid}/resign", b).status_code == 200
    return gid


def listed(page: str, gid: int) -> bool:
    return f'href="/games/{gid}/result"' in page


def test_a_players_page_lists_their_private_games_to_nobody_else(
        app, client, store, players, smtp_catcher):
    ann, bob = players["kennedy"], players["nixon"]
    private = finished_game(client, store, ann, bob, public=False)
    public = finished_game(client, store, ann, bob, public=True)
    anonymous = app.test_client().get(f"/players/{ann.id}").get_data(as_text=True)
    assert listed(anonymous, public) and not listed(anonymous, private)
    stranger = Reader(app, smtp_catcher, "carol@example.org")
    stranger.sign_in()
    page = stranger.get(f"/players/{ann.id}").get_data(as_text=True)
    assert listed(page, public) and not listed(page, private)
    opponent = Reader(app, smtp_catcher, bob.email)      # who played it sees it
    opponent.sign_in()
    page = opponent.get(f"/players/{ann.id}").get_data(as_text=True)
    assert listed(page, public) and listed(page, private)
