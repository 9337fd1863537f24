"""Whistlestop web server: Flask app factory, blueprints, services, models."""

__version__ = "0.1.0"
