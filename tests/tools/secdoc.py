#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check docs/security.md (make check, docs stage).

Every row of its tables has six cells and a proof that either names a test
that exists (guest/S/F.sh, guest/S/host-check, host/F.c[:fn], fuzz/F.c, realsys/F.sh,
tests/..., with each
host function present in its file and each quoted guest description found
in the script it follows) or says why no test can exist: "N/A" (the bug
cannot occur in a key type: a keyring-core or other-backend bug) or
"**no runtime test**" with the reason. A row that only says **gap** fails.
src/ paths must exist too.

The threat table (section "Threat table"): every cell of its rows says
"holds" or "does not" and names proofs [Pn]; every proof is a "- **Pn**:"
item below it that names a test as above (quoted descriptions checked), or
says "**no runtime test**" or "not run here:" with its reason; no proof is
left unused.

It also checks the source rules that stand in for runtime tests where none
can exist (rows 21, 22, 35, 45, 97): MACs and digests are compared with
crypto_memneq (memcmp only on the listed public values: OID, policy
digest, TPM Names); buffers
are freed with kfree_sensitive (plain kfree only on the listed public
buffers); key material and IVs come from get_random_bytes_wait; a file that
keys a shared skcipher re-keys it with the all-zero key ("zeros") as often
as it keys it with anything else. Exit 1 with one line per problem.

usage: secdoc.py [--top DIR] [-v]
"""
import argparse
import os
import re
import sys

REF = re.compile(r'(?<![\w/])((?:tests/)?(?:guest|host|fuzz|stress|tools|realsys)/[\w./-]+\.(?:sh|c|py)'
                 r'|(?:tests/)?guest/[\w-]+/host-(?:check|step)'
                 r'|src/[\w./-]+\.[ch])(?::(\w+))?')
QUOTED = re.compile(r'"([^"]+)"')
BARE_FN = re.compile(r'`(test_\w+)`')


def cells(line):
    """Split a table row on | outside backticks (\\| is a literal bar)."""
    out, cur, code, i = [], '', False, 0
    while i < len(line):
        ch = line[i]
        if ch == '\\' and i + 1 < len(line) and line[i + 1] == '|':
            cur += '|'
            i += 2
            continue
        if ch == '`':
            code = not code
        if ch == '|' and not code:
            out.append(cur.strip())
            cur = ''
        else:
            cur += ch
        i += 1
    out.append(cur.strip())
    return out[1:-1]


def path_of(top, ref):
    if ref.startswith(('tests/', 'src/')):
        return os.path.join(top, ref)
    return os.path.join(top, 'tests', ref)


def desc_found(text, d):
    """A quoted description, its placeholders (TYPE, FMT/KIND, N, PARAM), values
    a script makes from variables (quoted words, numbers, a leading "word: ")
    and abbreviations (...) aside: its longest literal piece is in the
    script."""
    pieces = re.split(r"\.\.\.|\bTYPE\b|\bFMT/KIND\b|\bN\b|\bPARAM\b|'[^']*'|\b\d+\b|^[\w.-]+: ", d)
    piece = max((p.strip(' :,') for p in pieces), key=len)
    if len(piece) < 6:
        return True
    norm = text.replace('\\"', '"').replace("\\'", "'")
    return piece in norm


def check_proof(top, proof, where, bad):
    """The tests PROOF names exist, with their quoted descriptions and host
    functions; returns how many tests it names."""
    tests = 0
    last_host = None
    for m in REF.finditer(proof):
        ref, fn = m.group(1), m.group(2)
        p = path_of(top, ref)
        if not os.path.isfile(p):
            bad.append('%s: %s does not exist' % (where, ref))
            continue
        with open(p, encoding='utf-8', errors='replace') as f:
            text = f.read()
        if not ref.startswith('src/'):
            tests += 1
        if fn and not re.search(r'\b%s\s*\(' % re.escape(fn), text):
            bad.append('%s: no function %s in %s' % (where, fn, ref))
        if '/host/' in p:
            last_host = text
        # quoted descriptions between this reference and the next one
        nxt = REF.search(proof, m.end())
        seg = proof[m.end():nxt.start() if nxt else len(proof)]
        if ref.endswith(('.sh', '/host-check', '/host-step')):
            for d in QUOTED.findall(seg):
                if not desc_found(text, d):
                    bad.append('%s: "%s" not in %s' % (where, d, ref))
        for fn2 in BARE_FN.findall(seg):
            if last_host and not re.search(r'\b%s\s*\(' % re.escape(fn2), last_host):
                bad.append('%s: no function %s in the host file before it' % (where, fn2))
    return tests


CELL = re.compile(r'^(holds|does not)( \[P\d+\])+$')


def check_threats(top, lines, bad):
    """The threat table and its proofs; returns how many cells it has."""
    start = next((i for i, l in enumerate(lines) if l.startswith('## Threat table')), None)
    if start is None:
        bad.append('docs/security.md: no "## Threat table" section')
        return 0
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith('## ')), len(lines))
    used, proofs, ncells, width = set(), {}, 0, None
    cur = None
    for i in range(start, end):
        line = lines[i].rstrip('\n')
        where = 'docs/security.md:%d' % (i + 1)
        if line.startswith('|') and not line.startswith('|---'):
            c = cells(line)
            if c and c[0] == 'attacker':
                width = len(c)
                continue
            if width and len(c) != width:
                bad.append('%s: %d cells, not %d' % (where, len(c), width))
            for cell in c[1:]:
                ncells += 1
                if not CELL.match(cell):
                    bad.append('%s: cell "%s" is not "holds|does not [Pn]"' % (where, cell))
                used.update(re.findall(r'\[(P\d+)\]', cell))
            continue
        m = re.match(r'^- \*\*(P\d+)\*\*:(.*)', line)
        if m:
            cur = m.group(1)
            proofs[cur] = [m.group(2), i + 1]
        elif cur and line.startswith('  '):
            proofs[cur][0] += ' ' + line.strip()
        else:
            cur = None
    for pn in sorted(used - set(proofs)):
        bad.append('docs/security.md threat table: no proof %s' % pn)
    for pn in sorted(set(proofs) - used):
        bad.append('docs/security.md:%d: proof %s named by no cell' % (proofs[pn][1], pn))
    for pn, (text, ln) in sorted(proofs.items()):
        where = 'docs/security.md:%d %s' % (ln, pn)
        if check_proof(top, text, where, bad):
            continue
        if '**no runtime test**' in text or 'not run here:' in text:
            continue
        bad.append('%s: no test named, and no "**no runtime test**" or "not run here:" reason' % where)
    return ncells


def check(top, verbose):
    doc = os.path.join(top, 'docs', 'security.md')
    bad = []
    rows = 0
    with open(doc, encoding='utf-8') as f:
        lines = f.readlines()
    ncells = check_threats(top, lines, bad)
    for ln, line in enumerate(lines, 1):
        if not re.match(r'^\| \d+ \|', line):
            continue
        rows += 1
        c = cells(line.rstrip('\n'))
        row = c[0] if c else '?'
        where = 'docs/security.md:%d row %s' % (ln, row)
        if len(c) != 6:
            bad.append('%s: %d cells, not 6 (an unescaped | ?)' % (where, len(c)))
            continue
        proof = c[5]
        tests = check_proof(top, proof, where, bad)
        if tests:
            continue
        if proof.startswith('N/A') or '**no runtime test**' in proof:
            continue
        bad.append('%s: no test named, and no "N/A" or "**no runtime test**" reason' % where)
    bad += src_rules(top)
    if verbose or bad:
        print('secdoc: %d rows, %d threat cells, %d problems' % (rows, ncells, len(bad)))
    for b in bad:
        print('secdoc: ' + b)
    return 1 if bad or rows == 0 or ncells == 0 else 0


# (file, rule, what a line with the call must contain to be allowed)
ALLOWED = {
    'memcmp': [('src/lib/tk2_key.c', 'oid'),                    # public OID
               ('src/trusted/tpm2_policy.c', 'memcmp(policy'),  # public authPolicy
               ('src/trusted/tpm2_parent.c', 'memcmp(pin'),     # public TPM Names
               ('src/trusted/tpm2_parent.c', 'memcmp(tofu')],
    'kfree': [('src/trusted/tpm2_policy.c', 'kfree(w)'),        # policy digests
              ('src/trusted/tpm2_policy.c', 'kfree(input)'),    # policy input
              ('src/trusted/tpm.c', 'kfree(digests)')],         # PCR digests
}


def src_rules(top):
    bad = []
    for d, _, files in os.walk(os.path.join(top, 'src')):
        for fn in files:
            if not fn.endswith('.c') or fn.endswith('.mod.c'):
                continue
            p = os.path.join(d, fn)
            rel = os.path.relpath(p, top)
            setkey = {True: 0, False: 0}
            with open(p, encoding='utf-8', errors='replace') as f:
                for ln, line in enumerate(f, 1):
                    if re.search(r'\bcrypto_skcipher_setkey\(', line):
                        setkey['zeros' in line] += 1
                    for call, allow in ALLOWED.items():
                        if not re.search(r'\b%s\(' % call, line):
                            continue
                        if any(rel == a and w in line for a, w in allow):
                            continue
                        bad.append('%s:%d: %s( (row %s: use %s)' % (
                            rel, ln, call, '21' if call == 'memcmp' else '22, 45',
                            'crypto_memneq' if call == 'memcmp' else 'kfree_sensitive'))
                    if (rel.startswith('src/encrypted/') or rel == 'src/trusted/core.c') and \
                            re.search(r'\bget_random_bytes\(', line):
                        bad.append('%s:%d: get_random_bytes( for key material (row 35: '
                                   'get_random_bytes_wait)' % (rel, ln))
            if setkey[False] > setkey[True]:
                bad.append('%s: %d crypto_skcipher_setkey( of a key, %d re-keying with zeros '
                           '(row 97: no derived key stays in a shared transform)'
                           % (rel, setkey[False], setkey[True]))
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--top', default=os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
    ap.add_argument('-v', action='store_true')
    a = ap.parse_args()
    sys.exit(check(os.path.normpath(a.top), a.v))


if __name__ == '__main__':
    main()
