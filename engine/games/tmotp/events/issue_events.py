"""Card events: see the module's cards below (issue 3). Each entry: card id -> tuple of stages."""

EVENTS: dict = {}
