"""``.npz`` policy files read within bounds (:meth:`MLPPolicy.save
<trashcards.envs.policy.MLPPolicy.save>` writes them; :mod:`trashcards.envs.policyfiles`
says what is checked). Nothing here needs more than numpy and the standard library, so
:class:`~trashcards.envs.policy.MLPPolicy` loads through it."""

from __future__ import annotations

import hashlib
import io
import re
import zipfile
import zlib
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from ..boundedjson import parse
from ..errors import JSONTextError, TrashError

__all__ = ["MAX_FILE_BYTES", "MAX_LAYERS", "MAX_WEIGHTS", "PolicyFileError", "file_sha256",
           "one_line", "parse_npz", "read_bounded", "read_npz"]

#: The largest policy file read (the shipped agent's is 181 kB).
MAX_FILE_BYTES: Final = 64 << 20
#: The most layers an ``.npz`` MLP may have.
MAX_LAYERS: Final = 16
#: The most floats all of an ``.npz`` MLP's weights and biases may hold.
MAX_WEIGHTS: Final = 8_000_000
#: The longest ``meta`` text (characters) and its deepest nesting.
MAX_META_CHARS: Final = 1 << 20
MAX_META_DEPTH: Final = 32
_MEMBER: Final = re.compile(r"(?:([wb])(\d{1,2})|meta)\.npy")


class PolicyFileError(TrashError):
    """A policy file that cannot be played: its text says why, in one line."""


def file_sha256(path: str | Path) -> str:
    """The SHA-256 of the file's bytes, in hex (read in blocks)."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def read_bounded(path: Path) -> bytes:
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise PolicyFileError(f"{path}: {size:,} bytes, more than the "
                                  f"{MAX_FILE_BYTES:,} a policy file may have")
        with open(path, "rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise PolicyFileError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    if len(data) > MAX_FILE_BYTES:
        raise PolicyFileError(f"{path}: more than the {MAX_FILE_BYTES:,} bytes a policy "
                              "file may have")
    return data


def one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 200 else text[:199] + "…"


def _npy(name: str, blob: bytes) -> npt.NDArray[Any]:
    """The array of one ``.npy`` member, its header checked before its data is read."""
    stream = io.BytesIO(blob)
    version = np.lib.format.read_magic(stream)
    if version == (1, 0):
        shape, fortran, dtype = np.lib.format.read_array_header_1_0(stream)
    elif version in ((2, 0), (3, 0)):
        shape, fortran, dtype = np.lib.format.read_array_header_2_0(stream)
    else:
        raise ValueError(f"{name}: .npy version {version}")
    if name == "meta":
        if dtype.kind != "U" or shape != () or dtype.itemsize > 4 * MAX_META_CHARS:
            raise ValueError("meta: not one string of JSON text within bounds")
    elif dtype.kind != "f" or dtype.itemsize not in (4, 8) or len(shape) != (
            2 if name[0] == "w" else 1):
        kind = "matrix" if name[0] == "w" else "vector"
        raise ValueError(f"{name}: {dtype} {shape}, not a {kind} of floats")
    count = 1
    for extent in shape:
        count *= int(extent)
    if count * dtype.itemsize > len(blob):
        raise ValueError(f"{name}: its header declares {count:,} values; the file holds "
                         "fewer")
    if name != "meta" and count > MAX_WEIGHTS:
        raise ValueError(f"{name}: {count:,} values, more than {MAX_WEIGHTS:,}")
    data = np.frombuffer(blob, dtype=dtype, count=count, offset=stream.tell())
    return data.reshape(shape, order="F" if fortran else "C").copy()


def read_npz(path: str | Path) -> tuple[list[tuple[npt.NDArray[Any], npt.NDArray[Any]]],
                                         dict[str, Any]]:
    """The layers and ``meta`` of an ``.npz`` saved by :meth:`MLPPolicy.save`, read
    within the bounds of the module's text; :class:`PolicyFileError` otherwise."""
    return parse_npz(read_bounded(Path(path)), Path(path))


def parse_npz(data: bytes, path: Path) -> tuple[list[tuple[npt.NDArray[Any],
                                                             npt.NDArray[Any]]],
                                                  dict[str, Any]]:
    arrays: dict[str, npt.NDArray[Any]] = {}
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = archive.infolist()
            if len(members) > 2 * MAX_LAYERS + 1:
                raise ValueError(f"{len(members)} members, more than an MLP of "
                                 f"{MAX_LAYERS} layers has")
            total = 0
            for member in members:
                match = _MEMBER.fullmatch(member.filename)
                if match is None:
                    raise ValueError(f"a member {member.filename[:40]!r} that no MLP "
                                     "policy has")
                with archive.open(member) as handle:
                    blob = handle.read(MAX_FILE_BYTES + 1)
                total += len(blob)
                if total > MAX_FILE_BYTES:
                    raise ValueError(f"more than {MAX_FILE_BYTES:,} bytes unpacked")
                name = member.filename[:-4]
                arrays[name] = _npy(name, blob)
    except PolicyFileError:
        raise
    except (zipfile.BadZipFile, zlib.error, OSError, EOFError, ValueError, KeyError,
            NotImplementedError, RuntimeError, OverflowError, TypeError,
            UnicodeDecodeError, SyntaxError) as exc:
        raise PolicyFileError(f"{path}: not a policy saved by MLPPolicy.save "
                              f"({one_line(exc)})") from None
    layers = []
    for k in range(MAX_LAYERS + 1):
        if f"w{k}" not in arrays and f"b{k}" not in arrays:
            break
        if f"w{k}" not in arrays or f"b{k}" not in arrays:
            raise PolicyFileError(f"{path}: layer {k} lacks its "
                                  f"{'weights' if f'w{k}' not in arrays else 'bias'}")
        layers.append((arrays.pop(f"w{k}"), arrays.pop(f"b{k}")))
    meta_text = arrays.pop("meta", None)
    if arrays:
        raise PolicyFileError(f"{path}: members {', '.join(sorted(arrays))} out of the "
                              "layers' order")
    meta: dict[str, Any] = {}
    if meta_text is not None:
        try:
            value = parse(str(meta_text), max_size=MAX_META_CHARS, max_depth=MAX_META_DEPTH)
        except JSONTextError as exc:
            raise PolicyFileError(f"{path}: its meta is not bounded JSON "
                                  f"({one_line(exc)})") from None
        if not isinstance(value, dict):
            raise PolicyFileError(f"{path}: its meta is not a JSON object")
        meta = value
    if not layers:
        raise PolicyFileError(f"{path}: no layers (w0, b0 …)")
    return layers, meta
