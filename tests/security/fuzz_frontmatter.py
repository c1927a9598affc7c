"""An atheris target for the frontmatter parser: any bytes parse, or repair, and never raise.

Open-ended coverage-guided fuzzing, so it is not part of ``make test`` (the
bounded hypothesis suite there covers the same parser); run it with
``make fuzz`` (``FUZZ_RUNS=0`` fuzzes until stopped). Each input is decoded as
UTF-8 (invalid bytes replaced), as discovery's reader would hand it over, half
of them wrapped in a ``---`` block so that the YAML paths are reached, then
parsed; every value is passed through the field readers providers use.
"""

from __future__ import annotations

import sys

import atheris  # type: ignore[import-not-found,import-untyped,unused-ignore]

from ruleweave import frontmatter

atheris.instrument_all()  # the parser and the YAML library under it, however they were imported


def test_one_input(data: bytes) -> None:
    """Parse one input; any exception is a finding."""
    text = data[1:].decode("utf-8", "replace")
    if data[:1] and data[0] & 1:  # half the inputs become a frontmatter block, so YAML is reached
        text = f"---\n{text}\n---\nbody"
    parsed = frontmatter.parse(text)
    assert isinstance(parsed.body, str) and isinstance(parsed.data, dict)
    for value in parsed.data.values():
        frontmatter.as_globs(value)
        frontmatter.as_strings(value)
        frontmatter.as_text(value)
        frontmatter.as_bool(value)
    frontmatter.split_globs(text[:4096])


def main() -> None:
    """Run the fuzzer with libFuzzer's command-line options (``-runs=N``, ``-max_len=N``)."""
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
