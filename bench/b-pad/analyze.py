# Per shape: nn pick's time over the nt kernels' (the pick c0, the padded
# pick c0p, the best candidate of each set), from tile-run bench CSVs.
#   python3 bench/b-pad/analyze.py RESULTS_DIR PLAIN_DIR PADB_DIR
import csv,sys,re,statistics,glob,math,subprocess,os
d=sys.argv[1]
dirs=sys.argv[2:4]
root=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
t={}
for f in glob.glob(d+'/*-[123].csv'):
    for row in csv.reader(open(f)):
        if row[0]=='kernel' or len(row)<10: continue
        try: t.setdefault(row[0],[]).append(float(row[9]))
        except: pass
med={k:statistics.median(v) for k,v in t.items()}
pred={}
for dd in dirs:
    for l in subprocess.run([root+'/build/bin/tile-tune','predict',dd],capture_output=True,text=True).stdout.splitlines():
        p=l.split(); pred[p[0]]=float(p[-1])
cfg={}
for f in [root+'/bench/b-pad/nt-candidates.txt']:
    for l in open(f):
        p=l.split(); cfg[p[0]]=' '.join(x.split('=')[1] for x in p[6:] if x.split('=')[0] in ('block','thread','stages','occupancy','split-k'))
shapes=sorted({k.split('_')[0] for k in med})
rows=[];g=[[],[],[],[]]
for s in shapes:
    nn=med.get(f'{s}_nn_matmul0')
    c=[(k,v) for k,v in med.items() if k.startswith(f'{s}_nt_c') and not re.search(r'c\d+p_',k)]
    cp=[(k,v) for k,v in med.items() if re.search(rf'^{s}_nt_c\d+p_',k)]
    pick=med.get(f'{s}_nt_c0_matmul0'); pickp=med.get(f'{s}_nt_c0p_matmul0')
    bk,bv=min(c,key=lambda x:x[1]); bkp,bvp=min(cp,key=lambda x:x[1])
    # model's predicted-best among unpadded
    name=lambda k:k.replace('_matmul0','')
    print(f"{s:6} nn {nn:.4f} pick {nn/pick:.3f} pickP {nn/pickp:.3f} best {nn/bv:.3f} ({name(bk)} {cfg.get(name(bk),'')}) bestP {nn/bvp:.3f} ({name(bkp)})")
    for i,x in enumerate([pick,pickp,bv,bvp]): g[i].append(nn/x)
gm=lambda a: math.exp(sum(map(math.log,a))/len(a))
print('geomean pick %.3f pickP %.3f best %.3f bestP %.3f'%tuple(gm(a) for a in g))
print('below 0.9: pick %d pickP %d best %d bestP %d'%tuple(sum(x<0.9 for x in a) for a in g))
