"""Celery app and tasks, and the inbound SMTP server of the `mail` process."""
