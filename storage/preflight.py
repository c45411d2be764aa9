"""The SQLite file's check before it is opened: refuse, with one sentence naming DATABASE_PATH,
a database the bot could not use, before anything else starts.

``python -m bot`` runs it before connecting to Discord; the bot's ``setup_hook`` runs it again
before opening the database (a bot started another way gets the same sentences).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sqlite3
from pathlib import Path
from typing import Final

from .errors import StorageError

MIN_FREE_BYTES: Final = 1 << 20
"""Less free space than this in the database's folder is a full disk."""

_LOCK_WAIT_S: Final = 5.0


class DatabaseUnusable(StorageError):
    """The database at DATABASE_PATH cannot be used; the message says why and what to do."""


def known_schema_version() -> int:
    """The last schema version this code's migrations create."""
    from .migrator import load_migrations

    return len(load_migrations())


async def check_database(path: str | os.PathLike[str]) -> None:
    """Raise :class:`DatabaseUnusable` unless the database at ``path`` can be opened and written:
    a folder, a missing folder that cannot be made, a folder or file not writable, a file that is
    not a database, a full disk, a schema newer than this code, a lock held too long.

    The write is a probe (a table created and a row inserted) inside a transaction that is rolled
    back: nothing in the file changes. ``:memory:`` passes at once.
    """
    await asyncio.to_thread(check_database_now, path)


def check_database_now(path: str | os.PathLike[str]) -> None:
    """:func:`check_database`, blocking."""
    target = os.fspath(path)
    if target == ":memory:":
        return
    uri = target.startswith("file:")
    where = f"DATABASE_PATH={target}"
    if not uri:
        _check_place(Path(target), where)
    try:
        conn = sqlite3.connect(target, uri=uri, isolation_level=None, timeout=_LOCK_WAIT_S)
    except sqlite3.Error as exc:
        raise DatabaseUnusable(_explain(exc, target, where)) from exc
    try:
        found = int(conn.execute("PRAGMA user_version").fetchone()[0])
        known = known_schema_version()
        if found > known:
            raise DatabaseUnusable(
                f"{where} was written by a newer version of the bot (schema {found}, this bot "
                f"knows {known}): upgrade the bot or use another DATABASE_PATH")
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.execute("CREATE TABLE IF NOT EXISTS _startup_probe (x)")
            conn.execute("INSERT INTO _startup_probe VALUES (randomblob(4096))")
        finally:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
    except sqlite3.Error as exc:
        raise DatabaseUnusable(_explain(exc, target, where)) from exc
    finally:
        conn.close()


def _check_place(file: Path, where: str) -> None:
    """The path itself: not a folder, its folder there (or made) and writable, space left."""
    if file.is_dir():
        raise DatabaseUnusable(
            f"{where} is a folder, not a database file: set DATABASE_PATH to a file such as "
            f"{file / 'panda_royale.db'}")
    folder = file.parent
    if folder.exists() and not folder.is_dir():
        raise DatabaseUnusable(
            f"{where}: {folder} is a file, not a folder: use another DATABASE_PATH")
    if not folder.is_dir():
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise DatabaseUnusable(
                f"{where}: its folder {folder} does not exist and cannot be created "
                f"({exc.strerror or exc}): create it or use another DATABASE_PATH") from exc
    if not os.access(folder, os.W_OK | os.X_OK):
        raise DatabaseUnusable(
            f"{where}: the folder {folder} is not writable by this user: fix its permissions "
            "or use another DATABASE_PATH")
    if file.exists() and not os.access(file, os.R_OK | os.W_OK):
        raise DatabaseUnusable(
            f"{where} is read-only for this user: make it writable or use another DATABASE_PATH")
    try:
        free = shutil.disk_usage(folder).free
    except OSError:
        return
    if free < MIN_FREE_BYTES:
        raise DatabaseUnusable(
            f"{where}: the disk is full ({free // 1024} KiB free in {folder}): free some space "
            "or use another DATABASE_PATH")


def _explain(exc: sqlite3.Error, target: str, where: str) -> str:
    code = getattr(exc, "sqlite_errorname", "")
    text = str(exc)
    if code == "SQLITE_NOTADB" or "not a database" in text:
        return (f"{where} is not a SQLite database (or it is damaged): restore it from a backup "
                "or use another DATABASE_PATH")
    if code.startswith("SQLITE_READONLY") or "readonly" in text:
        return (f"{where} is read-only ({text}): make the file and its folder writable or use "
                "another DATABASE_PATH")
    if code == "SQLITE_FULL" or "disk is full" in text:
        return f"{where}: the disk is full: free some space or use another DATABASE_PATH"
    if code.startswith("SQLITE_BUSY") or "locked" in text:
        return (f"{where} is locked by another process (is the bot already running?): stop it "
                "or use another DATABASE_PATH")
    if code.startswith("SQLITE_CANTOPEN") or "unable to open" in text:
        return (f"{where} cannot be opened ({text}): check that its folder exists and is "
                "writable, or use another DATABASE_PATH")
    return f"{where} cannot be used ({text}): check the file or use another DATABASE_PATH"
