"""ruleweave.store."""
