"""The tables of named steps and continuations the game's call stack runs on."""
from engine.core.stack import Step

STEPS: dict = {}
THEN: dict = {}


def step(cls):
    """Register a Step subclass under its ``name``."""
    STEPS[cls.name] = cls()
    return cls


def then(fn):
    """Register a continuation, run when a frame that names it ends."""
    THEN[fn.__name__] = fn
    return fn


__all__ = ["STEPS", "THEN", "Step", "step", "then"]
