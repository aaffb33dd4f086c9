#!/usr/bin/env python3
"""Input filter of the API reference (doxygen's FILTER_PATTERNS).

For the guides (docs/*.md): they link to their sections the way GitHub
names them: [Errors](#errors), [rollback](concepts.md#a-failed-step-is-
rolled-back). doxygen 1.9 gives a heading an anchor only when it carries
one, as in "## Errors {#errors}", and its anchors are global. This filter
writes what doxygen reads: every heading below the title gets the anchor
"<guide>-<GitHub slug>" (concepts-errors), and every link to a section of a
guide points to that anchor.

For the headers (include/cdyn/*.h): a comment that names a guide,
"docs/rigid.md", becomes a reference to that guide's page, so that the
reference links it and doxygen warns when the guide does not exist.

Lines are neither added nor removed, so doxygen's warnings keep the file's
line numbers.

Usage: doxygen_filter.py FILE
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


GUIDE = re.compile(r'\bdocs/([A-Za-z0-9_]+)\.md\b')


def header(path):
    """docs/<name>.md in a header's comments as a reference to its page
    (the main page for docs/README.md)."""
    with open(path, encoding='utf-8') as f:
        text = f.read()

    def ref(m):
        page = 'index' if m.group(1) == 'README' else 'md_docs_' + m.group(1)
        return '@ref %s "docs/%s.md"' % (page, m.group(1))

    sys.stdout.write(GUIDE.sub(ref, text))


def main(path):
    if not path.endswith('.md'):
        header(path)
        return
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
