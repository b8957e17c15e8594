"""YAML loading that remembers where each mapping came from, for file:line error messages.

Loading is bounded: the document's node graph is measured before anything is built, so aliases
("billion laughs") may expand to at most ``MAX_NODES`` values and nest at most ``MAX_DEPTH``
deep, or the file is refused with its line.  Only plain YAML is accepted — strings, numbers,
booleans, null, lists and mappings; a tag such as ``!!timestamp`` or ``!!binary`` is refused with
its line, and an unquoted date stays a string.  A number is written in decimal: YAML 1.1's other forms
(``1:30`` read as sexagesimal 90, ``0x10`` as 16, ``1_0`` as 10) stay text, so a field that wants a
number says what it got; a leading zero is still decimal (``010`` is 10, not YAML 1.1's octal 8).  A value
YAML reads as true/false or a number where text belongs (``name: No``, ``name: 007``) is quoted as written,
with the advice to quote it (``got``).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from judgekb.errors import DataError  # noqa: F401 - re-exported: modules import it from here
from judgekb.files import read_input

MAX_NODES = 100_000  # values after alias expansion; the largest legal scenario has well under 20,000
MAX_DEPTH = 100
_CORE = "tag:yaml.org,2002:"
PLAIN_TAGS = {_CORE + t for t in ("str", "int", "float", "bool", "null", "map", "seq", "merge")}
try:  # libyaml's parser when present (fast, and a state machine: no recursion on deep input)
    from yaml._yaml import CParser as _Parser
except ImportError:  # pragma: no cover - pure-Python PyYAML
    from yaml.parser import Parser as _Parser  # type: ignore[assignment]
    from yaml.reader import Reader
    from yaml.scanner import Scanner

    class _Parser(Reader, Scanner, _Parser):  # type: ignore[no-redef]
        def __init__(self, stream: str) -> None:
            Reader.__init__(self, stream)
            Scanner.__init__(self)
            _Parser.__init__(self)  # type: ignore[misc, call-arg]


SafeLoader: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""PyYAML's safe loader, on libyaml when present: for the corpus's large data files (players'
questions, vocabulary), which the pure-Python parser reads about ten times slower at every build."""


def safe_load(text: str) -> Any:
    """``yaml.safe_load`` on libyaml when present (the same values: safe tags only)."""
    return yaml.load(text, Loader=SafeLoader)  # noqa: S506 - SafeLoader is PyYAML's safe loader


def read_data(path: Path, expect: type = dict) -> Any:
    """A data file of the corpus: read, parsed, and a mapping (or ``expect``) at the top, else a DataError naming the file
    and, for bad YAML, the line.  Empty is an empty value.  (A hand-edited corpus file must never give a traceback.)"""
    text = read_text(path)
    try:
        data = safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise DataError(f"{path}{f':{mark.line + 1}' if mark else ''}: not valid YAML: {getattr(exc, 'problem', None) or exc}") from None
    if data is None:
        return expect()
    if not isinstance(data, expect):
        what = "a mapping" if expect is dict else "a list" if expect is list else expect.__name__
        raise DataError(f"{path}: expected {what} at the top of the file; got {type(data).__name__} {str(data)[:40]!r}")
    return data


class _Loader(_Parser, yaml.constructor.SafeConstructor, yaml.resolver.Resolver):  # type: ignore[misc, valid-type]
    """Parser events → nodes (composed here without recursion, within the budget) → Python values."""

    yaml_implicit_resolvers = {  # an unquoted date stays text
        first: [(tag, rx) for tag, rx in resolvers if tag != _CORE + "timestamp"]
        for first, resolvers in yaml.resolver.Resolver.yaml_implicit_resolvers.items()
    }

    yaml_implicit_resolvers = {  # numbers in decimal only (below): no sexagesimal, hexadecimal, octal or 1_000
        first: [(tag, rx) for tag, rx in resolvers if tag not in (_CORE + "int", _CORE + "float")]
        for first, resolvers in yaml_implicit_resolvers.items()
    }

    def __init__(self, text: str) -> None:
        _Parser.__init__(self, text)
        yaml.constructor.SafeConstructor.__init__(self)
        yaml.resolver.Resolver.__init__(self)

    def construct_yaml_int(self, node: yaml.ScalarNode) -> int:
        return int(str(node.value), 10)  # (decimal: YAML 1.1 read 010 as octal 8)


_Loader.add_implicit_resolver(_CORE + "int", re.compile(r"^[-+]?[0-9]+$"), list("-+0123456789"))
_Loader.add_implicit_resolver(
    _CORE + "float",
    re.compile(r"^(?:[-+]?[0-9]+\.[0-9]*(?:[eE][-+][0-9]+)?|\.[0-9]+(?:[eE][-+][0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"),
    list("-+0123456789."),
)
_Loader.add_constructor(_CORE + "int", _Loader.construct_yaml_int)  # type: ignore[type-var]


class Located(dict):  # type: ignore[type-arg]
    """A loaded mapping that knows the line of each of its fields (``key_lines``), for messages that name a field's own line."""

    key_lines: dict[Any, int]
    key_sources: dict[Any, str]  # a value YAML read as true/false or a number, as the file writes it (``got``)

    def __repr__(self) -> str:  # a message quoting the mapping shows what the file says, not the line bookkeeping
        return "{" + ", ".join(f"{k!r}: {v!r}" for k, v in self.items() if k != "__line__") + "}"


def _construct_mapping(loader: _Loader, node: yaml.MappingNode) -> dict[Any, Any]:
    seen: dict[Any, int] = {}
    for key_node, _ in node.value:  # a key given twice: YAML keeps the last silently, and a whole list of steps is lost
        if isinstance(key_node, yaml.ScalarNode) and key_node.tag != _CORE + "merge":
            key = loader.construct_object(key_node)
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"field '{key}' is given twice (first on line {seen[key]}): YAML would keep only the last",
                    key_node.start_mark,
                )
            seen[key] = key_node.start_mark.line + 1
    mapping = Located(loader.construct_mapping(node, deep=True))
    mapping.key_lines = seen
    mapping.key_sources = {
        loader.construct_object(key_node): value_node.value
        for key_node, value_node in node.value
        if isinstance(key_node, yaml.ScalarNode) and isinstance(value_node, yaml.ScalarNode) and not value_node.style
        and value_node.tag in (_CORE + "bool", _CORE + "int", _CORE + "float")
    }
    mapping["__line__"] = node.start_mark.line + 1
    return mapping


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)  # type: ignore[type-var]


def read_text(path: Path) -> str:
    """A corpus file's text: a regular file only (a FIFO put in the corpus blocked the build for good), as UTF-8."""
    try:
        return read_input(path, None).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataError(f"{path}: not UTF-8 text (byte {exc.start})") from None


def load(path: Path) -> Any:
    """Parse a YAML file; every mapping gains ``__line__``.  Syntax errors become DataError."""
    return loads(read_text(path), path)


# JSON's escape of a character outside the Basic Multilingual Plane, a surrogate pair ("\ud83d\ude00", as
# Python's json.dumps writes an emoji): YAML has no such pair, and refused the scenario a JSON library wrote
SURROGATE_PAIR = re.compile(r"(?<!\\)\\u([dD][89abAB][0-9a-fA-F]{2})\\u([dD][c-fC-F][0-9a-fA-F]{2})")


def _joined_pair(match: re.Match[str]) -> str:
    """A JSON surrogate-pair escape as YAML's own eight-digit escape of the same character."""
    high, low = int(match[1], 16), int(match[2], 16)
    return f"\\U{0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00):08x}"


def loads(text: str, path: Path, max_nodes: int = MAX_NODES) -> Any:
    """Parse YAML text within the node budget; ``path`` names it in error messages.  (YAML is a superset of
    JSON but for one escape: a surrogate pair is read as YAML's ``\\U`` escape of its character.)"""
    loader = _Loader(SURROGATE_PAIR.sub(_joined_pair, text) if "\\u" in text else text)
    try:
        node = _compose(loader, path, max_nodes)
        return None if node is None else loader.construct_document(node)
    except DataError:
        raise
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        where = f"{path}:{mark.line + 1}" if mark else str(path)
        problem = getattr(exc, "problem", None) or str(exc)
        raise DataError(f"{where}: invalid YAML: {problem}") from None
    except RecursionError:
        raise DataError(f"{path}: invalid YAML: nested too deeply") from None
    except (ValueError, KeyError, TypeError, OverflowError) as exc:  # a value its (plain) tag cannot hold
        raise DataError(f"{path}: invalid YAML value: {exc}") from None


def _compose(loader: _Loader, path: Path, max_nodes: int) -> yaml.Node | None:
    """One document's node graph, refusing tags, depth over MAX_DEPTH and more than ``max_nodes`` expanded values.

    ``grand`` counts values as if every alias were written out, so a "billion laughs" file is
    refused after ``max_nodes`` steps of work, never expanded.
    """
    ev = yaml.events
    loader.get_event()  # stream start
    if loader.check_event(ev.StreamEndEvent):
        return None
    loader.get_event()  # document start
    anchors: dict[str, yaml.Node] = {}
    size: dict[int, int] = {}  # expanded size of each finished node
    open_nodes: list[tuple[yaml.Node, int]] = []  # containers being built, with ``grand`` when they opened
    grand = 0
    root: yaml.Node | None = None
    while root is None:
        event: Any = loader.get_event()  # (libyaml's events: the stubs type only PyYAML's)
        line = event.start_mark.line + 1
        if isinstance(event, (ev.SequenceEndEvent, ev.MappingEndEvent)):
            node, opened = open_nodes.pop()
            node.end_mark = event.end_mark
            size[id(node)] = grand - opened
            if not open_nodes:
                root = node
            continue
        if isinstance(event, ev.AliasEvent):
            node = anchors.get(event.anchor)  # type: ignore[assignment, arg-type]
            if node is None:
                raise DataError(f"{path}:{line}: invalid YAML: alias *{event.anchor} names no anchor")
            if id(node) not in size:
                raise DataError(f"{path}:{line}: invalid YAML: alias *{event.anchor} refers to the list or mapping that contains it")
            grand += size[id(node)]
        else:
            tag = event.tag
            if isinstance(event, ev.ScalarEvent):
                kind: type[yaml.Node] = yaml.ScalarNode
                if tag in (None, "!"):
                    tag = loader.resolve(yaml.ScalarNode, event.value, event.implicit)
                # (libyaml's marks are not PyYAML's Mark class, but read the same)
                node = yaml.ScalarNode(tag, event.value, event.start_mark, event.end_mark, style=event.style)  # type: ignore[arg-type]
                size[id(node)] = 1
            else:
                kind = yaml.SequenceNode if isinstance(event, ev.SequenceStartEvent) else yaml.MappingNode
                if tag in (None, "!"):
                    tag = loader.resolve(kind, None, event.implicit)
                node = kind(tag, [], event.start_mark, None, flow_style=event.flow_style)
            _check_tag(node, path, line, loader)
            if event.anchor is not None:
                anchors[event.anchor] = node
            grand += 1
        if grand > max_nodes:
            raise DataError(
                f"{path}:{line}: this YAML expands to more than {max_nodes:,} values "
                "(aliases like *name repeat whole parts); write it out plainly"
            )
        if open_nodes:
            _attach(open_nodes[-1][0], node)
        if isinstance(node, yaml.ScalarNode) or isinstance(event, ev.AliasEvent):
            if not open_nodes:
                root = node
        else:
            if len(open_nodes) >= MAX_DEPTH:
                raise DataError(f"{path}:{line}: invalid YAML: nested more than {MAX_DEPTH} levels deep")
            open_nodes.append((node, grand - 1))
    if not loader.check_event(ev.DocumentEndEvent):
        raise DataError(f"{path}: invalid YAML: expected one document")
    loader.get_event()
    if not loader.check_event(ev.StreamEndEvent):
        raise DataError(f"{path}:{_line(loader.peek_event())}: invalid YAML: expected one document, found another")
    return root


def _line(event: Any) -> int:
    """An event's line, counted from 1."""
    return int(event.start_mark.line) + 1


def _attach(parent: yaml.Node, node: yaml.Node) -> None:
    """Add a child to a container being built: a list item, or the key or value of a mapping pair."""
    if isinstance(parent, yaml.SequenceNode):
        parent.value.append(node)
    elif parent.value and len(parent.value[-1]) == 1:
        parent.value[-1] = (parent.value[-1][0], node)
    else:
        parent.value.append((node,))


def _check_tag(node: yaml.Node, path: Path, line: int, loader: Any) -> None:
    tag = node.tag
    if tag not in PLAIN_TAGS:
        shown = "!!" + tag[len(_CORE) :] if tag.startswith(_CORE) else tag
        raise DataError(f"{path}:{line}: YAML tag {shown} is not allowed; use plain text, numbers, true/false, lists and mappings")
    if isinstance(node, yaml.ScalarNode) and tag not in (_CORE + "str", _CORE + "null"):
        plain = loader.resolve(yaml.ScalarNode, node.value, (True, False))
        if plain != tag and not (tag == _CORE + "float" and plain == _CORE + "int"):
            raise DataError(f"{path}:{line}: {node.value[:40]!r} is not a valid !!{tag[len(_CORE) :]}")
        if plain == _CORE + "int" and len(node.value) > 4000:
            raise DataError(f"{path}:{line}: a number with {len(node.value):,} digits is too long")


def where(path: Path, item: Any, field: Any = None) -> str:
    """``file:line`` for a loaded mapping (or just the file): ``field``'s own line when given and known."""
    line = getattr(item, "key_lines", {}).get(field) if field is not None else None
    line = line or (item.get("__line__") if isinstance(item, dict) else None)
    return f"{path}:{line}" if line else str(path)


def got(item: Any, field: Any) -> str:
    """``got VALUE`` for a field that must be text: a value YAML read as true/false or a number (``name: No``) is
    shown as written, with the advice to quote it, not as the ``False`` or ``7`` the user never typed."""
    value = item.get(field) if isinstance(item, dict) else None
    written = getattr(item, "key_sources", {}).get(field)
    if written is None or not isinstance(value, bool | int | float):
        return f"got {value!r}"
    reads = str(value).lower() if isinstance(value, bool) else f"the number {value!r}"
    return f"got {written}, which YAML reads as {reads}: put it in quotes, {field}: \"{written}\""


def check_fields(path: Path, item: Any, required: set[str], optional: set[str], what: str) -> None:
    """Reject a mapping with missing or unknown fields, naming file, line and field."""
    if not isinstance(item, dict):
        raise DataError(f"{where(path, item)}: {what} must be a mapping, got {item!r}")
    keys = set(item) - {"__line__"}
    missing = sorted(required - keys)
    if missing:
        raise DataError(f"{where(path, item)}: {what} is missing field '{missing[0]}'")
    unknown = sorted(keys - required - optional, key=lambda k: (getattr(item, "key_lines", {}).get(k, 0), str(k)))
    if unknown:
        raise DataError(f"{where(path, item, unknown[0])}: {what} has unknown field '{unknown[0]}'")


def strip_lines(value: Any) -> Any:
    """A copy of loaded data without the ``__line__`` bookkeeping keys."""
    if isinstance(value, dict):
        return {k: strip_lines(v) for k, v in value.items() if k != "__line__"}
    if isinstance(value, list):
        return [strip_lines(v) for v in value]
    return value
