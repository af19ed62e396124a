"""Signed notes, checkpoints and cosignatures (service/model/signed_notes.py), checked by a
verifier written here from the C2SP texts alone (signed-note, tlog-checkpoint,
tlog-cosignature), not by the code that made them; and the vectors Go's note package publishes."""
from __future__ import annotations

import base64
import hashlib
import struct

import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from service.model.signed_notes import (
    COSIGNATURE_V1, Checkpoint, NoteError, Signer, VerifierKey, open_checkpoint, open_note, parse_note, sign_note,
)

# golang.org/x/mod/sumdb/note's test vectors
GO_SKEY = "PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz"
GO_VKEY = "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW"
GO_TEXT = "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n"
GO_NOTE = GO_TEXT + ("\n\u2014 PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6K"
                     "E6RyyBwJnAM=\n")
# a cosigner's verifier key (type 0x04) and a cosignature published by transparency-dev/formats
WITNESS_VKEY = "remora.n621.de+da77ade7+BOvN63jn/bLvkieywe8R6UYAtVtNbZpXh34x7onlmtw2"
COSIGNATURE = "ZGhGuQAAAABm/qTPeyKXD+R2rzyQsxPiP8mXum7qq/iF0u4vanlqJyocWODBt97w9uL+8qT7S5gxEHWWOworDcFiEBYJXORmnFBOBA=="


# --- an independent verifier, from the C2SP texts -------------------------------------------------

def spec_key(vkey: str) -> tuple[str, int, bytes, bytes]:
    """(name, type, public key, key ID) of a verifier key "name+hexid+base64(type || key)"."""
    name, hexid, rest = vkey.split("+", 2)
    raw = base64.b64decode(rest)
    kid = hashlib.sha256(name.encode() + b"\x0a" + raw[:1] + raw[1:]).digest()[:4]
    assert kid.hex() == hexid
    return name, raw[0], raw[1:], kid


def spec_verify(note: str, vkey: str) -> str:
    """The note's text if a signature line of this key verifies (C2SP signed-note and, for a
    type 0x04 key, tlog-cosignature's signed message); AssertionError otherwise."""
    name, kind, public, kid = spec_key(vkey)
    assert note.endswith("\n")
    blank = note.rindex("\n\n")
    text, lines = note[:blank + 1], note[blank + 2:-1].split("\n")
    for line in lines:
        dash, who, sig = line.split(" ")
        assert dash == "\u2014"
        raw = base64.b64decode(sig)
        if who != name or raw[:4] != kid:
            continue  # another key's signature: ignored
        if kind == 0x01:
            message, signature = text.encode(), raw[4:]
        else:
            assert kind == 0x04 and len(raw) == 4 + 8 + 64
            (timestamp,) = struct.unpack(">Q", raw[4:12])
            message = b"cosignature/v1\n" + b"time " + str(timestamp).encode() + b"\n" + text.encode()
            signature = raw[12:]
        try:
            Ed25519PublicKey.from_public_bytes(public).verify(signature, message)
        except InvalidSignature as exc:
            raise AssertionError(f"the signature of {name} does not verify") from exc
        return text
    raise AssertionError(f"no signature of {name}")


def spec_checkpoint(text: str) -> tuple[str, int, bytes]:
    origin, size, root, end = text.split("\n", 3)
    assert end == "" and origin and size == str(int(size))
    return origin, int(size), base64.b64decode(root)


# --- the tests -------------------------------------------------------------------------------------

def test_go_s_published_signed_note_is_made_byte_for_byte_and_read() -> None:
    signer = Signer.parse_skey(GO_SKEY)
    assert signer.verifier.text() == GO_VKEY
    assert sign_note(GO_TEXT, [signer]) == GO_NOTE  # Ed25519 is deterministic
    note, keys = open_note(GO_NOTE, [VerifierKey.parse(GO_VKEY)])
    assert note.text == GO_TEXT and keys == [VerifierKey.parse(GO_VKEY)]
    assert spec_verify(GO_NOTE, GO_VKEY) == GO_TEXT


def test_a_published_cosigner_key_and_cosignature_timestamp_are_read() -> None:
    key = VerifierKey.parse(WITNESS_VKEY)
    assert key.kind == COSIGNATURE_V1 and key.text() == WITNESS_VKEY
    sig = parse_note("x\n\n\u2014 w " + COSIGNATURE + "\n").signatures[0]
    assert sig.timestamp == 1727964367


def test_a_checkpoint_signed_here_is_verified_by_the_spec_verifier() -> None:
    signer = Signer.generate("facedown.example/log")
    root = hashlib.sha256(b"some root").digest()
    note = sign_note(Checkpoint("facedown.example/log/game/1234", 17, root).text(), [signer])
    text = spec_verify(note, signer.verifier.text())
    assert spec_checkpoint(text) == ("facedown.example/log/game/1234", 17, root)
    cp, _ = open_checkpoint(note, signer.verifier)
    assert (cp.origin, cp.size, cp.root) == ("facedown.example/log/game/1234", 17, root)


def test_a_cosignature_made_here_is_verified_by_the_spec_verifier() -> None:
    log = Signer.generate("facedown.example/log")
    witness = Signer.generate("witness.example/w1", COSIGNATURE_V1)
    text = Checkpoint("facedown.example/log", 3, hashlib.sha256(b"r").digest()).text()
    line = witness.sign(text, 1_700_000_000)
    note = sign_note(text, [log]) + line.line()
    assert spec_verify(note, witness.verifier.text()) == text
    assert spec_verify(note, log.verifier.text()) == text
    assert line.timestamp == 1_700_000_000
    _, keys = open_note(note, [log.verifier, witness.verifier])
    assert set(keys) == {log.verifier, witness.verifier}


def test_a_witness_key_file_is_a_go_note_signer_key_and_its_vkey_is_type_4() -> None:
    witness = Signer.generate("witness.example/w1", COSIGNATURE_V1)
    again = Signer.parse_skey(witness.skey(), COSIGNATURE_V1)
    assert again.seed == witness.seed
    name, kind, public, _ = spec_key(witness.verifier.text())
    assert (name, kind, public) == ("witness.example/w1", 0x04, witness.public)
    assert witness.skey().startswith("PRIVATE+KEY+witness.example/w1+")


def test_tampered_notes_are_refused() -> None:
    signer = Signer.generate("facedown.example/log")
    note = sign_note(Checkpoint("o", 5, bytes(32)).text(), [signer])
    with pytest.raises(NoteError):
        open_note(note.replace("\n5\n", "\n6\n"), [signer.verifier])  # another size
    other = Signer.generate("facedown.example/log")  # same name, another key: not known
    with pytest.raises(NoteError):
        open_note(note, [other.verifier])
    with pytest.raises(AssertionError):
        spec_verify(note.replace("\n5\n", "\n6\n"), signer.verifier.text())
    for bad in (note.rstrip("\n"), note.replace("\u2014", "-"), "\x01" + note, note + "unexpected\n"):
        with pytest.raises(NoteError):
            open_note(bad, [signer.verifier])
    with pytest.raises(NoteError):
        VerifierKey.parse(GO_VKEY.replace("c74f20a3", "c74f20a4"))
    with pytest.raises(NoteError):
        Checkpoint.parse("origin\n05\n" + base64.b64encode(bytes(32)).decode() + "\n")
