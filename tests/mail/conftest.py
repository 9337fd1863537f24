from tests.server.conftest import db_engine, db_url, empty_db_url, session  # noqa: F401
