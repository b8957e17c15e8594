"""The corpus: manifests, source files and their parsers.

``corpus/manifests/*.yaml`` describe the documents (what each is, which edition,
version, date, authority); ``corpus/sources`` holds the documents unchanged; ``corpus/maps``
holds the hand-reviewed maps that say how each is cut into clauses.  This module validates
all of it and hands each document to its parser.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING

from judgekb.files import stamp_of

if TYPE_CHECKING:  # the model is imported where it is built: a lookup's start-up does not need it
    from judgekb.corpus.model import Clause, Document

MANIFEST_FIELDS = {
    "id",
    "title",
    "edition",
    "kind",
    "authority",
    "publisher",
    "version",
    "date",
    "short",
    "file",
    "sha256",
    "parser",
    "rank",
}
DOCUMENT_KINDS = ("official rules", "official FAQ", "official event rules", "unofficial summary", "unofficial web copy")
PARSERS = ("spanmap", "linemap", "markdown2", "paragraphs", "html")
PROVENANCE_FIELDS = {"repository", "commit", "path"}
PROVENANCE_OPTIONAL = {"route"}  # the page's route name on the site, as its links name it
OPTIONAL_FIELDS = {"map", "structure", "provenance", "pages", "supersedes", "copies", "chrome"}


def default_corpus() -> Path:
    """The corpus/ folder beside the package (a source checkout)."""
    return Path(__file__).resolve().parents[2] / "corpus"


def check_corpus(corpus: Path) -> None:
    """A corpus folder is a folder with ``manifests/*.yaml``: checked before anything lists or hashes it
    (``--corpus /tmp`` walked all of /tmp).  Raises DataError naming the folder."""
    from judgekb.errors import DataError  # (not yamlio's: a lookup's start-up does not load the YAML reader)

    if not corpus.is_dir():
        problem = "not a folder" if corpus.exists() else "no such folder"
        raise DataError(f"{corpus}: {problem}; --corpus (or JUDGEKB_CORPUS) names a judgekb corpus folder, the one holding manifests/")
    try:
        with os.scandir(corpus / "manifests") as entries:
            found = any(e.name.endswith(".yaml") and e.is_file() for e in entries)
    except OSError:
        found = False
    if not found:
        raise DataError(
            f"{corpus}: not a judgekb corpus folder (no manifests/*.yaml); --corpus (or JUDGEKB_CORPUS) names the folder holding manifests/"
        )


def load_manifest(path: Path, corpus: Path) -> Document:
    """Read and validate one manifest; errors name the file, line and field."""
    from judgekb.corpus.model import Document
    from judgekb.yamlio import DataError, check_fields, load, strip_lines, where

    data = load(path)
    check_fields(path, data, MANIFEST_FIELDS, OPTIONAL_FIELDS, "manifest")
    if data["kind"] not in DOCUMENT_KINDS:
        raise DataError(f"{where(path, data, 'kind')}: field 'kind' must be one of {', '.join(DOCUMENT_KINDS)}; got {data['kind']!r}")
    if data["edition"] not in (1, 2):
        raise DataError(f"{where(path, data, 'edition')}: field 'edition' must be 1 or 2; got {data['edition']!r}")
    if data["parser"] not in PARSERS:
        raise DataError(f"{where(path, data, 'parser')}: field 'parser' must be one of {', '.join(PARSERS)}; got {data['parser']!r}")
    if not isinstance(data["rank"], int):
        raise DataError(f"{where(path, data, 'rank')}: field 'rank' must be a whole number; got {data['rank']!r}")
    if data["parser"] not in ("markdown2", "html") and not data.get("map"):
        raise DataError(f"{where(path, data, 'parser')}: field 'map' is required by parser '{data['parser']}'")
    if data["parser"] == "html" and not data.get("structure"):
        raise DataError(f"{where(path, data, 'parser')}: field 'structure' is required by parser 'html'")
    if not all(isinstance(t, str) and t.strip() for t in data.get("chrome") or []):
        raise DataError(f"{where(path, data, 'chrome')}: field 'chrome' must be a list of texts (the start of each site-only passage)")
    if not isinstance(data.get("copies") or [], list):
        raise DataError(f"{where(path, data, 'copies')}: field 'copies' must be a list of document ids; got {data['copies']!r}")
    provenance = data.get("provenance")
    if provenance is not None:
        check_fields(path, provenance, PROVENANCE_FIELDS, PROVENANCE_OPTIONAL, "provenance")
    if data.get("pages") not in (None, "printed", "none", "lost"):
        raise DataError(f"{where(path, data, 'pages')}: field 'pages' must be 'printed', 'none' or 'lost'; got {data['pages']!r}")
    for key in ("file", "map"):
        if data.get(key) and not (corpus / data[key]).is_file():
            what = "something that is not a regular file (a FIFO, device or folder)" if (corpus / data[key]).exists() else "a missing file"
            raise DataError(f"{where(path, data, key)}: field '{key}' names {what}: {data[key]}")
    return Document(
        id=str(data["id"]),
        title=str(data["title"]),
        edition=int(data["edition"]),
        kind=str(data["kind"]),
        authority=" ".join(str(data["authority"]).split()),
        version=str(data["version"]),
        date=str(data["date"] or ""),
        file=str(data["file"]),
        short=str(data["short"]),
        parser=str(data["parser"]),
        map=str(data["map"]) if data.get("map") else None,
        rank=int(data["rank"]),
        publisher=str(data["publisher"]),
        sha256=str(data["sha256"]),
        structure=str(data.get("structure") or ""),
        provenance=json.dumps(strip_lines(provenance), sort_keys=True) if provenance else "",
        pages=str(data.get("pages") or "printed"),
        supersedes=str(data.get("supersedes") or ""),
        copies=",".join(str(d) for d in (data.get("copies") or [])),
        chrome=tuple(str(t) for t in (data.get("chrome") or [])),
    )


def load_documents(corpus: Path) -> list[Document]:
    """All manifests of a corpus, in id order; duplicate ids are an error."""
    from judgekb.yamlio import DataError

    manifests = sorted((corpus / "manifests").glob("*.yaml"))
    if not manifests:
        raise DataError(f"{corpus}/manifests: no manifests found")
    docs = [load_manifest(p, corpus) for p in manifests]
    seen: dict[str, Path] = {}
    for doc, path in zip(docs, manifests, strict=True):
        if doc.id in seen:
            raise DataError(f"{path}: document id '{doc.id}' already used by {seen[doc.id]}")
        seen[doc.id] = path
    for doc, path in zip(docs, manifests, strict=True):
        for other in [doc.supersedes, *doc.copies.split(",")]:
            if other and other not in seen:
                raise DataError(f"{path}: names document '{other}', which no manifest describes")
    return docs


def read_source(doc: Document, corpus: Path) -> str:
    """The document's text, checked against the manifest's sha256 (sources are never edited)."""
    import hashlib  # here, not at the top: loading OpenSSL costs a cold search ~3 ms it never needs

    from judgekb.yamlio import DataError

    path = corpus / doc.file
    raw = path.read_bytes()
    digest = hashlib.sha256(raw).hexdigest()
    if digest != doc.sha256:
        raise DataError(f"{path}: sha256 {digest} does not match its manifest ({doc.sha256}); sources are copied unchanged")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataError(f"{path}: not UTF-8 at byte {exc.start}") from None


def parse_document(doc: Document, corpus: Path) -> list[Clause]:
    """Cut one document into clauses with its parser, numbering them in document order."""
    from judgekb.corpus import errata, glyphs
    from judgekb.corpus.parsers import html, linemap, markdown2, paragraphs, spanmap
    from judgekb.yamlio import DataError

    source = read_source(doc, corpus)
    if doc.parser not in ("markdown2", "html") and not doc.map:  # (a manifest's check requires one)
        raise DataError(f"{doc.id}: field 'map' is required by parser '{doc.parser}'")
    map_path = corpus / (doc.map or "")
    if doc.parser == "spanmap":
        clauses = spanmap.parse(doc, source, map_path)
    elif doc.parser == "linemap":
        clauses = linemap.parse(doc, source, map_path)
    elif doc.parser == "markdown2":
        clauses = markdown2.parse(doc, source)
    elif doc.parser == "html":
        clauses = html.parse(doc, source, structure=doc.structure)
    else:
        clauses = paragraphs.parse(doc, source, map_path)
    for seq, clause in enumerate(clauses, 1):
        clause.seq = seq
    glyphs.annotate(doc.id, clauses, corpus)  # icon glyphs explained, misprints noted
    glyphs.annotate_lost_icons(doc.id, clauses, source, corpus)  # icons the text extraction dropped, noted
    errata.annotate(doc.id, clauses, corpus)  # each errata entry: replaces the printed text, or clarifies it
    return clauses


def fingerprinted_files(corpus: Path) -> list[Path]:
    """The files a database is built from: every corpus file and the package's code, in a fixed order."""
    package = Path(__file__).resolve().parents[1]
    return [Path(p) for p in sorted(_files_under(str(corpus)))] + [
        Path(p) for p in sorted(_files_under(str(package))) if p.endswith(".py")
    ]


def _files_under(folder: str) -> list[str]:
    """Every file below ``folder`` (as ``Path.rglob("*")`` with ``is_file()`` finds them, symbolic links
    to folders not followed), by ``os.scandir``, whose entries know their type without a ``stat``:
    a cold command lists these files each time, and ``rglob`` took 2-4 ms of its start."""
    found: list[str] = []
    with os.scandir(folder) as entries:
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                found += _files_under(entry.path)
            elif entry.is_file():
                found.append(entry.path)
    return found


def corpus_fingerprint(corpus: Path) -> str:
    """A hash of every corpus file and of the package's code: the database is rebuilt when either changes.

    The build runs code well beyond the parsers (links, cards, citations, the search tables), so
    all of it counts; a change to the CLI or web code only costs one rebuild.
    """
    import hashlib

    digest = hashlib.sha256()
    for path in fingerprinted_files(corpus):
        digest.update(str(path.relative_to(path.parents[1])).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def corpus_stamp(corpus: Path) -> tuple[str, int]:
    """What changes whenever one of those files is added, removed or written: their names, devices,
    inodes, sizes and times (a change time cannot be set back), each file's NUL-separated, and the
    newest of those times in nanoseconds.  Comparing it costs a cold command a listing, where the
    fingerprint reads and hashes every file; it is compared whole, not hashed, so nothing can collide."""
    parts, newest = [], 0
    for path in fingerprinted_files(corpus):
        st = path.stat()
        parts.append(f"{path}\0{stamp_of(st)}")
        newest = max(newest, st.st_mtime_ns, st.st_ctime_ns)
    return "\0".join(parts), newest
