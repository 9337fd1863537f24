"""The REST API under /api/v1: one flask-smorest blueprint per resource (games, orders,
standing orders, users), registered by server/api/blueprints.py."""
