#!/usr/bin/env python3
"""Fails when a public symbol of a module has no documentation comment.

Usage: docs-coverage.py MODULE SYMBOL_GRAPH_DIR SOURCES_ROOT

Reads every `*.symbols.json` file in SYMBOL_GRAPH_DIR (as `swift symbolgraph-extract
-minimum-access-level public` writes them) and checks each symbol the module declares itself,
that is whose source location is under `SOURCES_ROOT/MODULE/` (symbols of re-exported modules
are checked with their own module).

A symbol counts as documented when the graph gives it a `docComment`:
- its own `///` comment, or
- a comment the extractor inherited, which it does only for an implementation of a protocol
  requirement (the requirement's comment, also from the standard library: `description`,
  `hash(into:)`, `init(from:)`) or an override of a superclass member.

Excluded, and counted in the summary:
- synthesized members (identifiers with `::SYNTHESIZED::`: members a type gets from a protocol
  extension's default implementation, such as `hashValue` or `!=`), which have no declaration
  of their own to comment.

Enum cases and stored properties are symbols like any other: each needs its own comment.
"""
import json
import pathlib
import sys


def main() -> int:
    module, graph_dir, sources_root = sys.argv[1], pathlib.Path(sys.argv[2]), sys.argv[3]
    own_prefix = pathlib.Path(sources_root, module).resolve().as_uri() + "/"
    checked = own = inherited = synthesized = 0
    missing = []
    for path in sorted(graph_dir.glob("*.symbols.json")):
        graph = json.loads(path.read_text())
        for symbol in graph["symbols"]:
            if symbol.get("accessLevel") not in ("public", "open"):
                continue
            if "::SYNTHESIZED::" in symbol["identifier"]["precise"]:
                synthesized += 1
                continue
            location = symbol.get("location", {}).get("uri", "")
            if not location.startswith(own_prefix):
                continue
            checked += 1
            comment = symbol.get("docComment")
            if comment and any(line.get("text", "").strip() for line in comment.get("lines", [])):
                if comment.get("uri", location) == location:
                    own += 1
                else:
                    inherited += 1
                continue
            line = symbol["location"]["position"]["line"] + 1
            file = location[len(own_prefix):]
            missing.append(
                f"Sources/{module}/{file}:{line}: {symbol['kind']['displayName'].lower()} "
                f"{'.'.join(symbol['pathComponents'])} has no documentation comment"
            )
    print(
        f"{module}: {checked} public symbols, {own} with their own comment, {inherited} inheriting a "
        f"protocol requirement's or superclass member's, {len(missing)} undocumented; "
        f"{synthesized} synthesized members not counted"
    )
    for entry in missing:
        print(f"  {entry}")
    if checked == 0:
        print(f"{module}: no public symbol found under {own_prefix}: the symbol graph was not read", file=sys.stderr)
        return 1
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
