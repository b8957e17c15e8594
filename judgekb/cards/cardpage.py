"""A card's page: what every clause of the corpus says about one card, for ``judgekb card``."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from judgekb.authority.citation import document_part
from judgekb.cards import cardnames, restricted_lists, written
from judgekb.cards.corpus_cards import card_id, printing_number
from judgekb.corpus import errata
from judgekb.corpus.parsers.linemap import slug
from judgekb.web.webtext import plain_card_text

FORMATS = ("joust", "melee")
ORDINAL = {1: "1st", 2: "2nd"}


def _imported(db: Any, edition: int, key: str) -> list[dict[str, Any]]:
    """The imported printings of a title, each with its first-edition crests ("Noble, War") said beside
    its other printed values (the import keeps them among the card's ``stats``)."""
    if not db["imported_cards"].exists():
        return []
    rows = list(db.query(f"select * from imported_cards where edition = ? and key = ? order by {cardnames.PRINTING_ORDER}", [edition, key]))
    for row in rows:
        try:
            stats = json.loads(row.get("stats") or "{}")
        except ValueError:
            stats = {}
        crest = stats.get("crest") if isinstance(stats, dict) else None
        row["crest"] = ", ".join(str(c) for c in crest) if isinstance(crest, list) else str(crest or "")
    return rows


WEB_LINK = re.compile(r"https?://[^\s<>\"']+")  # a source a card database names: only a web address is linked


def _errata_entries(row: dict[str, Any]) -> list[Any]:
    """The card database's ``errata`` (throneteki: each version's wording) or ``erratas`` (agot1: spans), as imported."""
    try:
        entries = json.loads(row.get("errata_text") or "[]")
    except ValueError:
        return []
    return entries if isinstance(entries, list) else []


def wording(row: dict[str, Any]) -> dict[str, Any]:
    """What an imported card's text is (review r81, M3): the printed wording, or the wording with errata applied.

    The card databases keep the current wording in ``text``.  Throneteki's ``errata`` lists each version of a card's
    text: the ``original`` (as printed) and each erratum's (issuer, version, link); its last is the card's text.
    agot-lcg-search's ``erratas`` marks the spans of ``rules_text`` (line, start, end) its errata gave, and records
    neither the printed words nor where the errata was issued.  Returns ``{"is": "printed"}``, or ``{"is":
    "errata", "printed": original wording or None, "sources": [{issuer, version, link}], "marked": [[start, end]]}``
    (offsets into the text).  A card database that records no errata for a card says nothing: it is "printed"."""
    text = str(row.get("text") or "")
    entries = [e for e in _errata_entries(row) if isinstance(e, dict)]
    if row.get("edition") == 2:
        later = [e for e in entries if e.get("version") != "original"]
        if not later:
            return {"is": "printed"}
        original = next((e.get("text") for e in entries if e.get("version") == "original" and isinstance(e.get("text"), str)), None)
        sources = []
        for e in later:
            link = e.get("link") if isinstance(e.get("link"), str) and WEB_LINK.fullmatch(e["link"]) else None
            sources.append({"issuer": str(e.get("issuer") or "issuer not recorded"), "version": str(e.get("version") or ""), "link": link})
        return {"is": "errata", "printed": original if original != text else None, "sources": sources, "marked": []}
    lines = text.split("\n")
    starts = [0]  # where each line of the text begins
    for shown in lines[:-1]:
        starts.append(starts[-1] + len(shown) + 1)
    marked = []
    for e in entries:
        at = [v for v in (e.get("line"), e.get("start"), e.get("end")) if isinstance(v, int) and not isinstance(v, bool)]
        if len(at) != 3:
            continue
        line, start, end = at
        if 0 <= line < len(lines) and 0 <= start < end <= len(lines[line]):  # (a span the text does not have is not marked)
            marked.append([starts[line] + start, starts[line] + end])
    if not marked:
        return {"is": "printed"}
    return {"is": "errata", "printed": None, "sources": [], "marked": sorted(marked)}


LIST_KINDS = ("restricted", "banned", "list-change")
OWN_KINDS = ("errata", *LIST_KINDS)  # a card's own entries, each in its section of the page
WRITES_TITLE = "the text writes its title"  # a clause found by the title it writes (``written``), not by a printing it cites
# an entry of the errata section that gives no new wording (corpus/errata-effects.yaml)
CLARIFICATIONS = "Card clarifications (rule on how the printed text works; the printed text stands)"


def _imported_keys(row: dict[str, Any]) -> set[tuple[str, int]]:
    """The (group, number) keys an imported printing answers to (see ``cards.printing_group``)."""
    number = printing_number(row.get("number"))
    if number is None:
        return set()
    if row["edition"] == 1:
        return {(str(row.get("cycle") or ""), number)}
    groups = {slug(str(row.get("set") or ""))} | ({re.sub(r"-cycle$", "", slug(str(row["cycle"])))} if row.get("cycle") else set())
    return {(g, number) for g in groups}


WITHDRAWN = "no longer listed"
NOT_IN_FORCE = "not on a list in the FAQ in force (restricted in an earlier version, whose lists it no longer carries)"


def _status(entries: list[dict[str, Any]], was: list[dict[str, Any]] = ()) -> dict[str, str]:  # type: ignore[assignment]
    """One printing's status; an entry a later FAQ version dropped says so instead of "restricted"."""
    on, gone = {e["list"] for e in entries}, {e["list"] for e in was}
    out = {fmt: ("restricted" if fmt in on else WITHDRAWN if fmt in gone else "not restricted") for fmt in FORMATS}
    out["banned"] = "banned" if "banned" in on else WITHDRAWN if "banned" in gone else "not banned"
    return out


def _summary(printings: list[dict[str, Any]]) -> dict[str, str]:
    """One status per list for the whole title, naming the printings when only some are listed."""
    out = {}
    lists = (("joust", "restricted", "not restricted"), ("melee", "restricted", "not restricted"), ("banned", "banned", "not banned"))
    for fmt, yes, no in lists:
        listed = [p["code"] for p in printings if p["status"][fmt] == yes]
        if not listed:
            out[fmt] = NOT_IN_FORCE if any(p["status"][fmt] == WITHDRAWN for p in printings) else no
        elif len(listed) == len(printings):
            out[fmt] = yes
        else:
            out[fmt] = f"{yes}: {', '.join(listed)} only"
    return out


def page(db: Any, card: dict[str, Any]) -> dict[str, Any]:
    rows = list(
        db.query(
            "select c.id, c.kind, c.heading, c.text, c.citation, c.version, c.data, c.doc, c.seq, l.reason "
            "from links l join clauses c on c.id = l.src where l.dst = ? and l.type = 'mentions' order by c.doc, c.seq",
            [card["id"]],
        )
    )
    # the clauses that write its title with no printing beside it (the Rules Reference's title cards): read too
    linked = {r["id"] for r in rows}
    named = [c for c in written.clauses_writing(db, [card["name"], *card["spellings"]], card["edition"]) if c not in linked]
    if named:
        sql = "select id, kind, heading, text, citation, version, data, doc, seq from clauses where id in (select value from json_each(?))"
        rows = sorted(rows + [r | {"reason": WRITES_TITLE} for r in db.query(sql, [json.dumps(named)])], key=lambda r: (r["doc"], r["seq"]))
    for row in rows:
        row["data"] = json.loads(row["data"] or "{}")

    def entry(row: dict[str, Any]) -> dict[str, Any]:
        out = {"id": row["id"], "citation": row["citation"], "text": row["text"]}
        if row["kind"] == "qa":
            question = row["data"].get("question")  # FAQ v4.1: the heading is a title, the text opens with the question
            out["question"] = question or row["heading"]
            if question and row["text"].startswith(question):
                out["text"] = row["text"][len(question) :].strip()
        if row["version"]:
            out["version"] = row["version"]
        if row["reason"] == WRITES_TITLE:
            out["writes_title"] = True
        successor = row["data"].get("successor") or {}
        if successor.get("relation") == "removed":
            out["withdrawn"] = {"version": successor["version"], "see": successor["id"]}
        return out

    # An entry a later FAQ version carries on is shown once, as the later text; a list entry
    # the later version dropped (the 2nd-edition FAQ v4.1 prints no restricted lists) stays
    # listed, saying so (its status: ``dropped`` below).
    withdrawn = {r["id"] for r in rows if (r["data"].get("successor") or {}).get("relation") == "removed"}
    rows = [r for r in rows if r["id"] in withdrawn or not r["data"].get("successor")]
    # a clause that only writes the title is never this card's errata or list entry (Esgred's errata writes
    # "Asha Greyjoy"): a Q&A entry is among the FAQ answers, anything else among the other clauses
    own = [r for r in rows if r["reason"] != WRITES_TITLE]
    restricted = {fmt: [entry(r) for r in own if r["kind"] == "restricted" and r["data"].get("format") == fmt] for fmt in FORMATS}
    changes = [entry(r) | {"list": r["data"].get("list")} for r in own if r["kind"] == "list-change"]
    banned = [entry(r) for r in own if r["kind"] == "banned"]
    printed = _imported(db, card["edition"], card["key"])
    listing = "select doc from clauses where kind in ('restricted', 'banned')"
    sql = f"select * from documents where edition = ? and id in ({listing}) order by id"
    documents = list(db.query(sql, [card["edition"]]))
    lists = [document_part(d) for d in documents]
    # The status says how the lists of ``lists`` list the card.  An entry a later version dropped still
    # counts there, unless that version prints lists the status also reads: FAQ v4.1 prints none, so
    # v2.3's entries say "restricted" under "the lists of FAQ v2.3" (they read "no longer listed" there,
    # as if v2.3 never listed the card: review r54, L1); that those lists are not in force is said beside.
    read = {d["id"] for d in documents}
    dropped = {r["id"] for r in rows if r["id"] in withdrawn and _document_of(db, r["data"]["successor"]["id"]) in read}
    printings = _printings(db, card, rows, printed, dropped)
    replacing = [entry(r) for r in own if r["kind"] == "errata" and errata.effect(r["data"]) == "replaces"]
    for item in printed:
        item["wording"] = wording(item)
        # the corpus's errata of that printing: the official words, beside what the card database applied
        ids: list[str] = next((pr["errata"] for pr in printings if pr["code"] == item.get("printing")), [])
        item["wording"]["corpus_errata"] = [{"id": e["id"], "citation": e["citation"]} for e in replacing if e["id"] in ids]
    return {
        "id": card["id"],
        "name": card["name"],
        "edition": card["edition"],
        "spellings": card["spellings"],
        "printings": printings,
        "status": _summary(printings) if printings else _status([]),
        "status_source": ", ".join(lists),  # whose lists the status reads: say it, they are dated
        # errata that give new wording replace the printed text; clarifications rule on it, and it stands
        "errata": replacing,
        "clarifications": [entry(r) for r in own if r["kind"] == "errata" and errata.effect(r["data"]) == "clarifies"],
        "restricted": restricted,
        "list_changes": changes,
        "banned": banned,
        "faq": [entry(r) for r in rows if r["kind"] == "qa"],
        "rules": [entry(r) for r in rows if r["kind"] != "qa" and (r["reason"] == WRITES_TITLE or r["kind"] not in OWN_KINDS)],
        "printed": printed,
        "lists": restricted_lists.card_section(db, [(i["code"], f"{i['set']} {i['number']}") for i in printed])
        if card["edition"] == 2
        else None,
    }


def _document_of(db: Any, clause_id: str) -> str | None:
    """The document a clause belongs to (None for an id the corpus does not hold)."""
    row = next(db.query("select doc from clauses where id = ?", [clause_id]), None)
    return row["doc"] if row else None


def _ref(row: dict[str, Any], listed: str) -> dict[str, Any]:
    return {"list": listed, "id": row["id"], "citation": row["citation"]}


def _printings(
    db: Any, card: dict[str, Any], rows: list[dict[str, Any]], printed: list[dict[str, Any]], dropped: set[str]
) -> list[dict[str, Any]]:
    """Every printing of the title — cited by the corpus, imported, or both — with its own list status and errata.

    ``dropped``: list entries a later version of the lists the status reads no longer carries.

    The FAQ's lists and errata name one printing ("Daenerys Targaryen (C&D F76)"); another printing
    of the same title is a different card for the lists, so its status is its own.
    """
    by_id = {r["id"]: r for r in rows}
    out: list[dict[str, Any]] = []
    by_key: dict[tuple[str, Any], dict[str, Any]] = {}
    for row in db.query("select * from card_printings where card = ? order by \"set\", number", [card["id"]]):
        item = {"code": row.get("code") or f"{row['set']} {row['number']}", "set": row["set"], "number": row["number"], "imported": None}
        item["clauses"] = [c for c in json.loads(row.get("clauses") or "[]") if c in by_id]
        by_key[(row.get("group") or row["set"], row.get("num") if row.get("num") is not None else row["number"])] = item
        out.append(item)
    for imp in printed:
        # every listed printing it is (in the page's order, whatever the keys' set order): the FAQ cites Ward
        # both as (True Steel, 102) and as (Westeros, 102), its cycle's numbering; one card, so one row, under
        # its pack's name, with the other citation said beside it and its entries counted for its status
        keys = _imported_keys(imp)
        matches = [item for k, item in by_key.items() if k in keys and item["imported"] is None]
        matches.sort(key=lambda item: item["set"] != imp["set"])
        if not matches:
            code = f"{imp['set']} {imp['number']}" if card["edition"] == 1 else f"{imp['set']}, {imp['number']}"
            matches = [{"code": code, "set": imp["set"], "number": imp["number"], "imported": None, "clauses": []}]
            out.append(matches[0])
        match, *same = matches
        match["imported"] = {"code": imp.get("code"), "set": imp["set"], "number": imp["number"]}
        for other in same:
            match["clauses"] += [c for c in other["clauses"] if c not in match["clauses"]]
            match.setdefault("also", []).append(other["code"])
            other["imported"] = match["imported"]  # (taken: no other imported printing matches it)
            out.remove(other)
        imp["printing"] = match["code"]  # the printed text knows which listed printing it is
    for item in out:
        listed = [by_id[c] for c in item["clauses"] if by_id[c]["kind"] in LIST_KINDS]
        entries = [_ref(r, r["data"].get("format") or r["kind"]) for r in listed if r["kind"] != "list-change"]
        on = [e for e in entries if e["id"] not in dropped]
        item["was"] = [e for e in entries if e["id"] in dropped]  # lists a later version of those lists no longer prints
        item["status"] = _status(on, item["was"])
        item["lists"] = on
        item["removed"] = [_ref(r, r["data"].get("list")) for r in listed if r["kind"] == "list-change"]
        kinds = [(c, by_id[c]["kind"], errata.effect(by_id[c]["data"])) for c in item["clauses"]]
        item["errata"] = [c for c, kind, does in kinds if kind == "errata" and does == "replaces"]
        item["clarifications"] = [c for c, kind, does in kinds if kind == "errata" and does == "clarifies"]
        # the title was imported, yet no imported card sits at this printing: say so rather than guess
        item["unmatched"] = bool(printed) and item["imported"] is None
    return out


def _imported_page(db: Any, row: dict[str, Any], edition: int) -> dict[str, Any]:
    # named as a corpus card of that title would be (card:2:milk-of-the-poppy), so the page can be cited
    card = {"id": card_id(edition, row["name"]), "name": row["name"], "edition": edition, "key": row["key"], "spellings": []}
    return page(db, card)


@dataclass
class Lookup:
    """A typed name's card pages, or the titles to offer when it opens none (``cardnames.resolve``)."""

    pages: list[dict[str, Any]]
    near: list[str]  # did you mean: best first; beside a page opened for a near title, the other contenders
    written_as: str = ""  # when no page opens: the name as the corpus's clauses write it ("Crown Regent")...
    written_in: list[str] = field(default_factory=list)  # ...and those clauses' ids (``written.clauses_naming``)
    cards_imported: bool = False  # whether card data is imported: a name it lacks is no card of it


def lookup(db: Any, name: str, edition: int | None) -> Lookup:
    """The one look-up behind ``judgekb card`` and ``/card``: a page opened for a near title says so."""
    found = cardnames.resolve(db, name, edition)
    pages = []
    for match in found.matches:
        title = match.title
        if title.card_id:
            row = next(db.query("select * from cards where id = ?", [title.card_id]))
            row["spellings"] = json.loads(row.get("spellings") or "[]")
            shown = page(db, row)
        else:
            shown = _imported_page(db, {"name": title.name, "key": title.key}, title.edition)
        if match.how == "near":  # never another card's page silently
            shown["shown_for"] = {"query": name, "score": match.score}
        pages.append(shown)
    if pages:
        return Lookup(pages, found.near)
    # no card of that name, yet the rules may write it (the melee titles, with no card data imported): say where
    written_as, written_in = written.clauses_naming(db, name, [edition] if edition else [1, 2])
    return Lookup(pages, found.near, written_as, written_in, db["imported_cards"].exists())


WRITTEN_SAID = 5  # the clause ids a no-card message names
IMPORT_TO_LOOK = " import the card data (judgekb import-cards) to look for a card of that title."


def not_found(name: str, found: Lookup) -> str:
    """What ``judgekb card`` says when a name opens no page: where the corpus writes the name, and the near titles."""
    message = f"no card matching '{name}'."
    if found.written_in:
        ids = found.written_in
        more = f" and {len(ids) - WRITTEN_SAID} more" if len(ids) > WRITTEN_SAID else ""
        message += (
            f" The corpus writes “{found.written_as}” in {', '.join(ids[:WRITTEN_SAID])}{more} (judgekb show ID), citing no printing;"
            + (" no imported card has that title." if found.cards_imported else IMPORT_TO_LOOK)
        )
    return message + (" Did you mean: " + "; ".join(found.near) if found.near else "")


def find(db: Any, name: str, edition: int | None) -> list[dict[str, Any]]:
    """The pages a typed name opens (see ``lookup``)."""
    return lookup(db, name, edition).pages


def shown_for_line(p: dict[str, Any]) -> str:
    """The warning over a page opened for a near title rather than the typed one."""
    return f"Showing {p['name']} for '{p['shown_for']['query']}': no card has that name; this is the nearest title."


def render(p: dict[str, Any]) -> str:
    lines = [shown_for_line(p)] if p.get("shown_for") else []
    lines.append(f"{p['name']} — {ORDINAL[p['edition']]} edition  [{p['id']}]")
    if p["spellings"]:
        lines.append(f"Also printed as: {', '.join(p['spellings'])}")
    if p.get("lists"):  # the dated list in force today comes before the FAQ's own (older) lists
        lines.extend(render_lists(p["lists"]))
    status = p["status"]
    if p["edition"] == 2:
        # the second-edition FAQ in force prints no lists: those of FAQ v2.3 are said as they listed the card
        # (``page``), and as not in force, as the web page says (review 20)
        now = "the list in force is above" if p.get("lists") else "import the card data (judgekb import-cards) to see the list in force"
        lines.append(
            f"Status on the lists of {p['status_source']}, not in force (later lists have replaced them; {now}): "
            f"joust {status['joust']}; melee {status['melee']}; {status['banned']}"
        )
    else:
        lines.append(f"Status in the lists of {p['status_source']}: joust {status['joust']}; melee {status['melee']}; {status['banned']}")
    for item in p["printings"]:
        imp = item["imported"]
        where = f" = {imp['set']} {imp['number']}" if imp and imp["set"] != item["set"] else ""
        where += " (no imported card at this printing)" if item["unmatched"] else ""
        st = item["status"]
        extra = "; errata " + ", ".join(item["errata"]) if item["errata"] else ""
        extra += "; clarification " + ", ".join(item["clarifications"]) if item["clarifications"] else ""
        where += f" (also cited as {', '.join(item['also'])})" if item.get("also") else ""
        lines.append(f"  {item['code']}{where}: joust {st['joust']}, melee {st['melee']}, {st['banned']}{extra}")
    if not (p["errata"] or p["clarifications"] or p["faq"] or p["rules"] or any(p["restricted"].values()) or p["list_changes"]):
        lines.append("The corpus says nothing else about this card (no errata, FAQ answer or rule names it).")
    for item in p["printed"]:
        said = item.get("wording") or {"is": "printed"}
        lines.append(f"\n{WORDING_TITLE[said['is']]} ({item['set']} {item['number']}, imported from {item['source']}):")
        keys = ("type", "house", "cost", "strength", "icons", "crest", "traits", "keywords", "income", "initiative", "claim", "reserve")
        stats = [f"{k} {item[k]}" for k in keys if item.get(k) not in (None, "")]
        lines.append("  " + "; ".join(stats))
        lines.append(f"  {plain_card_text(item['text'])}")
        if said["is"] == "errata":
            lines.extend(f"  {line}" for line in errata_source_lines(item["text"], said))
            if said.get("printed"):
                lines.append(f"  {PRINTED_ORIGINAL}:")
                lines.append(f"  {plain_card_text(said['printed'])}")

    def section(title: str, entries: list[dict[str, Any]]) -> None:
        if not entries:
            return
        lines.append(f"\n{title}:")
        for e in entries:
            lines.append(f"  {e['citation']}  [{e['id']}]" + ("  (writes its title; no printing named)" if e.get("writes_title") else ""))
            if e.get("question"):
                lines.append(f"    Q: {e['question']}")
                lines.append(f"    A: {e['text']}")
            else:
                lines.append(f"    {e['text']}")
            if e.get("withdrawn"):
                gone = e["withdrawn"]
                lines.append(f"    (not in force: v{gone['version']} of the FAQ no longer carries it; see {gone['see']})")

    section("Errata (governs the printed text)", p["errata"])
    section(CLARIFICATIONS, p["clarifications"])
    section("Joust restricted list", p["restricted"]["joust"])
    section("Melee restricted list", p["restricted"]["melee"])
    section("List changes", p["list_changes"])
    section("Banned list", p["banned"])
    section("FAQ answers", p["faq"])
    section("Other clauses that mention it", p["rules"])
    return "\n".join(lines) + "\n"


WORDING_TITLE = {"printed": "Printed text", "errata": "Text with errata"}
PRINTED_ORIGINAL = "As printed (the card data's original wording, before its errata)"


def errata_source_lines(text: str, said: dict[str, Any]) -> list[str]:
    """Where the card database's errata came from, as it records it, and the corpus's errata of that printing."""
    out = [
        f"errata by {s['issuer']}" + (f", version {s['version']}" if s["version"] else "") + (f": {s['link']}" if s["link"] else "")
        + " (as the card data records it)"
        for s in said.get("sources", [])
    ]  # fmt: skip
    if said.get("marked"):
        words = "; ".join(f"“{text[a:b]}”" for a, b in said["marked"])
        out.append(f"the words the errata gave, as the card data marks them: {words} (it records neither the printed words nor the source)")
    out += [f"the errata in the corpus: {e['citation']}  [{e['id']}]" for e in said.get("corpus_errata", [])]
    return out


def render_lists(lists: dict[str, Any]) -> list[str]:
    """The dated restricted/banned lists' section: the list in force, then each printing's history."""
    out = [f"\nRestricted and banned lists (imported card data; in force: {lists['in_force']['citation']}):"]
    for item in lists["printings"]:
        out.append(f"  {item['printing']}: {'; '.join(item['in_force'])}")
        for run in item["history"]:
            span = run["from"] if run["from"] == run["to"] else f"{run['from']} to {run['to']}"
            dates = run["from_date"] if run["from"] == run["to"] else f"{run['from_date']} to {run['to_date']}"
            out.append(f"    {span} ({run['issuer']}, {dates}): {'; '.join(run['status'])}")
    return out
