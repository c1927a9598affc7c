"""Files nobody vetted: the root→cwd walk and containment, bounded reads, the project tree."""
