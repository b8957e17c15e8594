"""YAML loading that remembers where each mapping came from, for file:line error messages."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from judgekb.errors import DataError  # noqa: F401 - re-exported: modules import it from here


class _LineLoader(yaml.SafeLoader):
    pass


def _construct_mapping(loader: _LineLoader, node: yaml.MappingNode) -> dict[str, Any]:
    mapping = loader.construct_mapping(node, deep=True)
    mapping["__line__"] = node.start_mark.line + 1
    return mapping


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def load(path: Path) -> Any:
    """Parse a YAML file; every mapping gains ``__line__``.  Syntax errors become DataError."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(f"{path}: cannot read: {exc}") from None
    return loads(text, path)


def loads(text: str, path: Path) -> Any:
    """Parse YAML text; ``path`` names it in error messages."""
    try:
        return yaml.load(text, Loader=_LineLoader)  # noqa: S506 - SafeLoader subclass
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{path}:{mark.line + 1}" if mark else str(path)
        problem = getattr(exc, "problem", None) or str(exc)
        raise DataError(f"{where}: invalid YAML: {problem}") from None


def where(path: Path, item: Any) -> str:
    """``file:line`` for a loaded mapping (or just the file)."""
    line = item.get("__line__") if isinstance(item, dict) else None
    return f"{path}:{line}" if line else str(path)


def check_fields(path: Path, item: Any, required: set[str], optional: set[str], what: str) -> None:
    """Reject a mapping with missing or unknown fields, naming file, line and field."""
    if not isinstance(item, dict):
        raise DataError(f"{where(path, item)}: {what} must be a mapping, got {item!r}")
    keys = set(item) - {"__line__"}
    missing = sorted(required - keys)
    if missing:
        raise DataError(f"{where(path, item)}: {what} is missing field '{missing[0]}'")
    unknown = sorted(keys - required - optional)
    if unknown:
        raise DataError(f"{where(path, item)}: {what} has unknown field '{unknown[0]}'")


def strip_lines(value: Any) -> Any:
    """A copy of loaded data without the ``__line__`` bookkeeping keys."""
    if isinstance(value, dict):
        return {k: strip_lines(v) for k, v in value.items() if k != "__line__"}
    if isinstance(value, list):
        return [strip_lines(v) for v in value]
    return value
