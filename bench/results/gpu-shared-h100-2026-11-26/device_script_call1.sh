#!/usr/bin/env bash
# session 34: ranks of one host sharing its one GPU (issue 22's 1/2/4/8-rank
# measurements on a GPU host): 16s-2k (1,999,000 pairs) with 1, 4 and 8 ranks
# (mpirun --oversubscribe), every rank opening the GPU; the batch arenas
# shrink where another rank took the memory; outputs against the 1-rank run.
set -u
export PATH=/usr/local/cuda/bin:$PATH
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
O=$OUT
{ date -u; nvidia-smi -L; nproc; git log --oneline -1; } > $O/info.txt 2>&1
make -j16 bin/mnw > $O/build.txt 2>&1 || { tail -20 $O/build.txt; exit 1; }
IN=devdata/16s-2k.fa.gz
{
for np in 1 4 8; do
  rm -rf /tmp/g$np
  t=$(( 16 / np )); [ $t -lt 1 ] && t=1
  mpirun --oversubscribe --bind-to none -np $np bin/mnw -q -i $IN -o /tmp/g$np -t $t > /tmp/g$np.txt 2>&1; rc=$?
  echo "np=$np (-t $t each): rc=$rc; $(grep -o 'done: .*' /tmp/g$np/mnw.log)"
  [ $rc -eq 0 ] || tail -5 /tmp/g$np.txt
  grep -o 'GPU 0: [^:]*, bus [^;:]*\(; batch memory[^:]*\)\?' /tmp/g$np/mnw.log | sort | uniq -c
  grep -o 'rank [0-9]* ([^)]*): [0-9]* work lists, [0-9]* pairs.*' /tmp/g$np/mnw.log
  if [ $np -gt 1 ]; then
    for f in pairs.tsv.gz dist.column.gz; do cmp /tmp/g1/$f /tmp/g$np/$f && echo "np=$np $f = np=1 $f"; done
  fi
done
} > $O/gpushare.txt 2>&1
cat $O/gpushare.txt
