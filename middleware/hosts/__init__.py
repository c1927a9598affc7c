"""Hosts: the CLI agents ruleweave serves through their hooks, one package per agent."""
