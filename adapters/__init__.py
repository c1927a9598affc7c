"""Framework adapters: one module per framework, each imported on demand."""
