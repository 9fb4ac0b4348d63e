"""The files the commands write, and the one rule they follow (docs/files.md).

* **Nothing above what you name.** A command makes the file or the folder you name,
  never the folders that hold it: a missing one is refused.
* **Nothing replaced that trashcards did not write.** A file you name that exists (a link
  counts, even one that leads nowhere) is replaced only with ``--force``. A folder a
  command fills (:class:`OutputFolder`) must be new, empty (hidden entries such as
  ``.git`` aside, which it never touches) or filled by the same command before: it
  keeps a list of what it wrote in :data:`MARKER`. It replaces only files on that list,
  and only those unchanged since, unless ``--force``; a file that is not on the list is
  never replaced, with or without ``--force``.
* **No link followed.** Every file is written whole into a new file of a random name
  and then renamed over its place (:func:`write_whole`), so a link in the way is
  replaced, never written through; inside a folder being filled, a link where a file or
  a folder is to go is refused.

Every refusal is an :class:`OutputError` (a :class:`~trashcards.errors.TrashError`)
whose message says what to do, raised before anything is written.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import secrets
import stat
from collections.abc import Iterable
from pathlib import Path
from typing import Final

from .errors import TrashError

__all__ = ["MARKER", "OutputError", "OutputFolder", "check_new_file", "write_whole"]

#: The list of the files a command wrote into a folder, inside that folder.
MARKER: Final = ".trashcards-files.json"
#: What the marker says it is (its ``format``).
_FORMAT: Final = "trashcards-files/1"
_NOFOLLOW: Final = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY: Final = getattr(os, "O_DIRECTORY", 0)


class OutputError(TrashError):
    """A file or folder a command will not write (the message says why and what to do)."""


def check_parent(path: Path) -> None:
    """Refuse ``path`` unless the folder that holds it exists."""
    folder = path.absolute().parent
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        raise OutputError(f"the folder {folder} {what} (trashcards makes no folders above "
                          "the one you name)")


def check_new_file(path: Path, force: bool) -> None:
    """Refuse a file to write at ``path`` when its folder is missing, when it is a
    folder, or when it exists (a link counts) and ``force`` is not given."""
    check_parent(path)
    if path.is_dir() and not path.is_symlink():
        raise OutputError(f"{path} is a folder, not a file")
    if (path.is_symlink() or path.exists()) and not force:
        raise OutputError(f"{path} already exists: add --force to replace it, or choose "
                          "another file")


def write_whole(path: Path | str, data: bytes, *, folder_fd: int | None = None) -> None:
    """Write ``data`` to ``path`` whole or not at all: into a new file of a random name
    beside it (never through a link), then renamed over ``path`` (a link there is
    replaced, not followed). With ``folder_fd``, ``path`` is a name in that folder."""
    path = Path(path)
    where = {"dir_fd": folder_fd} if folder_fd is not None else {}
    temporary = str(path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp"))
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o666, **where)
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data)
        if folder_fd is None:
            os.replace(temporary, path)
        else:
            os.replace(temporary, path, src_dir_fd=folder_fd, dst_dir_fd=folder_fd)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary, **where)
        raise


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class OutputFolder:
    """A folder a command fills (``build-static``, ``export``, ``simulate --records``):
    new, empty or filled by ``command`` before (see the module). Opening it makes it
    when it is missing (not the folders above) and refuses any other folder. Check the
    files to write with :meth:`check` before writing any (:meth:`write`, or
    :meth:`adopt` for files written by others, such as a simulation's workers), then
    :meth:`close` writes the list."""

    def __init__(self, path: Path, command: str, force: bool = False) -> None:
        self.path = path
        self.command = command
        self.force = force
        check_parent(path)
        if path.is_symlink() and not path.exists():
            raise OutputError(f"{path} is a link that leads nowhere")
        if path.exists() and not path.is_dir():
            raise OutputError(f"{path} is a file, not a folder")
        with contextlib.suppress(FileExistsError):
            path.mkdir()
        #: the folder itself (a link you named is followed: you chose it); everything
        #: inside is reached from here without following links
        self._fd = os.open(path, os.O_RDONLY | _DIRECTORY)
        #: the files the list names (path relative to the folder -> SHA-256)
        self.listed: dict[str, str] = {}
        try:
            self._read_marker()
        except BaseException:
            os.close(self._fd)
            raise
        self._folders: dict[str, int] = {"": self._fd}

    def _read_marker(self) -> None:
        try:
            data = self._read(MARKER)
        except FileNotFoundError:
            visible = sorted(name for name in os.listdir(self._fd) if not name.startswith("."))
            if visible:
                raise OutputError(
                    f"{self.path} is not empty and was not written by trashcards "
                    f"{self.command} (it holds {visible[0]!r}"
                    + (f" and {len(visible) - 1} more" if len(visible) > 1 else "")
                    + "): choose a new or empty folder") from None
            return
        try:
            marker = json.loads(data)
            ok = (isinstance(marker, dict) and marker.get("format") == _FORMAT
                  and isinstance(marker.get("files"), dict))
        except ValueError:
            ok = False
        if not ok:
            raise OutputError(f"{self.path / MARKER} is not a list of files trashcards "
                              "wrote: choose a new or empty folder")
        if marker.get("command") != self.command:
            raise OutputError(f"{self.path} holds the files of trashcards "
                              f"{marker.get('command')}, not of trashcards {self.command}: "
                              "choose a new or empty folder")
        self.listed = {str(k): str(v) for k, v in marker["files"].items()}

    def close(self) -> None:
        """Write the list of the files written (with those written before) and let go
        of the folder."""
        try:
            text = json.dumps({"format": _FORMAT, "command": self.command,
                               "files": dict(sorted(self.listed.items()))}, indent=1)
            write_whole(MARKER, (text + "\n").encode(), folder_fd=self._fd)
        finally:
            for fd in self._folders.values():
                os.close(fd)
            self._folders.clear()

    def __enter__(self) -> OutputFolder:
        return self

    def __exit__(self, *_exc: object) -> None:
        if self._folders:
            self.close()

    # -- reading and checking, never following a link ----------------------------------

    def _folder(self, parts: tuple[str, ...], make: bool) -> int | None:
        """The descriptor of the folder ``parts`` below this one (made when ``make``), or
        ``None`` when it is missing; refuses a link or a file on the way."""
        key = "/".join(parts)
        if key in self._folders:
            return self._folders[key]
        parent = self._folder(parts[:-1], make)
        if parent is None:
            return None
        name = parts[-1]
        if make:
            with contextlib.suppress(FileExistsError):
                os.mkdir(name, dir_fd=parent)
        try:
            fd = os.open(name, os.O_RDONLY | _DIRECTORY | _NOFOLLOW, dir_fd=parent)
        except FileNotFoundError:
            return None
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                kind = "a link" if _is_link(parent, name) else "a file"
                raise OutputError(f"{self.path / key} is {kind}, not a folder trashcards "
                                  "wrote: it is not followed (remove it, or choose "
                                  "another folder)") from None
            raise
        self._folders[key] = fd
        return fd

    def _read(self, relative: str) -> bytes:
        """The bytes of the file ``relative``; raises :class:`FileNotFoundError`, or
        :class:`OutputError` for a link or anything but a file."""
        *folders, name = relative.split("/")
        parent = self._folder(tuple(folders), make=False) if folders else self._fd
        if parent is None:
            raise FileNotFoundError(relative)
        try:
            fd = os.open(name, os.O_RDONLY | _NOFOLLOW, dir_fd=parent)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise OutputError(f"{self.path / relative} is a link: trashcards does not "
                                  "write through it (remove it, or choose another folder)"
                                  ) from None
            raise
        with os.fdopen(fd, "rb") as file:
            if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
                raise OutputError(f"{self.path / relative} is not a file")
            return file.read()

    def check(self, names: Iterable[str]) -> None:
        """Refuse, before anything is written, when any of ``names`` (paths relative to
        the folder, with ``/``) may not be written: a link or a folder is in the way, or
        a file trashcards did not write, or one changed since (without ``force``)."""
        for relative in names:
            self._check(relative)

    def _check(self, relative: str) -> None:
        try:
            data = self._read(relative)
        except FileNotFoundError:
            return
        except IsADirectoryError:
            raise OutputError(f"{self.path / relative} is a folder, not a file trashcards "
                              "wrote") from None
        listed = self.listed.get(relative)
        if listed is None:
            raise OutputError(f"{self.path / relative} was not written by trashcards "
                              f"{self.command}: it is not replaced (remove it, or choose "
                              "another folder)")
        if listed != _digest(data) and not self.force:
            raise OutputError(f"{self.path / relative} was changed since trashcards "
                              f"{self.command} wrote it: add --force to replace it")

    # -- writing -------------------------------------------------------------------------

    def write(self, relative: str, data: bytes) -> Path:
        """Write the file ``relative`` whole (checked first, see :meth:`check`); returns
        its path."""
        self._check(relative)
        *folders, name = relative.split("/")
        parent = self._folder(tuple(folders), make=True) if folders else self._fd
        assert parent is not None
        write_whole(name, data, folder_fd=parent)
        self.listed[relative] = _digest(data)
        return self.path / relative

    def adopt(self, names: Iterable[str]) -> int:
        """List the files ``names`` that others wrote meanwhile (those there); returns
        how many."""
        count = 0
        for relative in names:
            try:
                self.listed[relative] = _digest(self._read(relative))
                count += 1
            except FileNotFoundError:
                continue
        return count

    def remove_others(self, keep: Iterable[str]) -> list[str]:
        """Remove the listed files not in ``keep`` (a previous run wrote them, this one
        did not), each checked as by :meth:`check`; returns them."""
        kept = set(keep)
        gone = [relative for relative in self.listed if relative not in kept]
        for relative in gone:
            self._check(relative)
        for relative in gone:
            *folders, name = relative.split("/")
            parent = self._folder(tuple(folders), make=False) if folders else self._fd
            if parent is not None:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(name, dir_fd=parent)
            del self.listed[relative]
        return gone


def _is_link(folder_fd: int, name: str) -> bool:
    try:
        return stat.S_ISLNK(os.lstat(name, dir_fd=folder_fd).st_mode)
    except OSError:
        return False
