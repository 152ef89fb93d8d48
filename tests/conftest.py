"""Shared by every test directory.

hypothesis is imported here, at collection, while the process has one thread. Imported lazily at
the end of a run (its pytest plugin's summary), pytest's assertion rewriting parses its modules
while the e2e tests' fake-Discord threads may still be winding down, which trips a CPython 3.11
race in the AST constructor ("AST constructor recursion depth mismatch") and fails the run after
every test passed.
"""

import hypothesis  # noqa: F401
