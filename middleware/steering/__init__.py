"""ruleweave.steering."""
