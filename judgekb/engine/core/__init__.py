"""The engine core both editions share: board state, the rule registry (each rule with the clause ids it
implements), the trace, steps, expectations and the runner."""
