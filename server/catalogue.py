"""Marking texts for the translation catalogues (server/translations, babel.cfg)."""


def N_(message: str) -> str:
    """Marks ``message`` for extraction; it is translated where it is shown."""
    return message
