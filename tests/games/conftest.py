from tests.server.api.conftest import (  # noqa: F401  (the API tests' app, client and store)
    api_db_url,
    app,
    client,
    eager_celery,
    mail_server,
    migrated_template,
    store,
)
from tests.server.conftest import db_engine, db_url, empty_db_url, session  # noqa: F401
