#!/usr/bin/env bash
# issue 21, session 33, call 1 (H100): --shard and mnw merge on a real GPU at 40764ec:
# 16s-5k (12,497,500 pairs) as one run and as 4 shards (each its own run, one after another,
# default outputs, counts mode), the shards' balance, mnw merge against cat + sync of the same
# files (page cache dropped before each where allowed), the merged outputs against the single
# run's (cmp), mnw verify and mnw status of the merged OUTDIR.
set -u
export PATH=/usr/local/cuda/bin:$PATH
O=$OUT; W=/tmp/c1; mkdir -p $W
cp bench/tmp/s33_call1.sh $W/device_script.sh
pack() { tar -C /tmp -czf $O/call1.tgz c1; }
{ date -u; nvidia-smi -L; nvcc --version | tail -1; nproc; df -h /tmp | tail -1; } > $W/info.txt
t0=$SECONDS; make -j16 bin/mnw > $W/build.txt 2>&1 || { tail -20 $W/build.txt; pack; exit 1; }
echo "build $((SECONDS-t0)) s" | tee -a $W/summary.txt
IN=devdata/16s-5k.fa.gz
R=/tmp/r; rm -rf $R; mkdir -p $R
ts() { date +%s.%N; }
calc() { awk "BEGIN { printf \"%.3f\", $1 }"; }
t0=$(ts); bin/mnw -q -i $IN -o $R/whole > $W/whole.txt 2>&1; rc=$?; t1=$(ts)
echo "whole run: rc=$rc $(calc "$t1 - $t0") s; $(grep -o 'done: .*' $R/whole/mnw.log)" | tee -a $W/summary.txt
cp $R/whole/mnw.log $W/whole.log
for i in 1 2 3 4; do
  t0=$(ts); bin/mnw -q -i $IN -o $R/s$i --shard $i/4 > $W/s$i.txt 2>&1; rc=$?; t1=$(ts)
  echo "shard $i/4: rc=$rc $(calc "$t1 - $t0") s; $(grep -o 'shard [0-9]/4: pairs.*of the [0-9]*' $R/s$i/mnw.log); $(grep -o 'done: .*' $R/s$i/mnw.log)" | tee -a $W/summary.txt
  cp $R/s$i/mnw.log $W/s$i.log
done; pack
du -b $R/s1/pairs.tsv.gz $R/s1/dist.column.gz | tee -a $W/summary.txt
bytes=$(cat $R/s*/pairs.tsv.gz $R/s*/dist.column.gz | wc -c)
drop() { sync; echo 3 > /proc/sys/vm/drop_caches 2>/dev/null && echo dropped || echo "page cache not dropped (not allowed)"; }
for rep in 1 2 3; do
  rm -rf $R/m $R/c; d=$(drop)
  t0=$(ts); bin/mnw merge $R/m $R/s4 $R/s2 $R/s1 $R/s3 > $W/merge$rep.txt 2>&1; rc=$?; t1=$(ts)
  tm=$(calc "$t1 - $t0")
  d2=$(drop); mkdir -p $R/c
  t0=$(ts); for f in pairs.tsv.gz dist.column.gz; do cat $R/s1/$f $R/s2/$f $R/s3/$f $R/s4/$f > $R/c/$f; done; sync; t1=$(ts)
  tc=$(calc "$t1 - $t0")
  echo "rep $rep: $bytes bytes; mnw merge rc=$rc $tm s ($(calc "$bytes / $tm / 1000000") MB/s, $d); cat + sync $tc s ($(calc "$bytes / $tc / 1000000") MB/s, $d2); merge/cat time $(calc "$tm / $tc")" | tee -a $W/summary.txt
done
for f in pairs.tsv.gz dist.column.gz; do cmp $R/m/$f $R/whole/$f && echo "merged $f = the whole run's $f" | tee -a $W/summary.txt; done
bin/mnw verify $R/m > $W/verify.txt 2>&1; echo "mnw verify rc=$?" | tee -a $W/summary.txt
bin/mnw status $R/m > $W/status.txt 2>&1; echo "mnw status rc=$?" | tee -a $W/summary.txt
bin/mnw --resume $R/m > $W/resume.txt 2>&1; echo "mnw --resume rc=$?: $(cat $W/resume.txt)" | tee -a $W/summary.txt
cp $R/m/mnw.log $W/merged.log; cp $R/m/mnw.bookmark $W/merged.bookmark
pack
