#!/usr/bin/env python3
"""Writes crates/wsrep/src/charsets/names.txt: the character sets and collations MariaDB
10.11 knows, read from a running MariaDB (`scripts/collation-names.py 127.0.0.1:3306`), so
tutti refuses the names MariaDB refuses (1115, 1273, 1253) and lists what SHOW COLLATION
and SHOW CHARACTER SET list.

Lines `charset NAME DEFAULT_COLLATION MAXLEN DESCRIPTION...` and
`collation NAME CHARSET ID DEFAULT SORTLEN` (DEFAULT is `Yes` or `-`), in the order
SHOW CHARACTER SET and SHOW COLLATION list them.
"""
import os
import subprocess
import sys

host, port = (sys.argv[1] if len(sys.argv) > 1 else "127.0.0.1:3306").split(":")


def query(sql):
    out = subprocess.run(["mariadb", f"-h{host}", f"-P{port}", "-uroot", "-N", "-e", sql],
                         check=True, capture_output=True, text=True).stdout
    return [line.split("\t") for line in out.splitlines()]


lines = []
for name, default, maxlen, description in query(
        "SELECT CHARACTER_SET_NAME, DEFAULT_COLLATE_NAME, MAXLEN, DESCRIPTION"
        " FROM information_schema.CHARACTER_SETS"):
    lines.append(f"charset {name} {default} {maxlen} {description}")
for name, charset, cid, default, sortlen in query(
        "SELECT COLLATION_NAME, CHARACTER_SET_NAME, ID, IS_DEFAULT, SORTLEN"
        " FROM information_schema.COLLATIONS"):
    lines.append(f"collation {name} {charset} {cid} {default or '-'} {sortlen}")

out = os.path.join(os.path.dirname(__file__), "..", "crates", "wsrep", "src", "charsets",
                   "names.txt")
with open(out, "w") as f:
    f.write("\n".join(lines) + "\n")
print(f"wrote {len(lines)} lines to {os.path.normpath(out)}")
