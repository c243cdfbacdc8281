"""SSH public keys as a member's identity: one fingerprint for each key, whoever reads it.

The SSH door and the lobby's ``keys add`` both name a key by its SHA256 fingerprint,
worked out here from the key itself, so a key pasted in a session and the same key
offered by a client are one key.
"""

from __future__ import annotations

from umtali.club.members import MemberError

#: The longest public key line accepted when pasted (an RSA 16384-bit key fits).
KEY_MOST = 4096


def fingerprint(key: object) -> str:
    """The SHA256 fingerprint of an asyncssh key."""
    return str(key.get_fingerprint("sha256"))  # type: ignore[attr-defined]


def parse_public_key(text: str) -> tuple[str, str]:
    """A public key line (``ssh-ed25519 AAAA... comment``) as (fingerprint, the key in
    OpenSSH form); a MemberError says in one line what is wrong with it."""
    import asyncssh

    line = text.strip()
    if not line:
        raise MemberError("Paste a public key after keys add (the line in ~/.ssh/id_ed25519.pub).")
    if len(line) > KEY_MOST:
        raise MemberError(f"That is longer than any public key ({KEY_MOST} characters at most).")
    if "PRIVATE KEY" in line:
        raise MemberError("That is a private key: never paste it anywhere. Paste the .pub file.")
    try:
        key = asyncssh.import_public_key(line)
    except (asyncssh.KeyImportError, ValueError) as err:
        raise MemberError(f"That is not a public key ({err}).") from None
    exported = key.export_public_key("openssh").decode("ascii").strip()
    return fingerprint(key), exported
