#!/usr/bin/env python3
"""Input filter of the API reference for the guides (docs/*.md).

The guides link to their sections the way GitHub names them:
[Errors](#errors), [rollback](concepts.md#a-failed-step-is-rolled-back).
doxygen 1.9 gives a heading an anchor only when it carries one, as in
"## Errors {#errors}", and its anchors are global. This filter writes what
doxygen reads: every heading below the title gets the anchor
"<guide>-<GitHub slug>" (concepts-errors), and every link to a section of a
guide points to that anchor. Lines are neither added nor removed, so
doxygen's warnings keep the guide's line numbers.

Usage (doxygen's FILTER_PATTERNS): doxygen_md_filter.py FILE.md
"""
import os
import re
import sys

HEADING = re.compile(r'^(#{2,6})[ \t]+(.*?)[ \t]*#*[ \t]*$')
FENCE = re.compile(r'^[ \t]*(```|~~~)')
# [text](#slug) and [text](guide.md#slug); the guide without a folder.
SECTION_LINK = re.compile(r'\]\(([A-Za-z0-9_\-]+\.md)?#([^)\s]+)\)')


def slug(title):
    """GitHub's anchor of a heading: lower case, punctuation dropped,
    spaces to hyphens."""
    title = re.sub(r'[^\w\- ]', '', title.strip().lower())
    return title.replace(' ', '-')


def page_of(path):
    return os.path.splitext(os.path.basename(path))[0].replace('_', '-')


def main(path):
    with open(path, encoding='utf-8') as f:
        lines = f.read().split('\n')
    page = page_of(path)
    seen = {}
    fenced = False
    out = []
    for line in lines:
        if FENCE.match(line):
            fenced = not fenced
            out.append(line)
            continue
        if fenced:
            out.append(line)
            continue
        m = HEADING.match(line)
        if m and '{#' not in line:
            base = slug(m.group(2))
            n = seen.get(base, 0)
            seen[base] = n + 1
            anchor = base if n == 0 else '%s-%d' % (base, n)
            line = '%s %s {#%s-%s}' % (m.group(1), m.group(2), page, anchor)

        def relink(lm):
            target = page_of(lm.group(1)) if lm.group(1) else page
            return '](#%s-%s)' % (target, lm.group(2))

        out.append(SECTION_LINK.sub(relink, line))
    sys.stdout.write('\n'.join(out))


if __name__ == '__main__':
    main(sys.argv[1])
