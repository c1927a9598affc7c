"""What the adapter tests share: a SkillSpec that forbids deleting files when the user says "clean up"."""

from __future__ import annotations

SPEC = """\
schema: skillspec/v0
id: repo.care
title: Careful repository work
description: Keep the repository's files.
routes:
  - id: edit_in_place
    label: Edit files in place
    rank: 1
rules:
  - id: never_delete_files
    when:
      user_says_any: [clean up]
    prefer: edit_in_place
    forbid: [delete_file]
    reason: Deleted files cannot be recovered by the agent.
"""
