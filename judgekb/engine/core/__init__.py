"""The engine core both editions share: board state, the rule registry (each rule with the clause ids it
implements), the trace, steps, turns (players taking turns in player order within a phase),
expectations and the runner."""
