from tests.server.api.conftest import (  # noqa: F401  (the API tests' app, client and store)
    api_db_url,
    app,
    both_databases,
    client,
    eager_celery,
    mail_server,
    migrated_template,
    players,
    store,
)
