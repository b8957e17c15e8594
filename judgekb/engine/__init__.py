"""The rules engine: board states in, traced and cited rulings out.

    core/     shared by both editions: state (the board as plain data), registry (rules and the
              clauses they rest on), trace, steps, runner (feeds a scenario through a ruleset),
              turns (players taking turns in player order within a phase), expectations (what a
              judge expects, checked)
    agot1/    first-edition rules, one module per topic, and ruleset.py mapping steps onto them
    agot2/    second-edition rules, likewise — a new second-edition rule goes in the agot2 module
              of its topic, registered with the agot2-rr / agot2-faq41 clauses it rests on
    scenario.py   the scenario format: YAML in, a checked board, steps and expectations out
    guard.py      bounded scenario runs (size, YAML budget, deadline) for the CLI and the web
    rulingview.py a ruling as a judge reads it out, shared by ``judgekb run`` and the web pages

``core.runner.run`` picks the ruleset by the scenario's ``edition``.
"""
