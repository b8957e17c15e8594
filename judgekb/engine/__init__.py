"""The rules engine: board states in, traced and cited rulings out.

    core/     shared by both editions: state (the board as plain data), registry (rules and the
              clauses they rest on), trace, steps, runner (feeds a scenario through a ruleset),
              expectations (what a judge expects, checked)
    agot1/    first-edition rules, one module per topic, and ruleset.py mapping steps onto them
    agot2/    second-edition rules, likewise — a new second-edition rule goes in the agot2 module
              of its topic, registered with the agot2-rr / agot2-faq41 clauses it rests on

``core.runner.run`` picks the ruleset by the scenario's ``edition``.
"""
