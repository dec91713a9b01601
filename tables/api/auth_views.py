"""Signing in and out of the API: a token per sign-in, revocable, throttled by failed attempts.

The screens sign in with a session cookie (CSRF-checked); tablets and scripts use these
endpoints and send ``Authorization: Token <token>``.
"""

from __future__ import annotations

from django.contrib.auth import authenticate, logout
from django.contrib.auth.models import User
from django.contrib.auth.signals import user_logged_in, user_logged_out
from drf_spectacular.utils import extend_schema, inline_serializer
from knox.models import AuthToken
from rest_framework import serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tables.api.auth_lockout import lockout_response
from tables.auth_tokens import token_issue, token_revoke, tokens_revoke_all

WRONG_CREDENTIALS = "The username or password is wrong."


class LoginSerializer(serializers.Serializer[None]):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=128, trim_whitespace=False)


class TokenLoginView(APIView):
    # Credentials are the body itself: no session or token is read, so no CSRF applies.
    authentication_classes = ()
    permission_classes = (AllowAny,)

    @extend_schema(
        summary="Sign in: a new token for every sign-in (shown once, expires after a shift)",
        request=LoginSerializer,
        responses=inline_serializer(
            "TokenIssued",
            {"token": serializers.CharField(), "expiry": serializers.DateTimeField()},
        ),
    )
    def post(self, request: Request) -> Response:
        body = LoginSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        django_request = request._request
        user = authenticate(
            django_request,
            username=body.validated_data["username"],
            password=body.validated_data["password"],
        )
        if getattr(django_request, "axes_locked_out", False):
            return lockout_response(django_request)  # type: ignore[return-value]
        if not isinstance(user, User) or not user.is_active:
            raise ValidationError({"non_field_errors": [WRONG_CREDENTIALS]})
        token, expiry = token_issue(user=user)
        user_logged_in.send(sender=User, request=django_request, user=user)
        return Response({"token": token, "expiry": expiry})


class LogoutView(APIView):
    @extend_schema(
        summary="Sign out: this token (or this session) stops working",
        request=None,
        responses={204: None},
    )
    def post(self, request: Request) -> Response:
        if isinstance(request.auth, AuthToken):
            token_revoke(token=request.auth)
            user_logged_out.send(sender=User, request=request._request, user=request.user)
        else:
            logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)


class LogoutAllView(APIView):
    @extend_schema(
        summary="Sign out everywhere: every token of this user stops working",
        request=None,
        responses={204: None},
    )
    def post(self, request: Request) -> Response:
        tokens_revoke_all(user=request.user)  # type: ignore[arg-type]
        if isinstance(request.auth, AuthToken):
            user_logged_out.send(sender=User, request=request._request, user=request.user)
        else:
            logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)
