"""A ruling as a judge reads it out: the ruling in plain words first, then the starting board, the
card values used, and the trace grouped by scenario step with each clause's citation line.

Shared by ``judgekb run`` (text and ``--json``) and the web's scenario and builder pages, so the
three never disagree.
"""

from __future__ import annotations

from typing import Any

from judgekb import store
from judgekb.corpus import layout

ZONE_NAMES = {
    "in_play": "in play",
    "hand": "hand",
    "deck": "deck (top first)",
    "discard": "discard pile",
    "dead": "dead pile",
    "shadows": "shadows",
    "plot": "plot deck",
    "revealed": "revealed",
    "used": "used pile",
    "removed": "removed from the game",
}


def board(state: Any, edition: int = 2) -> list[dict[str, Any]]:
    """The starting board, per player and zone, in a form a printed sheet can show."""
    out = []
    for name, player in state.players.items():
        plot = getattr(player, "plot", None)
        zones: dict[str, list[str]] = {}
        cards = [c for c in state.cards.values() if c.controller == name and not getattr(c, "attached_to", None)]
        order = getattr(state, "deck_order", None)
        for card in cards:
            zones.setdefault(card.zone, []).append(_card_label(card, state))
        if isinstance(order, dict) and order.get(name):
            zones["deck"] = [_card_label(state.cards[k], state) for k in order[name] if k in state.cards]
        out.append(
            {
                "player": name,
                "faction": getattr(player, "faction", None) or getattr(player, "house", ""),
                "plot": _plot_label(plot, edition) if plot else None,
                "power": getattr(player, "power", 0),
                "gold": getattr(player, "gold", 0),
                "zones": [{"zone": ZONE_NAMES.get(z, z), "cards": cs} for z, cs in sorted(zones.items(), key=lambda i: _zone_rank(i[0]))],
            }
        )
    return out


def _zone_rank(zone: str) -> int:
    order = list(ZONE_NAMES)
    return order.index(zone) if zone in order else len(order)


def _plot_label(plot: Any, edition: int) -> str:
    # (a first-edition plot has no reserve value: the sheet printed "reserve 6" on every one, a blind review)
    shown = ("income", "initiative", "claim", "reserve") if edition == 2 else ("income", "initiative", "claim")
    values = [f"{k} {getattr(plot, k)}" for k in shown if getattr(plot, k, None) is not None]
    return f"{plot.name} ({', '.join(values)})"


def _card_label(card: Any, state: Any) -> str:
    bits = []
    if card.type == "character":
        bits.append(f"STR {card.strength}")
        if card.icons:
            bits.append("/".join(i for i in ("military", "intrigue", "power") if i in card.icons))
    if card.keywords:
        bits.append(", ".join(sorted(card.keywords)))
    if card.kneeling:
        bits.append("knelt")
    if card.power:
        bits.append(f"{card.power} power")
    attached = [c.key for c in state.cards.values() if getattr(c, "attached_to", None) == card.key]
    if attached:
        bits.append("with " + ", ".join(attached))
    return card.key + (f" ({'; '.join(bits)})" if bits else "")


def steps(trace: list[dict[str, Any]], scenario_steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The trace grouped by the scenario step that caused it: each step once, its entries under it."""
    groups: list[dict[str, Any]] = []
    for entry in trace:
        if not groups or groups[-1]["step"] != entry["step"]:
            groups.append({"step": entry["step"], "label": step_label(scenario_steps, entry["step"]), "entries": []})
        groups[-1]["entries"].append(entry)
    # a note step changes nothing, so it has no entries; it keeps its place, so the judge's own words and the
    # step numbers stay where they were written
    shown = {g["step"] for g in groups}
    for number, step in enumerate(scenario_steps, 1):
        if "note" in step and number not in shown:
            at = next((i for i, g in enumerate(groups) if g["step"] > number), len(groups))
            groups.insert(at, {"step": number, "label": step_label(scenario_steps, number), "entries": []})
    return groups


def step_label(scenario_steps: list[dict[str, Any]], number: int) -> str:
    """A short label for scenario step ``number`` (0: the set-up before the first step)."""
    if number <= 0 or number > len(scenario_steps):
        return "set-up"
    step = scenario_steps[number - 1]
    verb = next((k for k in step if k != "__line__"), "step")
    args = step.get(verb)
    if isinstance(args, dict):
        shown = {k: v for k, v in args.items() if k != "__line__" and not isinstance(v, dict)}
        # fields apart by ";", a list's items by ",": "decline renown, pillage; intimidate Samwell Tarly"
        detail = "; ".join(f"{k} {', '.join(map(_item, v)) or 'none' if isinstance(v, list) else v}" for k, v in list(shown.items())[:4])
        return f"{verb.replace('_', ' ')}: {detail}" if detail else verb.replace("_", " ")
    return f"{verb.replace('_', ' ')}: {args}" if args not in (None, {}) else verb.replace("_", " ")


def _item(value: Any) -> str:
    """One item of a step's list as a judge reads it: a reaction or effect by its card and what it answers
    ("Tower to win: Anna"), never the parsed mapping with its line numbers."""
    if not isinstance(value, dict):
        return str(value)
    name = next((str(value[k]) for k in ("card", "name", "source", "player") if value.get(k)), "")
    to = f"to {value['to']}" if value.get("to") else ""
    return " ".join(part for part in (name, to) if part) or "…"


NOT_HAPPENED_TAGS = {"no claim", "not used", "not resolved", "not prevented", "no winner", "no new initiative", "lasting expires"}


def happened(before: Any, after: Any, edition: int = 2) -> list[str]:
    """What the steps changed on the board, in plain words: cards that moved (a duplicate said as one), changed
    hands, knelt or stood; gold pools, power and the first player."""
    lines = []
    knelt: list[str] = []
    stood: list[str] = []
    for key, card in before.cards.items():
        now = after.cards.get(key)
        if now is None:
            continue
        was_duplicate, is_duplicate = getattr(card, "duplicate", False), getattr(now, "duplicate", False)
        if now.zone != card.zone or was_duplicate != is_duplicate:
            # a card that entered play and ends the run kneeling (it attacked, was put into play knelt) says so: it is
            # in no "Knelt" list, which compares cards in play before and after (review r51, 6)
            entered_knelt = card.zone != "in_play" and now.zone == "in_play" and bool(now.kneeling) and not is_duplicate
            lines.append(f"{key}: {_place(card)} → {_place(now)}" + (", kneeling" if entered_knelt else ""))
        if was_duplicate or is_duplicate:
            continue
        if now.controller != card.controller:
            lines.append(f"{key}: now controlled by {now.controller} (was {card.controller})")
        if card.zone == "in_play" and now.zone == "in_play" and bool(card.kneeling) != bool(now.kneeling):
            (knelt if now.kneeling else stood).append(key)
    for name, player in before.players.items():  # edition 2: the faction card is a card in play (RR In Play and Out of Play)
        was_knelt, now_knelt = getattr(player, "faction_kneeling", False), getattr(after.players[name], "faction_kneeling", False)
        if was_knelt != now_knelt:
            (knelt if now_knelt else stood).append(f"{name}'s faction card")
    if knelt:
        lines.append(f"Knelt: {', '.join(knelt)}")
    if stood:
        lines.append(f"Stood: {', '.join(stood)}")
    for name in before.players:
        was, now_power = before.total_power(name), after.total_power(name)
        if was != now_power:
            # where the power is: the faction (House) card, or a card such as a renown character
            gained, card_name = after.players[name].power - before.players[name].power, "House card" if edition == 1 else "faction card"
            where = [f"{gained:+d} on the {card_name}"] if gained else []
            where += [
                f"{now.power - card.power:+d} on {key}"
                for key, card in before.cards.items()
                if (now := after.cards.get(key)) is not None and now.power != card.power and now.controller == name
            ]
            on_title = getattr(after.players[name], "title_power", 0) - getattr(before.players[name], "title_power", 0)
            where += [f"{on_title:+d} on the title"] if on_title else []
            lines.append(f"{name}: power {was} → {now_power}" + (f" ({', '.join(where)})" if where else ""))
        gold_was, gold_now = getattr(before.players[name], "gold", 0), getattr(after.players[name], "gold", 0)
        if gold_was != gold_now:
            lines.append(f"{name}: gold {gold_was} → {gold_now}")
    if getattr(before, "first_player", None) != getattr(after, "first_player", None):
        lines.append(f"First player: {before.first_player} → {after.first_player}")
    out_before = before.facts.get("eliminated", [])  # (edition 2: decked out, or conceded)
    lines += [f"{name}: out of the game" for name in after.facts.get("eliminated", []) if name not in out_before]
    return lines


def _place(card: Any) -> str:
    """Where a card is, a duplicate named as one: "duplicate on Eddard Stark", "discard pile"."""
    if getattr(card, "duplicate", False) and card.zone == "in_play":
        return f"duplicate on {card.attached_to}"
    return ZONE_NAMES.get(card.zone, card.zone)


def not_happened(trace: list[dict[str, Any]]) -> list[str]:
    """What the rules stopped from happening, and why (the trace's own words)."""
    return [
        f"step {e['step']}: {e['text']}"
        for e in trace
        if e["outcome"] == "not-applied" or e.get("tag") in NOT_HAPPENED_TAGS and e["outcome"] != "refused"
    ]


def ruling_json(ruling: Any, db: Any) -> dict[str, Any]:
    """``Ruling.as_json()`` plus what a reader needs: citations, grouped steps, the board, card notes."""
    out = ruling.as_json()
    cited_ids = sorted({c for step in out["trace"] for c in step["clauses"]})
    cited = {}
    for clause_id in cited_ids:
        row = store.clause(db, clause_id)
        blocks = (row["data"] or {}).get("blocks") if row else None
        cited[clause_id] = {
            "id": clause_id,
            "citation": row["citation"] if row else f"{clause_id} (not in the knowledge base)",
            "text": row["text"] if row else "",
            # set out as the page draws it (paragraphs, "•" items, table rows), for the builder's inline quote
            "lines": [] if row is None else layout.plain_text(row["text"], blocks).split("\n") if blocks else [row["text"]],
        }
    out["cited"] = list(cited.values())
    out["steps"] = steps(out["trace"], ruling.scenario.steps)
    out["happened"] = happened(ruling.scenario.state, ruling.state, ruling.scenario.edition)
    out["not_happened"] = not_happened(out["trace"])
    if not out["ruling"]:  # no challenge, no refusal, no winner: say so in words, never an empty ruling
        out["ruling"] = ["No challenge was resolved; what changed is listed below." if out["happened"] else "Nothing changed on the board."]
    out["board"] = board(ruling.scenario.state, ruling.scenario.edition)
    out["cards"] = [dict(note.as_json(), text=note.text()) for note in getattr(ruling.scenario, "card_notes", [])]
    out["cards"] += unapplied_constants(ruling.scenario)
    for name in ruling.scenario.state.facts.get("plots_assumed", []):
        plot = ruling.scenario.state.players[name].plot
        values = f"income {plot.income}, initiative {plot.initiative}, claim {plot.claim}"
        values += f", reserve {plot.reserve}" if ruling.scenario.edition == 2 else ""
        said = f"{name}: no plot given, so a blank plot is assumed ({values}); no rule sets these values"
        out["cards"].append({"card": name, "text": said})
    if ruling.scenario.state.facts.get("phase_assumed"):
        said = "no phase given, so the scenario begins in the challenges phase; no rule sets this"
        out["cards"].append({"card": "phase", "text": said})
    return out


def ruling_text(view: dict[str, Any], cite: bool) -> list[str]:
    """The ruling, card values and trace as lines for the terminal; ``cite`` prints citation lines."""
    lines = ["  Ruling:"]
    lines += [f"    {line}" for line in view["ruling"] or ["(no challenge resolved)"]]
    if view.get("happened"):
        lines.append("  What changed:")
        lines += [f"    {line}" for line in view["happened"]]
    if view.get("not_happened"):
        lines.append("  What did not happen, and why:")
        lines += [f"    {line}" for line in view["not_happened"]]
    if view.get("cards"):
        lines.append("  Card values used:")
        lines += [f"    {note['text']}" for note in view["cards"]]
    citations = {c["id"]: c["citation"] for c in view.get("cited", [])}
    lines.append("  Trace:")
    for group in view["steps"]:
        lines.append(f"    Step {group['step']} — {group['label']}" if group["step"] else "    Set-up")
        for entry in group["entries"]:
            flag = {"refused": " [REFUSED]", "choice-needed": " [CHOICE NEEDED]"}.get(entry["outcome"], "")
            lines.append(f"      • {entry['text']}{flag}")
            if cite:
                lines += [f"          {citations.get(c, c)}  [{c}]" for c in entry["clauses"]]
            elif entry["clauses"]:
                lines.append(f"          cites {', '.join(entry['clauses'])}")
            else:
                lines.append("          (no clause in the corpus states this)")
    return lines


def unapplied_constants(scenario: Any) -> list[dict[str, str]]:
    """A card's `constant` the engine does not apply, said under "Card values used": never silently nothing."""
    if scenario.edition == 2:
        from judgekb.engine.agot2.constants import unapplied_constants as unapplied

        found = unapplied(scenario.state)
        known = "docs/scenarios.md lists those it does"
    else:  # the first-edition engine applies no constant ability
        found = [(c.key, text) for c in scenario.state.cards.values() for text in sorted(c.constant)]
        known = "the first-edition engine applies none"
    return [
        {"card": key, "text": f"{key}: its constant ability '{text}' is not one the engine applies ({known}): give its effect as steps"}
        for key, text in found
    ]
