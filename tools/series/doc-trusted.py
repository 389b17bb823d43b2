#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Patch 6 of the series: the documentation of a TPM-only trusted key type.

doc-trusted.py --params kernel-parameters.txt doc-params.txt: the trusted.*
entries replaced by ours.

doc-trusted.py trusted-encrypted.rst doc-tpm.rst: rewrites the first in place:

- the TEE, CAAM, DCP and PKWM items of the "Trust Source" lists, their RNG
  bullets and their "Trusted Keys usage: ..." sections go;
- tools/series/doc-tpm.rst (what this implementation adds on a TPM) goes
  in before "Encrypted Keys usage".

Fails (exit 1) when a rule finds nothing, so that a changed upstream text
is noticed rather than half edited.
"""
import re
import sys

GONE = r'(TEE|CAAM|DCP|PKWM)\b'

if sys.argv[1] == '--params':
    # kernel-parameters.txt: the trusted.* entries replaced by argv[3]
    path, new = sys.argv[2], sys.argv[3]
    lines = open(path).read().split('\n')
    first = last = None
    for i, l in enumerate(lines):
        if l.startswith('\ttrusted.'):
            if first is None:
                first = i
            last = i
    if first is None:
        sys.exit('doc-trusted.py: %s: no trusted.* entries' % path)
    end = last + 1
    while end < len(lines) and not (lines[end].startswith('\t') and
                                     not lines[end].startswith('\t\t')):
        end += 1
    lines[first:end] = open(new).read().rstrip('\n').split('\n') + ['']
    open(path, 'w').write('\n'.join(lines))
    sys.exit(0)

path, insert = sys.argv[1], sys.argv[2]
lines = open(path).read().split('\n')
out = []
hits = {'item': 0, 'bullet': 0, 'section': 0, 'insert': 0}


def indent(s):
    return len(s) - len(s.lstrip(' '))


i = 0
while i < len(lines):
    l = lines[i]
    # "     (2) TEE ..." list items, up to the next line indented less
    if re.match(r'^ {5}\(\d+\) ' + GONE, l):
        hits['item'] += 1
        i += 1
        while i < len(lines) and (lines[i].strip() == '' or indent(lines[i]) > 5):
            i += 1
        continue
    # "  *  TEE: ..." RNG bullets, up to the next line indented less than 5
    if re.match(r'^ {2,3}\* {1,2}' + GONE, l):
        hits['bullet'] += 1
        i += 1
        while i < len(lines) and (lines[i].strip() == '' or indent(lines[i]) >= 5):
            i += 1
        continue
    # "Trusted Keys usage: TEE", "DCP Blob Format" sections, up to the next heading
    if re.match(r'^(Trusted Keys usage: )?' + GONE, l) and i + 1 < len(lines) \
            and re.match(r'^-+$', lines[i + 1]):
        hits['section'] += 1
        i += 2
        while i < len(lines) and not (i + 1 < len(lines) and lines[i].strip()
                                      and re.match(r'^[-=]{3,}$', lines[i + 1])):
            i += 1
        continue
    if l == 'Encrypted Keys usage' and lines[i + 1].startswith('----'):
        hits['insert'] += 1
        out.extend(open(insert).read().rstrip('\n').split('\n'))
        out.append('')
    out.append(l)
    i += 1

missing = [k for k, v in hits.items() if not v]
if missing:
    sys.exit('doc-trusted.py: %s: nothing found for %s' % (path, ', '.join(missing)))
text = re.sub(r'\n{3,}(?=[A-Z])', '\n\n\n', '\n'.join(out))
open(path, 'w').write(text.rstrip('\n') + '\n')
