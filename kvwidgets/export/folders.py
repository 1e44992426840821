"""The folder an export writes into: checked and made once, with errors that name it."""

from __future__ import annotations

from pathlib import Path

from ..core.errors import InputError
from .errors import ExportError


def writable_folder(folder, what: str) -> Path:
    """`folder` as a Path that exists and is a folder, made if needed; `what` names what
    goes in it, for the error ("the widget's files", "the widget scripts")."""
    try:
        target = Path(folder).expanduser()
    except TypeError as exc:
        raise InputError(
            f"folder must be a folder path (str or pathlib.Path), got {type(folder).__name__}"
        ) from exc
    if target.exists() and not target.is_dir():
        raise ExportError(f"cannot write {what} into {target}: it is a file, not a folder")
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ExportError(f"cannot create the folder {target}: {exc.strerror or exc}") from exc
    return target
