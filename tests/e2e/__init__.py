"""End-to-end tests: the real bot against a local fake Discord (see tests/README.md)."""
