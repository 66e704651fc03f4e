#!/usr/bin/python3
"""Validates JSON documents against one of poolscope's schemas (docs/schemas/).

usage: validate_json.py SCHEMA FILE...   (exit 0 if every file is valid)
Uses Debian's python3-jsonschema; local $refs resolve beside the schema.
"""
import json
import pathlib
import sys

import jsonschema


def main() -> int:
    schema_path = pathlib.Path(sys.argv[1]).resolve()
    schema = json.loads(schema_path.read_text())
    store = {}
    for other in schema_path.parent.glob("*.schema.json"):
        doc = json.loads(other.read_text())
        store[doc["$id"]] = doc
    resolver = jsonschema.RefResolver(base_uri=schema["$id"], referrer=schema, store=store)
    validator = jsonschema.Draft202012Validator(schema, resolver=resolver,
                                                format_checker=jsonschema.FormatChecker())
    bad = 0
    for name in sys.argv[2:]:
        errors = sorted(validator.iter_errors(json.loads(pathlib.Path(name).read_text())), key=lambda e: list(e.path))
        for e in errors[:10]:
            print(f"{name}: /{'/'.join(map(str, e.path))}: {e.message[:300]}")
        bad += bool(errors)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
