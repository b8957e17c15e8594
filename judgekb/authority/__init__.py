"""Which text governs: links between clauses, the authority graph over them, versions, citation lines, lock/verify."""
