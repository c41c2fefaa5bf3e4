#!/usr/bin/env python3
# The hand-edited PTX variants of bench/results/2026-12-05-h100-persistent-fix.md
# (runs 2 and 3): from the d_p kernel of bench/wgmma-persistent-diag.txt as
# compiled before the fix (its .ptx and .json, path without the suffix), writes
# v_*.ptx, .cubin (ptxas -arch=sm_90a) and .json (binaries' sizes and hashes
# updated) into the current folder.
#   bench/persistent-ptx-variants.py ARTIFACT_PREFIX
import json,sys,subprocess,re
src=sys.argv[1]
def fnv(b):
    h=0xcbf29ce484222325
    for x in b: h=((h^x)*0x100000001b3)&0xFFFFFFFFFFFFFFFF
    return '%016x'%h
ptx=open(src+'.ptx').read()
man=json.load(open(src+'.json'))
def make(name, text):
    text=text.replace('d_p_matmul0',name)
    open(name+'.ptx','w').write(text)
    subprocess.check_call(['/usr/local/cuda/bin/ptxas','-arch=sm_90a',name+'.ptx','-o',name+'.cubin'])
    m=json.loads(json.dumps(man)); m['kernel']=name
    for b in m['binaries']:
        f=name+('.cubin' if b['format']=='cubin' else '.ptx'); d=open(f,'rb').read()
        b['file']=f; b['size']=len(d); b['fnv1a64']=fnv(d)
    json.dump(m,open(name+'.json','w'),indent=2)
make('v_same', ptx)
# all 128 consumer threads arrive on the empty barriers
t=ptx.replace('mbarrier.init.shared.b64 \t[__mbarrier_0], %r84;','mbarrier.init.shared.b64 \t[__mbarrier_0], 128;')
t=t.replace('mbarrier.init.shared.b64 \t[__mbarrier_0+8], %r84;','mbarrier.init.shared.b64 \t[__mbarrier_0+8], 128;')
assert t.count('128;')>=2
for l in ['\t@%p105 bra \t$L__BB0_9;\n','\t@%p105 bra \t$L__BB0_11;\n']:
    assert l in t; t=t.replace(l,'')
make('v_all', t)
# fence after the barrier init
t=ptx.replace('$L__BB0_2:\n','\tfence.mbarrier_init.release.cluster;\n\tfence.proxy.async.shared::cta;\n$L__BB0_2:\n',1)
make('v_fence', t)
# the consumer warpgroup syncs (named barrier 1) before each release
t=ptx
for l in ['\t@%p105 bra \t$L__BB0_9;\n','\t@%p105 bra \t$L__BB0_11;\n']:
    t=t.replace(l,'\tbar.sync \t1, 128;\n'+l)
make('v_bar', t)
t=ptx.replace('\tsetmaxnreg.dec.sync.aligned.u32 \t40;\n','').replace('\tsetmaxnreg.inc.sync.aligned.u32 \t216;\n','')
assert 'setmaxnreg' not in t
make('v_nomaxnreg', t)
# a second wait_group 0 after the release
t=ptx.replace('\tmbarrier.arrive.shared.b64 \t%rd62, [__mbarrier_0+8];\n$L__BB0_11:\n','\tmbarrier.arrive.shared.b64 \t%rd62, [__mbarrier_0+8];\n$L__BB0_11:\n\twgmma.wait_group.sync.aligned \t0;\n')
assert t!=ptx
make('v_wait2', t)
# the release of the tile's last slot without the branch: every thread arrives on
# the second empty barrier only (count 128), slot 0's release as before
t=ptx.replace('mbarrier.init.shared.b64 \t[__mbarrier_0+8], %r84;','mbarrier.init.shared.b64 \t[__mbarrier_0+8], 128;')
t=t.replace('\t@%p105 bra \t$L__BB0_11;\n','')
make('v_all2', t)
