"""The gate in front of every page: only GET and HEAD, and only with the token."""

from __future__ import annotations

import secrets
from urllib.parse import parse_qs

from pancli.core.i18n import _


def token_given(query_string: bytes, token: str, name: str = "token") -> bool:
    """Whether a request's query string holds the token (``name=``, compared in constant time)."""
    given = parse_qs(query_string.decode("latin-1")).get(name, [""])[0]
    return secrets.compare_digest(given.encode(), token.encode())


class Guard:
    """Before anything else: only GET and HEAD, and only with the token (or the dealer's, which
    opens the players' pages too; the players' token never opens the dealer's)."""

    def __init__(self, app, token: str, error_response, dealer_token: str | None = None):
        self.app, self.token, self.error_response = app, token, error_response
        self.dealer_token = dealer_token
        self.state = app.state

    def dealers(self, query: bytes) -> bool:
        """The dealer's token, as the dealer's page gives it (``dealer=``, which the server's gate
        trusts as it trusts the players' token), or as ``token=``."""
        return self.dealer_token is not None and (token_given(query, self.dealer_token, "dealer")
                                                  or token_given(query, self.dealer_token))

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        path = scope.get("path", "/")
        if scope["method"] not in ("GET", "HEAD"):
            response = self.error_response(path, 405, _("Only GET and HEAD are answered"),
                                           _("this server is read-only"))
            response.headers["Allow"] = "GET, HEAD"
            return await response(scope, receive, send)
        query = scope.get("query_string", b"")
        if not token_given(query, self.token) and not self.dealers(query):
            response = self.error_response(path, 403, _("Forbidden: this address needs its token"),
                                           _("open the address the host's computer shows, or scan its QR code"))
            return await response(scope, receive, send)
        return await self.app(scope, receive, send)
