"""Passkeys (WebAuthn) through the ``webauthn`` package: the options a browser needs to
make or use a passkey, and the checks of its answers (the challenge, the origin, the
relying party, the signature and its counter). Imported when a passkey is used, not
when the server starts (the package and ``cryptography`` take a while to import)."""

from __future__ import annotations

import json
from typing import Any

from webauthn import (
    base64url_to_bytes,
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import bytes_to_base64url
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

__all__ = ["PasskeyError", "authentication_options", "registration_options",
           "verify_authentication", "verify_registration"]


class PasskeyError(ValueError):
    """A passkey's answer that does not check out; the message says why."""


def registration_options(rp_id: str, rp_name: str, user_id: str, name: str,
                         exclude: list[str]) -> tuple[bytes, dict[str, Any]]:
    """The challenge and the options of making a passkey (a resident one, user
    verification preferred) for ``name``."""
    options = generate_registration_options(
        rp_id=rp_id, rp_name=rp_name, user_name=name, user_id=user_id.encode(),
        user_display_name=name,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.PREFERRED),
        exclude_credentials=[PublicKeyCredentialDescriptor(id=base64url_to_bytes(c))
                             for c in exclude])
    return options.challenge, json.loads(options_to_json(options))


def verify_registration(credential: dict[str, Any], challenge: bytes, rp_id: str,
                        origin: str) -> tuple[str, str, int]:
    """The new passkey's id, public key and counter; raises :class:`PasskeyError`."""
    try:
        verified = verify_registration_response(
            credential=credential, expected_challenge=challenge, expected_rp_id=rp_id,
            expected_origin=origin)
    except (WebAuthnException, ValueError, KeyError, TypeError) as exc:
        raise PasskeyError(str(exc)[:200]) from None
    return (bytes_to_base64url(verified.credential_id),
            bytes_to_base64url(verified.credential_public_key), verified.sign_count)


def authentication_options(rp_id: str) -> tuple[bytes, dict[str, Any]]:
    """The challenge and the options of signing in with any passkey of this site."""
    options = generate_authentication_options(
        rp_id=rp_id, user_verification=UserVerificationRequirement.PREFERRED)
    return options.challenge, json.loads(options_to_json(options))


def verify_authentication(credential: dict[str, Any], challenge: bytes, rp_id: str,
                          origin: str, public_key: str, sign_count: int) -> int:
    """The passkey's new counter; raises :class:`PasskeyError`."""
    try:
        verified = verify_authentication_response(
            credential=credential, expected_challenge=challenge, expected_rp_id=rp_id,
            expected_origin=origin, credential_public_key=base64url_to_bytes(public_key),
            credential_current_sign_count=sign_count)
    except (WebAuthnException, ValueError, KeyError, TypeError) as exc:
        raise PasskeyError(str(exc)[:200]) from None
    return verified.new_sign_count
