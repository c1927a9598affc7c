"""Text nobody vetted, made safe to show: control characters, bounded echoes."""
