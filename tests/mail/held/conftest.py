"""Mail about a move that may still be taken back (issue 27), played through the API's app:
its app, client, store and players, a real SMTP catcher and the tasks run inline
(tests/server/api/conftest.py), shared by every test file here."""

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
