"""Services: the only code that changes games. Each function owns its transaction."""
