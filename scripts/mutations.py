#!/usr/bin/env python3
"""Reads scripts/mutations.txt and applies its mutations to a source tree.

  mutations.py list LIST                 names, one per line
  mutations.py describe LIST NAME        "<file>\t<bug>"
  mutations.py check LIST ROOT           every edit's text occurs exactly once
  mutations.py apply LIST NAME ROOT      applies one mutation to ROOT in place
  mutations.py sync ROOT DEST            copies ROOT's tracked and untracked
                                         (not ignored) files to DEST, only
                                         those whose content differs (so a
                                         build of DEST rebuilds what changed)

Exit status 1 (with a message) when a mutation's text is not found, is found
more than once, or the list is malformed.
"""

import os
import shutil
import subprocess
import sys


class Mutation:
    def __init__(self, name):
        self.name = name
        self.file = None
        self.bug = None
        self.edits = []  # (old, new)


def parse(path):
    mutations = []
    current = None
    mode = None  # None, "old", "new"
    old, new = [], []
    with open(path) as f:
        for number, line in enumerate(f.read().split("\n"), 1):
            where = f"{path}:{number}"
            if mode == "old":
                if line == "====":
                    mode = "new"
                else:
                    old.append(line)
                continue
            if mode == "new":
                if line == ">>>>":
                    if not old:
                        sys.exit(f"{where}: empty text to replace")
                    current.edits.append(("\n".join(old) + "\n",
                                          "\n".join(new) + "\n" if new else ""))
                    old, new, mode = [], [], None
                else:
                    new.append(line)
                continue
            if not line.strip() or line.startswith("#"):
                continue
            if line.startswith("@@ "):
                current = Mutation(line[3:].strip())
                if any(m.name == current.name for m in mutations):
                    sys.exit(f"{where}: mutation {current.name} twice")
                mutations.append(current)
            elif current is None:
                sys.exit(f"{where}: text before the first '@@ name'")
            elif line.startswith("file: "):
                current.file = line[6:].strip()
            elif line.startswith("bug: "):
                current.bug = line[5:].strip()
            elif line == "<<<<":
                mode = "old"
            else:
                sys.exit(f"{where}: unexpected line: {line}")
    if mode is not None:
        sys.exit(f"{path}: an edit is not closed with '>>>>'")
    for m in mutations:
        if not m.file or not m.bug or not m.edits:
            sys.exit(f"{path}: mutation {m.name} needs file:, bug: and an edit")
    return mutations


def mutate(mutation, root):
    """The mutated text of the mutation's file; exits if an edit's text does
    not occur exactly once."""
    path = f"{root}/{mutation.file}"
    try:
        with open(path) as f:
            text = f.read()
    except OSError as error:
        sys.exit(f"mutation {mutation.name}: {error}")
    for old, new in mutation.edits:
        count = text.count(old)
        if count != 1:
            first = old.strip().split("\n")[0]
            sys.exit(f"mutation {mutation.name}: the text to replace occurs "
                     f"{count} times in {mutation.file} (must be once): "
                     f"{first!r}")
        text = text.replace(old, new)
    return path, text


def sync(root, dest):
    listed = subprocess.run(
        ["git", "-C", root, "ls-files", "-z", "--cached", "--others",
         "--exclude-standard"], capture_output=True, check=True).stdout
    files = {f.decode() for f in listed.split(b"\0") if f}
    copied = 0
    for name in sorted(files):
        source, target = os.path.join(root, name), os.path.join(dest, name)
        if not os.path.isfile(source):
            continue  # deleted in the working tree
        with open(source, "rb") as f:
            content = f.read()
        if os.path.isfile(target):
            with open(target, "rb") as f:
                if f.read() == content:
                    continue
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "wb") as f:  # a fresh mtime: ninja rebuilds it
            f.write(content)
        shutil.copymode(source, target)
        copied += 1
    removed = 0
    for directory, _, names in os.walk(dest):
        for name in names:
            path = os.path.join(directory, name)
            if os.path.relpath(path, dest) not in files:
                os.remove(path)
                removed += 1
    print(f"sync: {copied} files copied, {removed} removed")


def find(mutations, name):
    for m in mutations:
        if m.name == name:
            return m
    sys.exit(f"no mutation named {name}")


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    if argv[1] == "sync" and len(argv) == 4:
        return sync(argv[2], argv[3])
    command, listing = argv[1], argv[2]
    mutations = parse(listing)
    if command == "list":
        for m in mutations:
            print(m.name)
    elif command == "describe" and len(argv) == 4:
        m = find(mutations, argv[3])
        print(f"{m.file}\t{m.bug}")
    elif command == "check" and len(argv) == 4:
        for m in mutations:
            mutate(m, argv[3])
        print(f"{len(mutations)} mutations apply")
    elif command == "apply" and len(argv) == 5:
        path, text = mutate(find(mutations, argv[3]), argv[4])
        with open(path, "w") as f:
            f.write(text)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
