"""Framework adapters: one module per framework, each imported on demand.

``ruleweave.adapters.seams`` holds what an adapter takes from ruleweave (the
session, the ``read_rule`` tool's name and description, the stream and
notice types, the errors): the place to start when writing one.
"""
