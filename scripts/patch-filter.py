#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""patch-filter.py PATH... < PATCH > PATCH

Drop from a git patch the file diffs whose path is, or is under, one of
PATH; keep the rest (message, other diffs) as it is.
"""

import re
import sys


def under(path, prefixes):
    return any(path == p or path.startswith(p.rstrip("/") + "/") for p in prefixes)


def main(prefixes):
    text = sys.stdin.read()
    parts = re.split(r"(?m)^(?=diff --git )", text)
    out = [parts[0]]
    for part in parts[1:]:
        m = re.match(r"diff --git a/(\S+) b/(\S+)", part)
        if m and under(m.group(2), prefixes):
            # The signature after the last diff must survive.
            sig = re.search(r"(?m)^-- \n.*\Z", part, re.S)
            if sig:
                out.append(sig.group(0))
            continue
        out.append(part)
    sys.stdout.write("".join(out))


if __name__ == "__main__":
    main(sys.argv[1:])
