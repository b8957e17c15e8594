"""The rules engine: board states in, traced and cited rulings out.

``state`` holds the board as plain data, ``rules/`` the rule functions by topic (each
registered with the clause ids it implements), ``runner`` feeds a scenario's steps through
them and records the trace.  The 1st-edition ruleset lives here; a 2nd-edition ruleset can sit
beside it sharing the same state, steps and trace.
"""
