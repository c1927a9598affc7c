"""The rule set as data: ``inventory`` is what ``scan --json`` prints (and what a map of the rules joins)."""
