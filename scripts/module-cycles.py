#!/usr/bin/env python3
"""Import cycles among a crate's modules (one module per source file).

Usage:
    python3 scripts/module-cycles.py [--allow FILE] [--graph] CRATE_NAME=SRC_DIR/ROOT.rs ...
    python3 scripts/module-cycles.py            # the workspace's crates, scripts/module-cycles.allow

What counts as an edge A -> B: a `use` declaration or a path in code (`crate::x::y`,
`super::y`, `self::y`, `child::y`, or a path through a name that a `use` brought in) in the file
of module A that names an item defined in the file of module B. Re-exports (`pub use`,
`pub(crate) use`, ...) are a facade, not a dependency: a path through one is followed to the
module that defines the item. `mod x;` declarations are not edges. Code under `#[cfg(test)]`
(test modules, test-only imports and helpers) is left out: tests may reach anywhere. Inline
modules (`mod x { ... }`) belong to the file that holds them.

A cycle is a strongly connected component of two or more modules. Each one is printed with the
edges inside it and, for each edge, the first place that makes it (file:line).

The allow-list names the cycles that are known and not yet removed, one per line, as the
space-separated modules of the component (`crate:module::path`); `#` starts a comment. The run
fails (exit 1) when a component is not inside one allowed line, and also when an allowed line is
larger than what is left of its cycle (the list only shrinks: replace the line with the modules
printed). Exit 2: bad usage or a file that cannot be read.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from dataclasses import dataclass, field

# The workspace's crates: name, root file. Each is analysed on its own.
DEFAULT_CRATES = [
    ("engine", "engine/src/lib.rs"),
    ("policy", "policy/src/lib.rs"),
    ("seamguard", "src/main.rs"),
    ("client", "client/src/lib.rs"),
    ("macros", "macros/src/lib.rs"),
]
DEFAULT_ALLOW = "scripts/module-cycles.allow"

# Item keywords whose next identifier is the item's name.
ITEM_KEYWORDS = {"fn", "struct", "enum", "trait", "type", "const", "static", "union", "mod"}


# --------------------------------------------------------------------------------------------
# Lexing: identifiers, `::`, punctuation and string literals (for `#[path = "..."]`), with
# comments dropped and lifetimes told apart from character literals.

TOKEN_RE = re.compile(
    r"""
    (?P<ws>\s+)
  | (?P<line_comment>//[^\n]*)
  | (?P<block_open>/\*)
  | (?P<raw_string>b?r(?P<hashes>\#*)")
  | (?P<string>b?")
  | (?P<char>b?'(?:\\(?:x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]{1,6}\}|.)|[^\\'\n])')
  | (?P<lifetime>'[A-Za-z_][A-Za-z0-9_]*)
  | (?P<ident>r\#[A-Za-z_][A-Za-z0-9_]*|[A-Za-z_][A-Za-z0-9_]*)
  | (?P<number>[0-9][0-9A-Za-z_.]*)
  | (?P<path_sep>::)
  | (?P<punct>.)
    """,
    re.VERBOSE | re.DOTALL,
)


@dataclass
class Tok:
    kind: str  # "ident", "::", "str", "punct"
    text: str
    line: int


def lex(src: str, path: str) -> list[Tok]:
    toks: list[Tok] = []
    i, line, n = 0, 1, len(src)
    while i < n:
        m = TOKEN_RE.match(src, i)
        if m is None:  # pragma: no cover - the last alternative matches any character
            raise SyntaxError(f"{path}:{line}: cannot lex")
        kind = m.lastgroup
        if kind == "hashes":
            kind = "raw_string"
        start = i
        if kind == "block_open":
            depth, j = 1, i + 2
            while depth and j < n:
                if src.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif src.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            i = j
        elif kind == "raw_string":
            close = '"' + m.group("hashes")
            end = src.find(close, m.end())
            end = n if end < 0 else end + len(close)
            toks.append(Tok("str", src[m.end() : end - len(close)], line))
            i = end
        elif kind == "string":
            j = m.end()
            while j < n and src[j] != '"':
                j += 2 if src[j] == "\\" else 1
            toks.append(Tok("str", src[m.end() : j], line))
            i = j + 1
        else:
            i = m.end()
            if kind == "ident":
                toks.append(Tok("ident", m.group(0).removeprefix("r#"), line))
            elif kind == "path_sep":
                toks.append(Tok("::", "::", line))
            elif kind == "punct":
                toks.append(Tok("punct", m.group(0), line))
            # whitespace, comments, chars, lifetimes, numbers: nothing a path needs
        line += src.count("\n", start, i)
    return toks


# --------------------------------------------------------------------------------------------
# The module tree of one crate.


@dataclass
class Use:
    path: list[str]  # as written, e.g. ["super", "shell", "Role"]; a glob ends in "*"
    alias: str | None  # the name it binds (None for a glob)
    reexport: bool
    line: int


@dataclass
class Module:
    name: tuple[str, ...]  # path from the crate root
    file: str  # the file that holds it
    node: tuple[str, ...]  # the file module it belongs to (itself unless inline)
    items: set[str] = field(default_factory=set)
    children: dict[str, "Module"] = field(default_factory=dict)
    uses: list[Use] = field(default_factory=list)
    refs: list[tuple[list[str], int]] = field(default_factory=list)


def has_cfg_test(attr: list[Tok]) -> bool:
    """`#[cfg(test)]` exactly (not `cfg(not(test))`, not `cfg(any(test, ...))`)."""
    return [t.text for t in attr] == ["cfg", "(", "test", ")"]


def parse_use_tree(toks: list[Tok], i: int, prefix: list[str], out: list[tuple[list[str], str | None]]) -> int:
    """Parses one use tree at `toks[i]`, appending (path, alias) leaves; returns the next index."""
    path = list(prefix)
    while i < len(toks):
        t = toks[i]
        if t.kind == "ident":
            path.append(t.text)
            i += 1
            if i < len(toks) and toks[i].kind == "::":
                i += 1
                continue
            alias = path[-1]
            if i + 1 < len(toks) and toks[i].text == "as":
                alias = toks[i + 1].text
                i += 2
            if alias == "self" and len(path) >= 2:
                path, alias = path[:-1], path[-2]
            out.append((path, None if alias == "_" else alias))
            return i
        if t.text == "*":
            out.append((path + ["*"], None))
            return i + 1
        if t.text == "{":
            i += 1
            while i < len(toks) and toks[i].text != "}":
                i = parse_use_tree(toks, i, path, out)
                if i < len(toks) and toks[i].text == ",":
                    i += 1
            return i + 1
        if t.kind == "::":  # leading `::std::...`
            i += 1
            continue
        return i + 1
    return i


class Crate:
    def __init__(self, name: str, root_file: str):
        self.name = name
        self.root_file = root_file
        self.root = Module((), root_file, ())
        self.modules: dict[tuple[str, ...], Module] = {}
        self.errors: list[str] = []
        self._load_file(self.root, root_file, is_mod_rs=True)

    # -- loading ------------------------------------------------------------------------------

    def _load_file(self, module: Module, path: str, is_mod_rs: bool) -> None:
        try:
            with open(path, encoding="utf-8") as f:
                src = f.read()
        except OSError as e:
            self.errors.append(f"{path}: {e}")
            return
        self.modules[module.name] = module
        toks = lex(src, path)
        # Directory where `mod x;` files of this module live.
        base = os.path.dirname(path)
        if not is_mod_rs:
            base = os.path.join(base, os.path.splitext(os.path.basename(path))[0])
        self._parse_items(toks, 0, len(toks), module, base, path)

    def _skip_group(self, toks: list[Tok], i: int) -> int:
        """From an opening bracket at `toks[i]`, the index after its closing one."""
        pairs = {"{": "}", "(": ")", "[": "]"}
        stack = [pairs[toks[i].text]]
        i += 1
        while i < len(toks) and stack:
            t = toks[i].text if toks[i].kind == "punct" else None
            if t in pairs:
                stack.append(pairs[t])
            elif t == stack[-1]:
                stack.pop()
            i += 1
        return i

    def _skip_item(self, toks: list[Tok], i: int, end: int) -> int:
        """Skips one item (after its attributes): to its `;` or the end of its first body block."""
        while i < end:
            t = toks[i]
            if t.kind == "punct" and t.text == ";":
                return i + 1
            if t.kind == "punct" and t.text in "([":
                i = self._skip_group(toks, i)
                continue
            if t.kind == "punct" and t.text == "{":
                i = self._skip_group(toks, i)
                if i < end and toks[i].kind == "punct" and toks[i].text == ";":
                    i += 1
                return i
            i += 1
        return i

    def _parse_items(self, toks: list[Tok], i: int, end: int, module: Module, base: str, path: str) -> None:
        """Item-level scan of `toks[i:end]` belonging to `module`."""
        attrs: list[list[Tok]] = []
        vis = False
        while i < end:
            t = toks[i]
            # Attributes: outer `#[...]` attach to the next item; inner `#![cfg(test)]` drops the module.
            if t.kind == "punct" and t.text == "#":
                inner = i + 1 < end and toks[i + 1].text == "!"
                j = i + 2 if inner else i + 1
                if j < end and toks[j].text == "[":
                    close = self._skip_group(toks, j)
                    attr = toks[j + 1 : close - 1]
                    if inner:
                        if has_cfg_test(attr):
                            self._drop(module)
                            return
                    else:
                        attrs.append(attr)
                    i = close
                    continue
            if any(has_cfg_test(a) for a in attrs):
                i = self._skip_item(toks, i, end)
                attrs, vis = [], False
                continue
            if t.kind == "ident" and t.text == "pub":
                vis = True
                i += 1
                if i < end and toks[i].text == "(":
                    i = self._skip_group(toks, i)
                continue
            if t.kind == "ident" and t.text == "use":
                leaves: list[tuple[list[str], str | None]] = []
                j = parse_use_tree(toks, i + 1, [], leaves)
                while j < end and toks[j].text != ";":
                    j += 1
                for p, alias in leaves:
                    module.uses.append(Use(p, alias, vis, t.line))
                i = j + 1
                attrs, vis = [], False
                continue
            if t.kind == "ident" and t.text == "mod" and i + 1 < end and toks[i + 1].kind == "ident":
                name = toks[i + 1].text
                module.items.add(name)
                after = toks[i + 2] if i + 2 < end else None
                child_name = module.name + (name,)
                if after is not None and after.text == ";":
                    file_path = None
                    for a in attrs:
                        if a and a[0].text == "path":
                            strs = [x.text for x in a if x.kind == "str"]
                            if strs:
                                # Outside inline modules, relative to the declaring file's folder.
                                file_path = os.path.join(os.path.dirname(path), strs[0])
                    if file_path is None:
                        cand = [os.path.join(base, name + ".rs"), os.path.join(base, name, "mod.rs")]
                        file_path = next((c for c in cand if os.path.exists(c)), cand[0])
                    child = Module(child_name, file_path, child_name)
                    module.children[name] = child
                    self._load_file(child, file_path, is_mod_rs=file_path.endswith("mod.rs"))
                    i += 3
                elif after is not None and after.text == "{":
                    close = self._skip_group(toks, i + 2)
                    child = Module(child_name, path, module.node)
                    module.children[name] = child
                    self.modules[child_name] = child
                    self._parse_items(toks, i + 3, close - 1, child, os.path.join(base, name), path)
                    i = close
                else:
                    i += 1
                attrs, vis = [], False
                continue
            if t.kind == "ident" and t.text == "macro_rules" and i + 2 < end and toks[i + 1].text == "!":
                module.items.add(toks[i + 2].text)
            if t.kind == "ident" and t.text in ITEM_KEYWORDS and i + 1 < end and toks[i + 1].kind == "ident":
                module.items.add(toks[i + 1].text)
            # Everything else: collect paths inside this item, at any depth.
            j = self._item_end(toks, i, end)
            self._collect_refs(toks, i, j, module)
            i = j
            attrs, vis = [], False

    def _item_end(self, toks: list[Tok], i: int, end: int) -> int:
        """End of an item that is not a use/mod: through its first top-level block or `;`.

        Nested `#[cfg(test)]` items inside impl blocks are rare in this workspace and are
        counted as code."""
        j = i
        while j < end:
            t = toks[j]
            if t.kind == "punct" and t.text == ";":
                return j + 1
            if t.kind == "punct" and t.text in "([":
                j = self._skip_group(toks, j)
                continue
            if t.kind == "punct" and t.text == "{":
                j = self._skip_group(toks, j)
                if j < end and toks[j].text == ";":
                    j += 1
                return j
            j += 1
        return j

    def _collect_refs(self, toks: list[Tok], i: int, j: int, module: Module) -> None:
        k = i
        while k < j:
            t = toks[k]
            prev = toks[k - 1] if k > 0 else None
            starts = t.kind == "ident" and not (prev is not None and prev.kind == "::")
            if starts and k + 2 < j and toks[k + 1].kind == "::" and toks[k + 2].kind in ("ident", "punct"):
                segs = [t.text]
                m = k + 1
                while m + 1 < j and toks[m].kind == "::" and toks[m + 1].kind == "ident":
                    segs.append(toks[m + 1].text)
                    m += 2
                if len(segs) >= 2:
                    module.refs.append((segs, t.line))
                k = m
                continue
            k += 1

    def _drop(self, module: Module) -> None:
        self.modules.pop(module.name, None)
        if module.name:
            parent = self.modules.get(module.name[:-1])
            if parent is not None:
                parent.children.pop(module.name[-1], None)

    # -- resolution ---------------------------------------------------------------------------

    def _absolute(self, segs: list[str], at: Module, seen: set) -> list[str] | None:
        """The path from the crate root that `segs`, written in `at`, names; None if outside."""
        first = segs[0]
        if first == "crate":
            return list(segs[1:])
        if first == "self":
            return list(at.name) + list(segs[1:])
        if first == "super":
            base = list(at.name)
            rest = list(segs)
            while rest and rest[0] == "super":
                if not base:
                    return None
                base.pop()
                rest = rest[1:]
            return base + rest
        if first in at.children:
            return list(at.name) + list(segs)
        # A name brought in by a `use` in this module (or an enclosing inline one).
        key = (at.name, first)
        if key in seen:
            return None
        for u in at.uses:
            if u.alias == first and u.path[-1] != "*":
                base = self._absolute(u.path, at, seen | {key})
                if base is None:
                    return None
                return base + list(segs[1:])
        if first in at.items:
            return list(at.name) + list(segs)
        return None

    def _resolve(self, abs_path: list[str], seen: set) -> tuple[str, ...] | None:
        """The file module that defines what `abs_path` names (following re-exports)."""
        mod = self.root
        rest = list(abs_path)
        while rest and rest[0] in mod.children:
            mod = mod.children[rest[0]]
            rest = rest[1:]
        if not rest or rest[0] == "*":
            return mod.node
        name = rest[0]
        if name in mod.items:
            return mod.node
        key = (mod.name, name)
        if key in seen:
            return mod.node
        seen = seen | {key}
        for u in mod.uses:
            if u.alias == name:
                target = self._absolute(u.path, mod, set())
                if target is None:
                    return None  # an outside item re-exported here: not a module edge
                return self._resolve(target + rest[1:], seen)
        for u in mod.uses:
            if u.path[-1] == "*":
                target = self._absolute(u.path[:-1], mod, set())
                if target is not None:
                    got = self._resolve(target + rest, seen)
                    if got is not None and got != self._resolve(target, seen):
                        return got
        return mod.node

    def edges(self) -> dict[tuple, dict[tuple, tuple[str, int]]]:
        """node -> {node it depends on -> (file, line) of the first place}."""
        out: dict[tuple, dict[tuple, tuple[str, int]]] = {}
        for mod in self.modules.values():
            wants: list[tuple[list[str], int]] = []
            for u in mod.uses:
                if u.reexport:
                    continue
                wants.append((u.path, u.line))
            wants.extend(mod.refs)
            for segs, line in wants:
                if segs and segs[-1] == "*":
                    segs = segs[:-1]
                if not segs:
                    continue
                absolute = self._absolute(segs, mod, set())
                if absolute is None:
                    continue
                target = self._resolve(absolute, set())
                if target is None or target == mod.node or target not in self.modules:
                    continue
                here = out.setdefault(mod.node, {})
                if target not in here or (mod.file, line) < here[target]:
                    here[target] = (mod.file, line)
        return out


# --------------------------------------------------------------------------------------------
# Components.


def sccs(nodes: list, graph: dict) -> list[list]:
    index: dict = {}
    low: dict = {}
    on_stack: set = set()
    stack: list = []
    result: list[list] = []
    counter = [0]

    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, {})):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                result.append(sorted(comp))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return sorted(result, key=lambda c: (-len(c), c))


def modname(crate: str, node: tuple) -> str:
    return f"{crate}:" + ("::".join(node) if node else "crate")


def read_allow(path: str) -> list[tuple[int, frozenset[str]]]:
    entries = []
    if not os.path.exists(path):
        return entries
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if line:
                entries.append((n, frozenset(line.split())))
    return entries


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("crates", nargs="*", help="NAME=ROOT.rs (default: the workspace's crates)")
    ap.add_argument("--allow", default=None, help=f"allow-list file (default: {DEFAULT_ALLOW})")
    ap.add_argument("--graph", action="store_true", help="print every edge, not only cycles")
    args = ap.parse_args()

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    os.chdir(root)
    crates = DEFAULT_CRATES
    if args.crates:
        crates = []
        for spec in args.crates:
            if "=" not in spec:
                print(f"module-cycles: expected NAME=ROOT.rs, got {spec!r}", file=sys.stderr)
                return 2
            crates.append(tuple(spec.split("=", 1)))
    allow_path = args.allow or DEFAULT_ALLOW
    allow = read_allow(allow_path)

    found: list[frozenset[str]] = []
    for name, root_file in crates:
        crate = Crate(name, root_file)
        if crate.errors:
            for e in crate.errors:
                print(f"module-cycles: {e}", file=sys.stderr)
            return 2
        graph = crate.edges()
        if args.graph:
            for a in sorted(graph):
                for b, (f, line) in sorted(graph[a].items()):
                    print(f"{modname(name, a)} -> {modname(name, b)}  ({f}:{line})")
        nodes = sorted({m.node for m in crate.modules.values()})
        for comp in sccs(nodes, graph):
            names = [modname(name, c) for c in comp]
            found.append(frozenset(names))
            print(f"cycle ({len(comp)} modules) in {name}: {' '.join(names)}")
            members = set(comp)
            for a in comp:
                for b, (f, line) in sorted(graph.get(a, {}).items()):
                    if b in members:
                        print(f"    {modname(name, a)} -> {modname(name, b)}  ({f}:{line})")

    status = 0
    for comp in found:
        if not any(comp <= entry for _, entry in allow):
            print(f"module-cycles: NEW cycle, not in {allow_path}: {' '.join(sorted(comp))}")
            status = 1
    for line, entry in allow:
        inside = [c for c in found if c <= entry]
        left = frozenset().union(*inside) if inside else frozenset()
        if left != entry:
            if left:
                print(f"module-cycles: {allow_path}:{line} is larger than what is left; replace it with:")
                print(f"    {' '.join(sorted(left))}")
            else:
                print(f"module-cycles: {allow_path}:{line} is gone; remove the line")
            status = 1
    total = sum(1 for _ in found)
    print(f"module-cycles: {total} cycle(s), {len(allow)} allowed line(s)")
    return status


if __name__ == "__main__":
    sys.exit(main())
