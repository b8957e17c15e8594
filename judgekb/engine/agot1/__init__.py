"""First-edition rules (the LCG, 2008–2015): one module per topic, each rule registered with the
first-edition clauses (Rules v1.5, FAQ v2.8/v4.x, summary) it rests on."""

from judgekb.engine.core.registry import Registry

RULES = Registry(1, ("agot1-",))
rule = RULES.rule
