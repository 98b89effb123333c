"""End-to-end tests on whole emulated fabrics (a package, so its conftest does not shadow bmv2_tests/conftest.py)."""
