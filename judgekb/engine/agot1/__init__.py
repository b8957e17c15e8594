"""First-edition rules (the LCG, 2008–2015): one module per topic, each rule registered with the
first-edition clauses it rests on: the Core Set Rules of Play (``agot1-rules/…``) and the FAQ v5.5.1
(``agot1-faq/…``), the versions the corpus holds (``corpus/manifests/``).  No rule cites the unofficial
rules summary (``agot1-summary/…``).  The registry refuses any document id that is not first edition's
(``agot1-``)."""

from judgekb.engine.core.registry import Registry

RULES = Registry(1, ("agot1-",))
rule = RULES.rule
