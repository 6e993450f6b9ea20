#!/usr/bin/env python3
"""sass_loops.py - the innermost loops of a kernel in cuobjdump -sass output,
with their instruction mix (to count instructions per DP cell).
usage: cuobjdump -sass FILE.o > k.sass; sass_loops.py k.sass NAME-SUBSTRING [N]
Prints the N (default 3) largest loops of the first function whose name
contains NAME-SUBSTRING (for sm_90, the first cubin listed)."""
import re,sys,collections
txt=open(sys.argv[1]).read().split('\n')
fn=sys.argv[2]
start=None
for i,l in enumerate(txt):
    if 'Function :' in l:
        if start is not None: end=i; break
        if fn in l: start=i
else: end=len(txt)
ins=[]
for l in txt[start:end]:
    m=re.match(r'\s*/\*([0-9a-f]{4,})\*/\s+(.*?);',l)
    if m: ins.append((int(m.group(1),16),m.group(2)))
addr={a:k for k,(a,_) in enumerate(ins)}
loops=[]
for k,(a,t) in enumerate(ins):
    m=re.search(r'BRA\s+(?:`\(\.L_x_\d+\)\s*)?0x([0-9a-f]+)',t) or re.search(r'BRA.*?0x([0-9a-f]+)',t)
    if m:
        tgt=int(m.group(1),16)
        if tgt<=a and tgt in addr: loops.append((addr[tgt],k))
loops.sort(key=lambda x:x[1]-x[0])
for s,e in loops[-(int(sys.argv[3]) if len(sys.argv)>3 else 3):]:
    body=ins[s:e+1]
    c=collections.Counter(t.split()[0].lstrip('@!P0123456789T ').split('.')[0] if not t.startswith('@') else t.split()[1].split('.')[0] for _,t in body)
    print(f'loop {s}-{e}: {len(body)} instrs', dict(c.most_common(14)))
