import pytest

from tests.server.api.conftest import (  # noqa: F401  (the API tests' app, client and store)
    api_db_url,
    app,
    client,
    eager_celery,
    mail_server,
    migrated_template,
    players,
    store,
)
from tests.web.pages_helpers import Reader


@pytest.fixture
def jack(app, smtp_catcher):
    reader = Reader(app, smtp_catcher, "jack@example.org")
    reader.sign_in()
    return reader


@pytest.fixture
def dick(app, smtp_catcher):
    reader = Reader(app, smtp_catcher, "dick@example.org")
    reader.sign_in()
    return reader


@pytest.fixture
def lyndon(app, smtp_catcher):
    """A third player (Mr. President seats three or four)."""
    reader = Reader(app, smtp_catcher, "lyndon@example.org")
    reader.sign_in()
    return reader


@pytest.fixture
def hubert(app, smtp_catcher):
    """A fourth player."""
    reader = Reader(app, smtp_catcher, "hubert@example.org")
    reader.sign_in()
    return reader
