"""HTTP to public addresses only: the webhooks' guard against server-side request forgery.

A webhook URL is the user's to choose, so without a guard a user could make the server post to
its own network: a database's HTTP port, a cloud metadata service (169.254.169.254), an admin
page on localhost. Checking the URL's host name when it is saved is not enough (its DNS may
change, or answer differently each time: DNS rebinding), so the check is made on the address
each connection actually reached, before a byte is sent: the socket's peer must be a global
unicast address (not private, loopback, link-local, shared, reserved, multicast or
unspecified; IPv4-mapped IPv6 addresses are judged by their IPv4 address). A refusal raises
``PrivateAddress``, a ``requests.ConnectionError``.

``session(allow_private=True)`` (setting WEBHOOK_ALLOW_PRIVATE: tests, a relay on the operator's
own network) is a plain requests session.
"""

from __future__ import annotations

import ipaddress

import requests
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.exceptions import NewConnectionError


class PrivateAddress(requests.ConnectionError):
    """The host name led to an address that is not on the public internet."""


# IPv6 ranges that lead to IPv4 addresses (or a private network) whatever Python calls them:
# NAT64 (RFC 6052, RFC 8215), 6to4 (RFC 3056), Teredo, site-local (deprecated, still routed in
# some networks), unique local; an address in one of them is refused even when the IPv4
# address it carries is public, since the gateway that translates it sits on somebody's
# network.
TRANSLATED = tuple(ipaddress.ip_network(n) for n in (
    "64:ff9b::/96", "64:ff9b:1::/48", "2002::/16", "2001::/32", "fec0::/10", "fc00::/7"))


def is_public(address: str) -> bool:
    """Whether ``address`` (an IPv4 or IPv6 address, without scope) is global unicast and no
    translation to another network (NAT64, 6to4, Teredo, site-local)."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        elif any(ip in net for net in TRANSLATED):
            return False
    return ip.is_global and not ip.is_multicast


class _Refused(NewConnectionError):
    def __init__(self, connection, text: str):
        super().__init__(connection, text)
        self.text = text


def _checked(connection, sock):
    address = sock.getpeername()[0]
    if is_public(address):
        return sock
    sock.close()
    raise _Refused(connection, f"{connection.host} is at {address}, which is not a public "
                               "internet address: webhooks are only posted to public ones")


class _HTTPConnection(HTTPConnection):
    def _new_conn(self):
        return _checked(self, super()._new_conn())


class _HTTPSConnection(HTTPSConnection):
    def _new_conn(self):
        return _checked(self, super()._new_conn())


class _HTTPPool(HTTPConnectionPool):
    ConnectionCls = _HTTPConnection


class _HTTPSPool(HTTPSConnectionPool):
    ConnectionCls = _HTTPSConnection


class _PublicAdapter(HTTPAdapter):
    def init_poolmanager(self, *args, **kwargs):
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {"http": _HTTPPool, "https": _HTTPSPool}

    def proxy_manager_for(self, proxy, **kwargs):
        raise PrivateAddress("webhooks are not posted through a proxy: the guard could not "
                             "see the address the proxy reaches")

    def send(self, request, *args, **kwargs):
        try:
            return super().send(request, *args, **kwargs)
        except requests.ConnectionError as exc:
            if _refusal(exc):
                raise PrivateAddress(_refusal(exc).text, request=request) from None
            raise


def _refusal(exc: requests.ConnectionError) -> _Refused | None:
    """The guard's refusal inside ``exc``: requests wraps urllib3's MaxRetryError, whose
    ``reason`` is the error of the connection."""
    inner = exc.args[0] if exc.args else None
    reason = getattr(inner, "reason", None)
    return reason if isinstance(reason, _Refused) else None


def session(allow_private: bool = False) -> requests.Session:
    """A requests session that posts to public addresses only (unless ``allow_private``), and
    ignores proxy settings from the environment."""
    http = requests.Session()
    http.trust_env = allow_private   # a proxy would hide the address reached
    if not allow_private:
        adapter = _PublicAdapter()
        http.mount("http://", adapter)
        http.mount("https://", adapter)
    return http
