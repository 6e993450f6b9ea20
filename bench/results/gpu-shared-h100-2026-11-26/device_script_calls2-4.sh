#!/usr/bin/env bash
# session 34, calls 2-4: as s34_gpushare.sh (ranks sharing the one GPU), with
# each rank's log lines (no -q): its share of GPU memory and batch memory.
set -u
export PATH=/usr/local/cuda/bin:$PATH
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
O=$OUT
make -j16 bin/mnw > $O/build.txt 2>&1 || { tail -20 $O/build.txt; exit 1; }
IN=devdata/16s-2k.fa.gz
rm -rf /tmp/g1; bin/mnw -q -i $IN -o /tmp/g1 -t 16
{
for rep in 1 2 3; do for np in 4 8; do
  rm -rf /tmp/g$np
  t=$(( 16 / np ))
  mpirun --oversubscribe --bind-to none -np $np bin/mnw -i $IN -o /tmp/g$np -t $t > /tmp/g$np.txt 2>&1; rc=$?
  echo "rep $rep np=$np (-t $t each): rc=$rc; $(grep -o 'done: .*' /tmp/g$np/mnw.log)"
  grep -h "error" /tmp/g$np.txt | head -5
  grep -h "GPU memory:" /tmp/g$np/mnw.log | sed "s/^.*INFO //"
  grep -h 'INFO GPU 0: NVIDIA' /tmp/g$np.txt /tmp/g$np/mnw.log | sed -E 's/^.*\[([0-9]+)\/.*GPU 0: NVIDIA H100 80GB HBM3.*bus [0-9a-f:.]+(; batch memory [^:]*)?: kernel.*/rank \1\2/' | sort -u
  for f in pairs.tsv.gz dist.column.gz; do cmp /tmp/g1/$f /tmp/g$np/$f && echo "np=$np $f = np=1 $f"; done
done; done
} > $O/gpushare2.txt 2>&1
cat $O/gpushare2.txt
