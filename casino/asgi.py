"""ASGI entry point: HTTP through Django, websockets through Channels.

Websockets carry only change notices; they need the signed-in session (AuthMiddlewareStack)
and must come from one of ALLOWED_HOSTS, so another site cannot open a socket as the dealer.
"""

import os

from casino.asgi_handler import pooled_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
# Django must be set up before the consumers (and their models) are imported. HTTP runs the
# synchronous middleware and views on a few long-lived threads (casino/asgi_handler.py).
django_asgi_app = pooled_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from tables.live.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)
