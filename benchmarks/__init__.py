"""Side-by-side benchmarks (`uro bench`); not part of the installed package."""
