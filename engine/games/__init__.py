"""The games Whistlestop serves, each a package registering itself with engine.core."""
