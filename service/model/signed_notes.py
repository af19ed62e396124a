"""Signed notes, checkpoints and witness cosignatures (C2SP signed-note, tlog-checkpoint and
tlog-cosignature), with Ed25519.

* A **note** is a text ending in a newline, a blank line, and signature lines
  ``— <key name> base64(key ID (4 bytes) || signature)``. An Ed25519 signature (type 0x01)
  signs the text; its key ID is ``SHA-256(name || 0x0A || 0x01 || public key)[:4]``.
* A **verifier key** (vkey) is ``<name>+<key ID, 8 hex digits>+base64(type || public key)``.
* A **checkpoint** is a note whose text is the log's origin, its tree size in decimal and
  its root hash in base64, one per line (then optional extension lines).
* A **cosignature** (type 0x04, ``cosignature/v1``) is a witness's signature line on a
  checkpoint: base64(key ID || timestamp, 8 bytes big-endian || Ed25519 signature) over
  ``"cosignature/v1\\n" "time <timestamp>\\n"`` followed by the checkpoint's text; its key ID
  is ``SHA-256(name || 0x0A || 0x04 || public key)[:4]``.

This module imports nothing but the standard library and ``cryptography``: the SDK ships the
same file as ``facedown_client.signed_notes``.
"""
from __future__ import annotations

import base64
import binascii
import hashlib
import re
import struct
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

ED25519 = 0x01
COSIGNATURE_V1 = 0x04
DASH = "\u2014"
MAX_SIGNATURES = 100  # the spec asks verifiers to accept at least 16


class NoteError(ValueError):
    """A malformed note or key, or a signature that does not verify."""


def check_name(name: str) -> str:
    """A key name: not empty, no Unicode space and no '+'."""
    if not name or "+" in name or any(c.isspace() for c in name) or not _printable(name):
        raise NoteError(f"not a key name: {name!r}")
    return name


#: a control character other than the newline (a note's text has none)
_CONTROL = re.compile("[\x00-\x09\x0b-\x1f]")


def _printable(text: str) -> bool:
    # a regular expression, not a loop over characters: every command's answer signs a note
    return _CONTROL.search(text) is None


def key_id(name: str, kind: int, public: bytes) -> bytes:
    """The 4-byte key ID of a key: SHA-256(name || 0x0A || type || public key)[:4]."""
    return hashlib.sha256(check_name(name).encode() + b"\n" + bytes([kind]) + public).digest()[:4]


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def unb64(text: str) -> bytes:
    try:
        return base64.b64decode(text.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError, ValueError) as exc:
        raise NoteError(f"not base64: {text[:40]!r}") from exc


@dataclass(frozen=True, slots=True)
class VerifierKey:
    """A public key to check one kind of signature by: its name, type and 32 bytes."""

    name: str
    kind: int
    public: bytes

    @property
    def id(self) -> bytes:
        return key_id(self.name, self.kind, self.public)

    def text(self) -> str:
        """The vkey form: name+hexid+base64(type || key)."""
        return f"{self.name}+{self.id.hex()}+{b64(bytes([self.kind]) + self.public)}"

    @staticmethod
    def parse(text: str) -> VerifierKey:
        """Read a vkey (Ed25519 0x01 or cosignature/v1 0x04); its key ID must be the right one."""
        parts = text.strip().split("+", 2)
        if len(parts) != 3 or len(parts[1]) != 8:
            raise NoteError(f"not a verifier key: {text!r}")
        name, hexid, data = parts
        raw = unb64(data)
        if len(raw) != 33 or raw[0] not in (ED25519, COSIGNATURE_V1):
            raise NoteError("a verifier key here is an Ed25519 key: type 0x01 or 0x04 and 32 bytes")
        key = VerifierKey(check_name(name), raw[0], raw[1:])
        try:
            ok = bytes.fromhex(hexid) == key.id
        except ValueError:
            ok = False
        if not ok:
            raise NoteError(f"the key ID of {name} is not {hexid}")
        return key

    def _ed25519(self) -> Ed25519PublicKey:
        return Ed25519PublicKey.from_public_bytes(self.public)


@dataclass(frozen=True, slots=True)
class Signature:
    """A signature line of a note: the key's name, its key ID and the signature's bytes (for a
    cosignature: the 8-byte timestamp then the signature)."""

    name: str
    id: bytes
    data: bytes

    def line(self) -> str:
        return f"{DASH} {self.name} {b64(self.id + self.data)}\n"

    @property
    def timestamp(self) -> int:
        """A cosignature's time (POSIX seconds)."""
        if len(self.data) != 72:
            raise NoteError("not a cosignature/v1 signature")
        return int(struct.unpack(">Q", self.data[:8])[0])


@dataclass(frozen=True, slots=True)
class Note:
    """A signed note split into its text and its signatures."""

    text: str
    signatures: tuple[Signature, ...]

    def encoded(self) -> str:
        return self.text + "\n" + "".join(s.line() for s in self.signatures)


def parse_note(note: str | bytes) -> Note:
    """Split a signed note; malformed ones raise :class:`NoteError`."""
    if isinstance(note, bytes):
        try:
            note = note.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise NoteError("a note is UTF-8") from exc
    if not _printable(note):
        raise NoteError("a note has no control characters but newlines")
    cut = note.rfind("\n\n")
    if cut < 0 or not note.endswith("\n"):
        raise NoteError("a note is a text, a blank line and signature lines")
    text, lines = note[:cut + 1], note[cut + 2:].splitlines()
    if not lines or len(lines) > MAX_SIGNATURES:
        raise NoteError("a note has 1 to 100 signatures")
    sigs = []
    for line in lines:
        parts = line.split(" ")
        if len(parts) != 3 or parts[0] != DASH:
            raise NoteError(f"not a signature line: {line!r}")
        raw = unb64(parts[2])
        if len(raw) < 5:
            raise NoteError("a signature has a key ID and at least one byte")
        sigs.append(Signature(check_name(parts[1]), raw[:4], raw[4:]))
    return Note(text, tuple(sigs))


def cosigned_message(text: str, timestamp: int) -> bytes:
    """What a cosignature/v1 signs: the header line, the time line and the checkpoint's text."""
    return f"cosignature/v1\ntime {timestamp}\n{text}".encode()


def verifies(key: VerifierKey, text: str, sig: Signature) -> bool:
    """Whether ``sig`` (from ``key``: same name and key ID) verifies over ``text``."""
    if sig.name != key.name or sig.id != key.id:
        return False
    if key.kind == ED25519:
        message, signature = text.encode(), sig.data
    else:
        if len(sig.data) != 72 or sig.timestamp >= 2 ** 63:
            return False
        message, signature = cosigned_message(text, sig.timestamp), sig.data[8:]
    try:
        key._ed25519().verify(signature, message)
    except (InvalidSignature, ValueError):
        return False
    return True


def open_note(note: str | bytes, keys: Iterable[VerifierKey]) -> tuple[Note, list[VerifierKey]]:
    """The note and the known keys whose signatures on it verify. Signatures of unknown keys
    are ignored; one of a known key that fails rejects the note, as does a note that no known
    key signed."""
    parsed = parse_note(note)
    known = {(k.name, k.id): k for k in keys}
    good = []
    for sig in parsed.signatures:
        key = known.get((sig.name, sig.id))
        if key is None:
            continue
        if not verifies(key, parsed.text, sig):
            raise NoteError(f"the signature of {key.name} does not verify")
        if key not in good:
            good.append(key)
    if not good:
        raise NoteError("no signature of a known key on this note")
    return parsed, good


@dataclass(frozen=True)
class Signer:
    """An Ed25519 private key under a name, signing notes (type 0x01) or cosigning
    checkpoints (type 0x04)."""

    name: str
    seed: bytes  # the 32-byte Ed25519 private key (RFC 8032)
    kind: int = ED25519
    # the key object, its public half and its verifier key, made once (each costs a scalar
    # multiplication: a server signs a checkpoint with every command)
    _key: Ed25519PrivateKey = field(init=False, repr=False, compare=False)
    _verifier: VerifierKey = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        key = Ed25519PrivateKey.from_private_bytes(self.seed)
        object.__setattr__(self, "_key", key)
        object.__setattr__(self, "_verifier", VerifierKey(self.name, self.kind, key.public_key().public_bytes_raw()))

    @staticmethod
    def generate(name: str, kind: int = ED25519) -> Signer:
        seed = Ed25519PrivateKey.generate().private_bytes_raw()
        return Signer(check_name(name), seed, kind)

    @property
    def public(self) -> bytes:
        return self._verifier.public

    @property
    def verifier(self) -> VerifierKey:
        return self._verifier

    def sign(self, text: str, timestamp: int = 0) -> Signature:
        """This key's signature line on ``text`` (a cosignature at ``timestamp``)."""
        if self.kind == ED25519:
            return Signature(self.name, self.verifier.id, self._key.sign(text.encode()))
        stamp = struct.pack(">Q", timestamp)
        return Signature(self.name, self.verifier.id, stamp + self._key.sign(cosigned_message(text, timestamp)))

    def skey(self) -> str:
        """The private key in the form Go's note signer reads: PRIVATE+KEY+name+hexid+base64(0x01 || seed)
        (a cosigner's too: the key is the same, only its signatures differ)."""
        return f"PRIVATE+KEY+{self.name}+{key_id(self.name, ED25519, self.public).hex()}+{b64(bytes([ED25519]) + self.seed)}"

    @staticmethod
    def parse_skey(text: str, kind: int = ED25519) -> Signer:
        parts = text.strip().split("+", 4)
        if len(parts) != 5 or parts[:2] != ["PRIVATE", "KEY"]:
            raise NoteError("not a private key (PRIVATE+KEY+name+id+key)")
        raw = unb64(parts[4])
        if len(raw) != 33 or raw[0] != ED25519:
            raise NoteError("not an Ed25519 private key")
        signer = Signer(check_name(parts[2]), raw[1:], kind)
        if key_id(signer.name, ED25519, signer.public).hex() != parts[3].lower():
            raise NoteError("the private key's ID does not match it")
        return signer


def sign_note(text: str, signers: Sequence[Signer]) -> str:
    """``text`` signed by each signer."""
    if not text.endswith("\n") or not _printable(text):
        raise NoteError("a note's text ends in a newline and has no control characters")
    return Note(text, tuple(s.sign(text) for s in signers)).encoded()


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """The text of a checkpoint: a log's origin, its size and its root hash."""

    origin: str
    size: int
    root: bytes
    extensions: tuple[str, ...] = ()

    def text(self) -> str:
        return "".join(f"{line}\n" for line in (self.origin, str(self.size), b64(self.root), *self.extensions))

    @staticmethod
    def parse(text: str) -> Checkpoint:
        lines = text.split("\n")
        if len(lines) < 4 or lines[-1] != "" or any(not line for line in lines[:-1]):
            raise NoteError("a checkpoint is at least three non-empty lines")
        origin, size, root = lines[:3]
        if not size.isdigit() or not size.isascii() or (size != "0" and size.startswith("0")):
            raise NoteError(f"not a tree size: {size!r}")
        raw = unb64(root)
        if len(raw) != 32:
            raise NoteError("a root hash has 32 bytes")
        return Checkpoint(origin, int(size), raw, tuple(lines[3:-1]))


def open_checkpoint(note: str | bytes, key: VerifierKey) -> tuple[Checkpoint, Note]:
    """The checkpoint of a note signed by ``key`` (raises :class:`NoteError` otherwise)."""
    parsed, _ = open_note(note, [key])
    return Checkpoint.parse(parsed.text), parsed
