"""The table of named steps and continuations the game's call stack runs on (engine.core.stack's
StepTable, as Mr. President's)."""
from engine.core.stack import Step, StepTable

TABLE = StepTable()
STEPS = TABLE.steps
THEN = TABLE.then
step = TABLE.step
then = TABLE.continuation

__all__ = ["STEPS", "THEN", "Step", "step", "then"]
