#!/usr/bin/env python3
"""64-bit registers live into each kernel's K loop, per artifact folder.

  bench/loop-pointers.py DIR...

For every <kernel>.ptx of the first DIR (and the same file in the others),
finds the K loop (the longest backward branch whose body has global loads or
cp.async copies and FMAs) and counts the %rd registers it reads that are
defined before it: the 64-bit pointers (and offsets) kept live through the
loop. Prints the kernels whose counts differ between the folders, with the
copy stages. A proxy for the copies' register cost where no GPU is at hand
(bench/results/2026-12-06-h100-f32-kshift.md).
"""
import re,sys,glob,os
def loop_livein(path):
    lines=open(path).read().split('\n')
    labels={}
    for i,l in enumerate(lines):
        m=re.match(r'^(\$L__BB\d+_\d+):',l)
        if m: labels[m.group(1)]=i
    best=None
    for i,l in enumerate(lines):
        m=re.search(r'bra(?:\.uni)?\s+(\$L__BB\d+_\d+);',l)
        if m and m.group(1) in labels and labels[m.group(1)]<i:
            body=lines[labels[m.group(1)]:i+1]
            txt='\n'.join(body)
            if ('ld.global' in txt or 'cp.async' in txt) and 'fma.rn' in txt:
                if best is None or len(body)>len(best): best=body
    if best is None: return None
    defined=set(); livein=set()
    for l in best:
        l=l.split('//')[0].strip()
        if not l or l.endswith(':'): continue
        parts=l.replace(',',' ').replace(';',' ').replace('[',' ').replace(']',' ').replace('+',' ').split()
        if len(parts)<2: continue
        op=parts[0]
        regs=[p for p in parts[1:] if p.startswith('%rd')]
        if not regs: continue
        dst=None
        if not (op.startswith('st.') or op.startswith('cp.async') or op.startswith('@') or op.startswith('bra')):
            dst=parts[1] if parts[1].startswith('%') else None
        srcs=[p for p in parts[2:] if p.startswith('%rd')] if dst else regs
        for s in srcs:
            if s not in defined: livein.add(s)
        if dst and dst.startswith('%rd'): defined.add(dst)
    return len(livein)
import json
dirs=sys.argv[1:]
if not dirs:
    sys.exit(__doc__)
for f in sorted(glob.glob(os.path.join(dirs[0], '*.ptx'))):
    k=os.path.basename(f)
    counts=[loop_livein(os.path.join(d, k)) for d in dirs]
    stages=json.load(open(f[:-4]+'.json'))['config']['stages']
    if len(set(counts))>1:
        print(k, 's%d'%stages, counts)
