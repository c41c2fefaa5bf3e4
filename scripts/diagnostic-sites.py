#!/usr/bin/env python3
"""Lists every diagnostic site of lib/ and tools/ and the test that expects it.

A diagnostic site is a place in the compiler's sources that produces a message
for the user:

  - emitError / emitOpError / emitWarning / emitRemark, and Utils.cpp's
    emitAttrError (passes, the #tile.config parser and verifier), including
    the statements that continue an InFlightDiagnostic held in a variable,
  - the messages of checkConsistency (lib/Dialect/Tile/TileConfig.cpp: the
    `Message() << ...` lines and the checkDivides calls), which the attribute
    verifier, tile-configure and the tuning table report,
  - the cost model's reasons a config cannot run (`why << ...`, `whyNot = `),
  - the tuning table's errors (createStringError, entryError calls),
  - tile-configure's option errors (badOption calls),
  - tile-tune's error exits (fail calls).

For each site the script builds the message as a template: its string
literals, `{}` for what is computed, one template per branch of a
`cond ? "a" : "b"`. It then looks for the message in the tests: the text of
every expected-error/-warning/-remark and FileCheck check line (any prefix,
except -NOT) under test/, with FileCheck's regexes as wildcards, and the
string literals of the EXPECT/ASSERT statements of the unit tests
(test/Unit/*.cpp). A check tests a site when it can match the message along
an alignment that lines up at least min(20, 80% of the message's literal
text) characters (see alignment_score): a check that cuts a long message
short counts, one that shares a phrase with it does not. Sites with too
little text of their own (a prefix around another message) are found by an
anchor (ANCHORS), sites no test can reach carry a reason (UNREACHABLE).
Identical messages at different sites are told apart by nothing: each gets
every check of the message.

  scripts/diagnostic-sites.py            print the table; exit 1 if a site has
                                         no test and no reason
  scripts/diagnostic-sites.py --write    also write docs/diagnostics.md
  scripts/diagnostic-sites.py --check    exit 1 unless docs/diagnostics.md is
                                         what --write would write (and every
                                         site is tested or explained)
"""

import argparse
import difflib
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUTPUT = os.path.join("docs", "diagnostics.md")

# Calls that start a diagnostic statement. A helper's own definition is not
# a site (its callers are): definitions are recognised by what precedes the
# name (a type, or `auto name = [`).
SITE_CALLS = [
    ("emit", re.compile(r"(?:\.|->|\b)(emitError|emitOpError|emitWarning|emitRemark|emitAttrError)\s*\(")),
    ("option", re.compile(r"\b(badOption)\s*\(")),
    ("tool-exit", re.compile(r"(?<![.>])\b(fail)\s*\(")),
    ("table", re.compile(r"\b(entryError|createStringError)\s*\(")),
    ("config-rule", re.compile(r"\b(Message\s*\(\s*\)\s*<<|checkDivides)\s*\(?")),
    ("cost-model", re.compile(r'^\s*(?:else\s+)?(why\s*<<|r\.whyNot\s*=(?=\s*"))', re.M)),
]

# Helper definitions whose bodies build a message from their arguments; the
# statement inside is not a site, each call is (with the helper's text around
# the call's literal arguments).
HELPER_DEFS = {
    # name: (definition regex, template from the call's arguments)
    "badOption": (re.compile(r"auto\s+badOption\s*=\s*\["),
                  lambda args: "tile-configure: option '{0}' {1}".format(*args[:2])),
    "fail": (re.compile(r"\bint\s+fail\s*\("),
             lambda args: "tile-tune: " + args[0]),
    "entryError": (re.compile(r"llvm::Error\s+entryError\s*\("),
                   lambda args: "tuning table entry {}: " + args[1]),
    # Utils.cpp: "<pass>: '<attribute>' " and what follows the call.
    "emitAttrError": (re.compile(r"InFlightDiagnostic\s+emitAttrError\s*\("), None),
    "checkDivides": (re.compile(r"std::string\s+checkDivides\s*\("),
                     lambda args: "{0} ({{}}) does not divide {2} ({{}})".format(
                         *(args + ["{}"] * 4)[:4])),
}

# Sites whose own text is too generic to find them by (a prefix around
# another message): the expectation line (raw, with its check prefix) that
# tests each. Keyed by file and the site's exact message template.
ANCHORS = [
    ("lib/Analysis/TuningTable.cpp", "tuning table: {}",
     r"BAD-JSON: .*tuning table: \[\d+:\d+"),
    ("lib/Analysis/TuningTable.cpp", "{}: {}",
     r"BAD-JSON: .*tuning-table-truncated\.json: tuning table:"),
    ("lib/Transforms/Configure.cpp", "tile-configure: {}",
     r"BAD-JSON: error: tile-configure: "),
    ("tools/tile-tune/tile-tune.cpp", "tile-tune: {}: {}",
     r"NOT-JSON: tile-tune: "),
    ("tools/tile-tune/tile-tune.cpp", "tile-tune: {}",
     r"BAD-OLD-TABLE: tile-tune: "),
    # checkDivides with the strategy's names for the tiles.
    ("lib/Dialect/Tile/TileConfig.cpp",
     "{}warpgroup tile N{}warp tile N ({}) does not divide block tile N ({})",
     r"warpgroup tile N \(96\) does not divide block tile N \(128\)"),
    # Utils.cpp: "<pass>: 'tile.stage' must be one of <the stages>, got <it>"
    ("lib/Transforms/Utils.cpp", "{}, got {}{}",
     r"'tile.stage' must be one of .*, got \"blocks\""),
    # "tile-export: <ptxas> failed[: <why>]\n<its output>"
    ("lib/Export/Export.cpp", "tile-export: {} failed{}: {} {}",
     r"FAILS: error: tile-export: .*fake-ptxas-fails failed"),
]

# Sites no test can reach, with the reason. Keyed by file and a piece of the
# site's message template.
UNREACHABLE = [
    ("lib/Transforms/WgmmaTile.cpp",
     "a split_last kernel's view of C is not made from values known",
     "tile-block-tile makes a split kernel's view of C, and "
     "narrowAtomicAccumulate its warpgroup's part, from the block's tile "
     "origin and extents and the warpgroup's offsets, all computed before "
     "the K loop; the check guards the move of that view before the loop"),
    ("lib/Transforms/Configure.cpp", "is not a {}-d memref or tensor",
     "a linalg.matmul (linalg.batch_matmul) without indexing maps of its "
     "own (those are rejected just before) has 2-d (3-d) shaped operands, "
     "which the op's verifier checks before any pass runs; the check guards "
     "the casts that follow"),
    ("lib/Transforms/Configure.cpp", "has a layout the kernels do not take",
     "checkLayout accepted every memref layout before this point, and it "
     "accepts exactly what getStridedLayout reads (static strides of at "
     "least 1, the innermost 1, a static offset of at least 0); the check "
     "guards the dereference that follows"),
    ("lib/Transforms/MbarrierPipeline.cpp",
     "a persistent kernel reads the block id outside its tile loops",
     "when it runs, every op of the kernel is before the roles (those that "
     "read a block id are cloned into each tile loop, or refused when they "
     "may write), inside a tile loop (its block ids replaced), or the roles' "
     "setmaxnreg and loop bounds: the pass moves all that followed the K "
     "loop into the consumers' tile loop; the check guards against a later "
     "change that leaves a block id behind"),
]


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def strip_comments(text):
    """Blanks // and /* */ comments (keeping line breaks and string literals)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif c == "'" :
            j = i + 1
            while j < n and text[j] != "'":
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def statement_end(text, start):
    """Index of the `;` that ends the statement starting at `start`."""
    depth = 0
    i, n = start, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif c == "'":
            i += 1
            while i < n and text[i] != "'":
                i += 2 if text[i] == "\\" else 1
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth < 0:
                return i
        elif c == ";" and depth == 0:
            return i
        i += 1
    return n


STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')


def unescape(s):
    return s.replace('\\"', '"').replace("\\n", " ").replace("\\\\", "\\")


# Calls whose string arguments are part of the message.
MESSAGE_CALLS = {"Twine", "llvm::Twine", "std::string", "Message"}


def without_calls(code):
    """`code` with each call other than MESSAGE_CALLS replaced by a name:
    the strings a call takes (`dict.get("c_init")`) are not message text."""
    out, i, n = [], 0, len(code)
    while i < n:
        c = code[i]
        if c == '"':
            j = i + 1
            while j < n and code[j] != '"':
                j += 2 if code[j] == "\\" else 1
            out.append(code[i:j + 1])
            i = j + 1
            continue
        m = re.match(r"[A-Za-z_][\w:]*(?:(?:\.|->)[A-Za-z_]\w*)*", code[i:])
        if not m:
            out.append(c)
            i += 1
            continue
        name = m.group(0)
        j = i + len(name)
        while j < n and code[j] in " \t\n":
            j += 1
        if j >= n or code[j] != "(" or name in MESSAGE_CALLS:
            out.append(name)
            i += len(name)
            continue
        depth = 0
        while j < n:
            if code[j] == '"':
                j += 1
                while j < n and code[j] != '"':
                    j += 2 if code[j] == "\\" else 1
            elif code[j] == "(":
                depth += 1
            elif code[j] == ")":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        out.append("call")
        i = j + 1
    return "".join(out)


def template_of(code):
    """The message of an expression: its string literals in order, `{}` for
    whatever else lies between them (adjacent literals concatenate)."""
    code = without_calls(code)
    parts = []
    pos = 0
    for m in STRING.finditer(code):
        between = code[pos:m.start()]
        if re.sub(r"[\s<+]|\bllvm::Twine\(|\bTwine\(|\(", "", between):
            parts.append("{}")
        parts.append(unescape(m.group(1)))
        pos = m.end()
    if parts and re.sub(r"[\s;)]", "", code[pos:]):
        parts.append("{}")
    text = "".join(parts)
    return re.sub(r"(\{\})+", "{}", text)


def split_args(code):
    """Top-level comma-separated arguments of the call `name(...)` at the
    start of `code`."""
    open_at = code.find("(")
    args, depth, cur = [], 0, []
    i = open_at + 1
    while i < len(code):
        c = code[i]
        if c == '"':
            j = i + 1
            while code[j] != '"':
                j += 2 if code[j] == "\\" else 1
            cur.append(code[i:j + 1])
            i = j + 1
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                args.append("".join(cur))
                break
            depth -= 1
        elif c == "," and depth == 0:
            args.append("".join(cur))
            cur = []
            i += 1
            continue
        cur.append(c)
        i += 1
    return [template_of(a) if STRING.search(a) else "{}" for a in args]


def call_end(code):
    """Index just past the argument list of the call at the start of `code`."""
    depth = 0
    for i, c in enumerate(code):
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i + 1
    return len(code)


def line_of(text, index):
    return text.count("\n", 0, index) + 1


class Site:
    def __init__(self, path, line, kind, variants):
        self.path, self.line, self.kind = path, line, kind
        # One message template per alternative of a `c ? "a" : "b"` in it.
        self.variants = variants
        self.template = " / ".join(variants)
        self.tests = []
        self.scored = []
        self.reason = None
        self.reason_missing = None


# `(cond ? "a" "b" : "c")`: one literal (or adjacent literals) per branch.
LITERALS = r'(?:"(?:[^"\\]|\\.)*"\s*)+'
TERNARY = re.compile(r"\(\s*[\w.!]+(?:\(\))?\s*\?\s*(" + LITERALS + r")\s*:\s*(" + LITERALS + r")\)")


def variants_of(code, make):
    """The templates of `code`, one per branch of its first ternary
    choosing between literals (make: code -> template)."""
    m = TERNARY.search(code)
    if not m:
        return [make(code)]
    return [make(code[:m.start()] + branch + code[m.end():]) for branch in (m.group(1), m.group(2))]


def helper_ranges(text):
    """(start, end) of the bodies of the helper definitions in `text`."""
    ranges = []
    for name, (definition, _) in HELPER_DEFS.items():
        for m in definition.finditer(text):
            body = text.find("{", m.end())
            depth, i = 0, body
            while i < len(text):
                if text[i] == "{":
                    depth += 1
                elif text[i] == "}":
                    depth -= 1
                    if depth == 0:
                        break
                i += 1
            ranges.append((m.start(), i))
    return ranges


def find_sites(root):
    sites = []
    for top in ("lib", "tools"):
        for dirpath, _, files in sorted(os.walk(os.path.join(root, top))):
            for name in sorted(files):
                if not name.endswith((".cpp", ".h")):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, root)
                text = strip_comments(read(path))
                inside_helper = helper_ranges(text)
                found = {}
                for kind, pattern in SITE_CALLS:
                    # fail() is tile-tune's error exit; tile-interp's
                    # fail() reports where its model of the kernel stops.
                    if kind == "tool-exit" and not rel.startswith(
                            os.path.join("tools", "tile-tune")):
                        continue
                    for m in pattern.finditer(text):
                        start = m.start(1)
                        if any(a <= start < b for a, b in inside_helper):
                            continue
                        name_ = m.group(1)
                        # Definitions and declarations of the helpers.
                        before = text[max(0, start - 40):start]
                        if re.search(r"(\bint|llvm::Error|std::string|auto)\s+$", before):
                            continue
                        end = statement_end(text, start)
                        code = text[start:end]
                        if "LLVM_DEBUG" in text[max(0, start - 60):start]:
                            continue
                        if name_ == "emitAttrError":
                            def make(c):
                                return "{}: '{}' " + template_of(c[call_end(c):])
                        elif name_ in HELPER_DEFS:
                            def make(c, name_=name_):
                                return HELPER_DEFS[name_][1](split_args(c))
                        elif kind == "emit":
                            # What follows the emitError(...) call.
                            def make(c):
                                return template_of(c[call_end(c):])
                        elif name_ == "createStringError":
                            def make(c):
                                return template_of(c.split(",", 1)[1] if "," in c else c)
                        else:
                            def make(c, skip=m.end(1) - start):
                                return template_of(c[skip:])
                        variants = variants_of(code, make)
                        # `InFlightDiagnostic diag = op.emitError() << ...;`
                        # goes on in later statements (`diag << ...`).
                        if re.search(r"InFlightDiagnostic\s+\w+\s*=\s*[\w.>-]*$",
                                     text[max(0, start - 80):start]):
                            if not own_text(Site(rel, 0, kind, variants)):
                                continue  # the text comes in the statements after
                            variants = [v + "{}" for v in variants]
                        if not "".join(variants).replace("{}", "").strip() and name_ not in HELPER_DEFS:
                            continue  # no text of its own (e.g. whyNot = why.str())
                        line = line_of(text, start)
                        if line in found:
                            continue
                        found[line] = Site(rel, line, kind, variants)
                # `InFlightDiagnostic diag = ...;` goes on in statements
                # `[return] diag << ...;`: each with text of its own is a
                # site (a message chosen by a branch, or the rest of one).
                for var in sorted(set(re.findall(r"InFlightDiagnostic\s+(\w+)\s*=", text))):
                    for m in re.finditer(r"^\s*(?:return\s+)?(" + var + r")\s*<<", text, re.M):
                        start = m.start(1)
                        if any(a <= start < b for a, b in inside_helper):
                            continue
                        code = text[start:statement_end(text, start)]
                        variants = variants_of(code, lambda c: "{}" + template_of(c[len(var):]))
                        if len("".join(variants).replace("{}", "").strip()) < 4:
                            continue  # only the end of a message (")")
                        if not re.match(r"\s*return\b", text[m.start():start]):
                            variants = [v + "{}" for v in variants]  # more follows
                        line = line_of(text, start)
                        found.setdefault(line, Site(rel, line, "emit", variants))
                sites.extend(found[line] for line in sorted(found))
    return sites


# --- expectations in the tests ---------------------------------------------

CHECK_LINE = re.compile(
    r"^\s*(?:(?://|#|;)\s*)?([A-Z][A-Z0-9_-]*?)(-NEXT|-SAME|-DAG|-LABEL|-EMPTY|-COUNT-\d+)?:(.*)$")
EXPECTED = re.compile(r"expected-(error|warning|remark)[^{]*\{\{(.*)\}\}")
FILECHECK_REGEX = re.compile(r"\{\{.*?\}\}|\[\[.*?\]\]")


class Expectation:
    def __init__(self, path, line, text, raw):
        self.path, self.line, self.text, self.raw = path, line, text, raw

    def where(self):
        return "{}:{}".format(self.path, self.line)


def find_expectations(root):
    found = []
    test_root = os.path.join(root, "test")
    for dirpath, _, files in sorted(os.walk(test_root)):
        for name in sorted(files):
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, root)
            if name.endswith(".cpp") and "Unit" in rel.split(os.sep):
                text = read(path)
                for m in re.finditer(r"\b(EXPECT|ASSERT)_[A-Z_]+\s*\(", text):
                    end = statement_end(text, m.start())
                    literals = "\0".join(unescape(s) for s in STRING.findall(text[m.start():end]))
                    if literals:
                        found.append(Expectation(rel, line_of(text, m.start()), literals,
                                                 text[m.start():end]))
                continue
            if not name.endswith((".mlir", ".test")) or "Inputs" in rel.split(os.sep):
                continue
            for number, raw in enumerate(read(path).splitlines(), 1):
                m = EXPECTED.search(raw)
                if m:
                    found.append(Expectation(rel, number, m.group(2), raw))
                    continue
                m = CHECK_LINE.match(raw)
                if not m or m.group(1) in ("RUN", "REQUIRES", "UNSUPPORTED", "XFAIL"):
                    continue
                if m.group(1).endswith("-NOT") or m.group(1) == "NOT":
                    continue
                # The regex and variable parts of a check match anything.
                text = FILECHECK_REGEX.sub("\0", m.group(3))
                found.append(Expectation(rel, number, text, raw))
    return found


STAR = "\0"  # any text, in a template (a computed part) or a check (a regex)
NEG = -(1 << 30)


def _align(text, template):
    """best[i][j]: score of aligning text[i:] with template[j:] once the
    alignment has started (see alignment_score)."""
    n, m = len(text), len(template)
    best = [[NEG] * (m + 1) for _ in range(n + 1)]
    # The check ends inside the message: after a literal character of it,
    # not inside a computed part (whose value could be anything). Ending
    # where a computed part begins looks the same as ending inside it; it
    # counts when the check's last character is the literal one before it.
    end = best[n]
    end[m] = 0
    for j in range(m - 1, -1, -1):
        if template[j] != STAR:
            if j == 0 or template[j - 1] != STAR:
                end[j] = 0
        elif j > 0 and template[j - 1] != STAR and n > 0 and text[n - 1] == template[j - 1]:
            end[j] = 0
        else:
            end[j] = end[j + 1]
    for i in range(n - 1, -1, -1):
        e = text[i]
        row, below = best[i], best[i + 1]
        for j in range(m - 1, -1, -1):
            t = template[j]
            r = NEG
            if t == STAR:
                r = max(row[j + 1], below[j])
            if e == STAR:
                r = max(r, below[j], row[j + 1])
            elif t != STAR and e == t:
                r = max(r, 1 + below[j + 1])
            row[j] = r
    return best


def alignment_score(text, template):
    """How many literal characters of the check `text` line up with literal
    characters of `template` in the best alignment of the two (0 if none).

    Along the alignment the check matches the message: its literal
    characters equal the template's or fall in a computed part ({}); its
    wildcards span any part of the template. The alignment starts where the
    message starts, after text the check has before it (a location,
    "error: ", the op name of emitOpError), or where the check starts, at a
    literal character inside the message. It ends where the check ends: at
    the message's end (a diagnostic ends its line) or after a literal
    character inside it."""
    n, m = len(text), len(template)
    best = _align(text, template)
    score = max(best[i][0] for i in range(n + 1))
    for j in range(1, m):
        if template[j] != STAR and template[j - 1] != STAR:
            score = max(score, best[0][j])
    return max(score, 0)


def grams(text, size=8):
    return {text[i:i + size] for i in range(len(text) - size + 1)
            if STAR not in text[i:i + size]}


# Prefixes that many messages share: not what tells a site apart.
COMMON_PREFIXES = ["tile-tune: ", "tile-configure: ", "tile-export: ",
                   "tuning table entry {}: ", "tuning table: ", "{}: '{}' "]


def own_text(site):
    text = site.variants[0]
    for prefix in COMMON_PREFIXES:
        if text.startswith(prefix):
            text = text[len(prefix):]
    return text.replace("{}", "").strip()


def need(site):
    """Characters a check must line up with a site's message to test it:
    most of the message's text, at most 20 (a check may test the
    beginning of a long message)."""
    return min(20, min(int(0.8 * len(v.replace("{}", ""))) for v in site.variants))


def match(sites, expectations):
    """Assigns each check to the sites whose message it tests (see
    alignment_score). Sites with too little text of their own to be told
    apart (a prefix around another message) are matched by ANCHORS."""
    anchored = {}
    for site in sites:
        for path, piece, pattern in ANCHORS:
            if site.path == path and site.template == piece:
                anchored[id(site)] = re.compile(pattern)
    templates = {id(s): [v.replace("{}", STAR) for v in s.variants] for s in sites}
    site_grams = {id(s): set().union(*(grams(t) for t in templates[id(s)])) or {own_text(s)}
                  for s in sites}
    automatic = []
    for site in sites:
        if id(site) in anchored:
            continue
        if len(own_text(site)) < 6:
            site.reason_missing = "too little text of its own to find it by: give it an anchor"
            continue
        automatic.append(site)
    cache = {}
    for e in expectations:
        for site in sites:
            pattern = anchored.get(id(site))
            if pattern and pattern.search(e.raw):
                site.scored.append((1 << 20, e))
        text_grams = grams(e.text)
        for site in automatic:
            if not any(g in e.text for g in site_grams[id(site)]
                       if len(g) < 8) and not site_grams[id(site)] & text_grams:
                continue
            score = 0
            for template in templates[id(site)]:
                key = (e.text, template)
                if key not in cache:
                    cache[key] = alignment_score(e.text, template)
                score = max(score, cache[key])
            if score >= need(site):
                site.scored.append((score, e))
    # The check that shares the most text with the message first.
    for site in sites:
        site.scored.sort(key=lambda se: -se[0])
        site.tests = [e for _, e in site.scored]
    for site in sites:
        for path, piece, reason in UNREACHABLE:
            if site.path == path and piece in site.template:
                site.reason = reason


def render(sites):
    tested = sum(1 for s in sites if s.tests)
    unreachable = sum(1 for s in sites if not s.tests and s.reason)
    missing = [s for s in sites if not s.tests and not s.reason]
    lines = [
        "# Diagnostic sites",
        "",
        "Every place in lib/ and tools/ that reports an error to the user, and the test that",
        "expects it. Generated by `scripts/diagnostic-sites.py --write`; the lit test",
        "test/Tools/diagnostic-sites.test fails when a site has no test or this list is out of",
        "date. Messages are the source's string literals, `{}` for computed parts.",
        "",
        "{} sites: {} tested, {} unreachable (with the reason), {} without a test.".format(
            len(sites), tested, unreachable, len(missing)),
        "",
        "| site | kind | message | test |",
        "|---|---|---|---|",
    ]
    for s in sites:
        message = s.template.replace("|", "\\|").replace("`", "'")
        if s.tests:
            first = s.tests[0]
            test = first.where()
            if len(s.tests) > 1:
                test += " (+{})".format(len(s.tests) - 1)
        elif s.reason:
            test = "unreachable: " + s.reason
        else:
            test = "**none**"
        lines.append("| {}:{} | {} | `{}` | {} |".format(s.path, s.line, s.kind, message, test))
    return "\n".join(lines) + "\n", missing


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=ROOT, help="source tree (default: this script's)")
    parser.add_argument("--write", action="store_true", help="write " + OUTPUT)
    parser.add_argument("--check", action="store_true",
                        help="fail unless " + OUTPUT + " is current")
    parser.add_argument("--quiet", action="store_true", help="print only the summary")
    args = parser.parse_args()

    sites = find_sites(args.root)
    match(sites, find_expectations(args.root))
    table, missing = render(sites)
    output = os.path.join(args.root, OUTPUT)
    if not args.quiet:
        sys.stdout.write(table)
    else:
        print(table.splitlines()[7])
    status = 0
    for s in missing:
        print("diagnostic-sites: no test for {}:{}: {}{}".format(
            s.path, s.line, s.template,
            " ({})".format(s.reason_missing) if s.reason_missing else ""), file=sys.stderr)
        status = 1
    if args.write:
        with open(output, "w", encoding="utf-8") as f:
            f.write(table)
    if args.check:
        current = read(output) if os.path.exists(output) else ""
        if current != table:
            diff = difflib.unified_diff(current.splitlines(), table.splitlines(),
                                        OUTPUT, "regenerated", lineterm="")
            print("\n".join(diff), file=sys.stderr)
            print("diagnostic-sites: {} is out of date: run scripts/diagnostic-sites.py "
                  "--write".format(OUTPUT), file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
