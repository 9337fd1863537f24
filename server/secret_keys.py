"""The installation's secret keys: the current one (WHISTLESTOP_SECRET_KEY) and the earlier ones
still accepted while a rotation settles (WHISTLESTOP_SECRET_KEY_FALLBACKS; docs/operating.md,
"Rotating the secret key").

A key ring is a tuple, oldest first and newest last: itsdangerous's order, so a serializer
given the ring signs with the newest key and checks with every one. The hand-made HMACs (reply
addresses, table-talk addresses, mail settings links) do the same through ``newest`` and
``any_matches``. A plain string is a ring of one key. What a link may do, how long it lasts and
whether it works once are decided after its signature checks, the same for every key.
"""

from __future__ import annotations

import hmac
from typing import Callable, Mapping, Sequence, Union

Secret = Union[str, Sequence[str]]


def ring(cfg: Mapping) -> tuple[str, ...]:
    """The keys of a configuration, oldest first, the current SECRET_KEY last."""
    fallbacks = [key for key in cfg.get("SECRET_KEY_FALLBACKS") or () if key]
    return (*fallbacks, cfg["SECRET_KEY"])


def each(secret: Secret) -> tuple[str, ...]:
    """Every key of a ring (or of one key), oldest first."""
    return (secret,) if isinstance(secret, str) else tuple(secret)


def newest(secret: Secret) -> str:
    """The key new signatures are made with."""
    return each(secret)[-1]


def any_matches(secret: Secret, given: str, mac_of: Callable[[str], str]) -> bool:
    """Whether ``given`` is the mac ``mac_of`` makes with one of the ring's keys (each compared
    in constant time)."""
    return any([hmac.compare_digest(given, mac_of(key)) for key in each(secret)])
