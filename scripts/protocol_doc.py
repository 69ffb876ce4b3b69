#!/usr/bin/env python3
"""scripts/protocol_doc.py — docs/protocol.md's message tables, generated
from docs/protocol.schema.json, the one description of the protocol.

    python3 scripts/protocol_doc.py            rewrite the generated blocks
    python3 scripts/protocol_doc.py --check    exit 1 when they differ (CTest docs/protocol)
    python3 scripts/protocol_doc.py --self-test
        also shows that a drift is found: a field added to a message of
        the schema, or an error code removed, changes the generated text

A generated block sits between
    <!-- generated from protocol.schema.json: NAME -->
    <!-- end of generated NAME -->
and is never edited by hand: edit the schema (its `description`s are the
tables' words), then run this script.  Python's standard library only."""
import copy
import json
import os
import re
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..'))
SCHEMA = os.path.join(ROOT, 'docs', 'protocol.schema.json')
DOC = os.path.join(ROOT, 'docs', 'protocol.md')
ENVELOPE = ('v', 'type', 'id', 're')
BLOCK = re.compile(r'(<!-- generated from protocol\.schema\.json: ([a-z-]+) -->\n)(.*?)(<!-- end of generated \2 -->)', re.S)


def resolve(schema, node):
    """A node with its $ref followed (the node's own description kept)."""
    ref = node.get('$ref')
    if not ref:
        return node
    target = schema['$defs'][ref.split('/')[-1]]
    out = dict(target)
    if 'description' in node:
        out['description'] = node['description']
    return out


def cell(text):
    return text.replace('|', '\\|').replace('\n', ' ')


def kind(schema, node):
    """The field's JSON type with its bounds, in words."""
    node = resolve(schema, node)
    if 'oneOf' in node and all('const' in x for x in node['oneOf']):
        return ' / '.join(f'`{json.dumps(x["const"])}`' for x in node['oneOf'])
    if 'oneOf' in node and all('type' in resolve(schema, x) or '$ref' in x for x in node['oneOf']):
        return ' or '.join(kind(schema, x) for x in node['oneOf'])
    if 'const' in node:
        return f'`{json.dumps(node["const"])}`'
    if 'enum' in node:
        return ' / '.join(f'`{json.dumps(v)}`' for v in node['enum'])
    t = node.get('type')
    if isinstance(t, list):
        return ' or '.join(t)
    if t == 'integer':
        lo, hi = node.get('minimum'), node.get('maximum')
        if lo is not None and hi is not None:
            return f'integer {lo}..{hi}'
        return 'integer' if lo is None else f'integer ≥ {lo}'
    if t == 'string':
        lo, hi = node.get('minLength', 0), node.get('maxLength')
        if 'pattern' in node:
            return f'string `{node["pattern"]}`' + (f' ≤ {hi} bytes' if hi is not None else '')
        if hi is None:
            return 'string'
        return f'string of {lo}..{hi} bytes' if lo else f'string ≤ {hi} bytes'
    if t == 'array':
        lo, hi = node.get('minItems'), node.get('maxItems')
        n = f' ({lo}..{hi})' if lo is not None and hi is not None else ''
        return f'array{n} of {kind(schema, node.get("items", {}))}'
    if t == 'object':
        if 'maxProperties' in node:
            return f'object of ≤ {node["maxProperties"]} keys'
        return 'object'
    return t or 'any'


def meaning(schema, node):
    node = resolve(schema, node)
    words = node.get('description', '')
    inner = node
    if 'oneOf' in node:
        objs = [resolve(schema, x) for x in node['oneOf'] if resolve(schema, x).get('type') == 'object']
        inner = objs[0] if objs else node
    if inner.get('type') == 'object' and inner.get('properties') and 'description' not in inner:
        parts = [f'`{k}` ({kind(schema, v)}{", required" if k in inner.get("required", []) else ""}): '
                 f'{resolve(schema, v).get("description", "")}' for k, v in inner['properties'].items()]
        words = f'{words}: ' + '; '.join(parts)
    return words


def fields(schema, name, skip=ENVELOPE):
    d = schema['$defs'][name]
    return [(k, v, k in d.get('required', [])) for k, v in d['properties'].items() if k not in skip]


def render(schema, block):
    lines = []
    if block in ('create',):
        lines += ['| key | required | meaning |', '|---|---|---|']
        for k, v, req in fields(schema, 'client.' + block):
            lines.append(f'| `{k}` | {"yes" if req else "no"} | {cell(meaning(schema, v))} |')
    elif block in ('update', 'replay'):
        skip = ENVELOPE + (('game_id',) if block == 'update' else ('game_id', 'game', 'seat', 'step'))
        lines += ['| key | meaning |', '|---|---|']
        for k, v, _ in fields(schema, 'server.' + block, skip):
            lines.append(f'| `{k}` | {cell(meaning(schema, v))} |')
    elif block == 'errors':
        lines += ['| code | when |', '|---|---|']
        for c in schema['$defs']['error_code']['oneOf']:
            lines.append(f'| `{c["const"]}` | {cell(c.get("description", ""))} |')
    elif block in ('client', 'server'):
        lines += ['| message | field | type | required |', '|---|---|---|---|']
        for msg in schema['x-' + block]:
            d = schema['$defs'][f'{block}.{msg}']
            rows = fields(schema, f'{block}.{msg}')
            if not rows:
                lines.append(f'| `{msg}` | | | |')
            for i, (k, v, req) in enumerate(rows):
                lines.append(f'| {f"`{msg}`" if i == 0 else ""} | `{k}` | {cell(kind(schema, v))} | {"yes" if req else ""} |')
            if 'oneOf' in d and msg == 'act':
                lines.append('| | | exactly one of `action` and `text` | |')
    else:
        raise SystemExit(f'protocol_doc.py: docs/protocol.md names an unknown block {block!r}')
    return '\n'.join(lines) + '\n'


def generate(schema, doc):
    names = []

    def sub(m):
        names.append(m.group(2))
        return m.group(1) + render(schema, m.group(2)) + m.group(4)

    out = BLOCK.sub(sub, doc)
    want = {'create', 'update', 'replay', 'errors', 'client', 'server'}
    missing = want - set(names)
    if missing:
        raise SystemExit(f'protocol_doc.py: docs/protocol.md lacks the generated blocks {sorted(missing)}')
    return out


def main(argv):
    schema = json.load(open(SCHEMA, encoding='utf-8'))
    doc = open(DOC, encoding='utf-8').read()
    out = generate(schema, doc)
    if '--self-test' in argv:
        drift = copy.deepcopy(schema)
        drift['$defs']['client.act']['properties']['comment'] = {'type': 'string', 'maxLength': 9}
        assert generate(drift, doc) != out, 'a field added to the schema did not change protocol.md'
        drift = copy.deepcopy(schema)
        drift['$defs']['error_code']['oneOf'].pop()
        assert generate(drift, doc) != out, 'an error code removed did not change protocol.md'
        drift = copy.deepcopy(schema)
        drift['$defs']['client.create']['properties']['players']['maximum'] = 9
        assert generate(drift, doc) != out, 'a bound changed did not change protocol.md'
        print('ok   a drift of the schema changes the generated tables')
    if '--check' in argv or '--self-test' in argv:
        if out != doc:
            print('FAIL docs/protocol.md differs from docs/protocol.schema.json: '
                  'run python3 scripts/protocol_doc.py (and edit the schema, not the tables)')
            import difflib
            sys.stdout.writelines(difflib.unified_diff(doc.splitlines(True), out.splitlines(True),
                                                       'docs/protocol.md', 'generated', n=1))
            return 1
        print('ok   docs/protocol.md follows docs/protocol.schema.json')
        return 0
    if out != doc:
        open(DOC, 'w', encoding='utf-8').write(out)
        print('docs/protocol.md: generated blocks rewritten')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
