"""Kept for code written before the engine was split: the runner is ``judgekb.engine.core.runner``."""

from judgekb.engine.core.runner import Ruling, load_titles, ruleset, run

__all__ = ["Ruling", "load_titles", "run", "ruleset"]
