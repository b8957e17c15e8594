"""Second-edition rules (2015–): one module per topic, each rule registered with the Rules Reference
(``agot2-rr/…``), FAQ v4.1 (``agot2-faq41/…``) or FAQ v2.3 (``agot2-faq/…``) clauses it rests on.
The registry refuses any other document id, so a first-edition clause can never be cited here.

    windows.py     ability windows: interrupts, reactions, forced ones first, replacement effects
    initiation.py  whether an ability can be initiated: could its effect change the game state (before its costs)
    constants.py   what a card cannot do or have done to it: cannot, immunity, card constants, errata
    leaving.py     leaving play: kills, discards, sacrifices, returns, saves, terminal, control reverting
    victory.py     power totals, gaining and moving power, victory, elimination, conceding
    challenges.py  declaring, defending, and D.U.C.K.: determine, unopposed, claim, keywords
    cards.py       marshaling, putting into play, uniqueness, duplicates, costs, abilities, events, setup
    phases.py      plot (initiative), draw, marshaling income, dominance, standing, taxation, ends
    effects.py     what an explicit effect does, in stages (conditions, targets, modifiers, moves, tokens)
    attachment_restrictions.py  attachment restrictions checked against the board: does a host meet one
    titles.py      melee titles: selection and return, supports, rivals, the title STR bonuses, Crown Regent's
                   redirect, and the printed abilities the engine applies
    ruleset.py     how each scenario step maps onto these rules
"""

from judgekb.engine.core.registry import Registry

RULES = Registry(2, ("agot2-rr/", "agot2-faq41/", "agot2-faq/"))
rule = RULES.rule
