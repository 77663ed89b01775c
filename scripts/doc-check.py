#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check the project's documentation as the kernel's docs build would read it.

    doc-check.py KSRC TOP RST...

For each RST file (a path under TOP, the project's tree), every
".. kernel-doc:: FILE" directive with a ":doc: TITLE" option is replaced by
what the kernel's scripts/kernel-doc (from KSRC) makes of that DOC: block of
TOP/FILE, and the result is parsed with docutils. One TAP test per file: it
fails when a DOC: block named is missing or empty, or when docutils reports
a warning or an error (a malformed list or literal block, an unknown
directive, a title underline too short). Sphinx's own roles (:c:func: and
the like, which kernel-doc emits for "func()") are accepted as plain text:
docutils alone does not know them.

Needs python3-docutils (scripts/install-deps.sh).
"""

import io
import re
import subprocess
import sys

import docutils.core
import docutils.parsers.rst.roles as roles
import docutils.utils

DIRECTIVE = re.compile(r"^\.\. kernel-doc:: (\S+)\n((?:   :\S+:.*\n)*)", re.M)
SPHINX_ROLES = ("c:func", "c:type", "c:macro", "c:member", "c:data", "ref", "doc")


def plain_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    return [docutils.nodes.literal(rawtext, text)], []


def expand(ksrc, top, rst_text, problems):
    """rst_text with each kernel-doc :doc: directive replaced by its text."""
    def one(m):
        path, opts = m.group(1), m.group(2)
        doc = re.search(r"^   :doc: (.+)$", opts, re.M)
        if not doc:
            problems.append(f"kernel-doc {path}: only :doc: is checked here")
            return ""
        title = doc.group(1).strip()
        out = subprocess.run([f"{ksrc}/scripts/kernel-doc", "-rst", "-function", title,
                              f"{top}/{path}"], capture_output=True, text=True)
        text = out.stdout
        if out.returncode or not text.strip():
            problems.append(f"no DOC: block '{title}' in {path}")
        return text + "\n"
    return DIRECTIVE.sub(one, rst_text)


def check(ksrc, top, rst):
    problems = []
    with open(f"{top}/{rst}") as f:
        text = expand(ksrc, top, f.read(), problems)
    messages = io.StringIO()
    docutils.core.publish_doctree(text, source_path=rst, settings_overrides={
        "report_level": 2, "halt_level": 5, "warning_stream": messages})
    problems += [m for m in messages.getvalue().splitlines() if m.strip()]
    return problems


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    ksrc, top, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    for name in SPHINX_ROLES:
        roles.register_local_role(name, plain_role)
    print("TAP version 13")
    print(f"1..{len(files)}")
    failed = 0
    for i, rst in enumerate(files, 1):
        problems = check(ksrc, top, rst)
        for p in problems:
            print(f"# {p}")
        ok = "ok" if not problems else "not ok"
        failed += bool(problems)
        print(f"{ok} {i} {rst}: its kernel-doc blocks found, valid reStructuredText")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
