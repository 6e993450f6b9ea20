#!/usr/bin/env bash
# session 35: output through MPI-IO with GPU ranks: 16s-2k (1,999,000 pairs,
# --cigar --phylip) with 1 rank, then 2 and 4 ranks sharing the host's GPU,
# each with --output-via rank0 and mpiio; every output compared (cmp) with
# the 1-rank run's.
set -u
export PATH=/usr/local/cuda/bin:$PATH
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
O=$OUT
{ date -u; nvidia-smi -L; nproc; } > $O/info_gpu.txt 2>&1
make -j16 bin/mnw > $O/build_gpu.txt 2>&1 || { tail -20 $O/build_gpu.txt; exit 1; }
IN=devdata/16s-2k.fa.gz
{
rm -rf /tmp/g1; bin/mnw -q -i $IN -o /tmp/g1 -t 14 --cigar --phylip; echo "np=1: rc=$?; $(grep -o 'done: .*' /tmp/g1/mnw.log)"
for np in 2 4; do
  for via in rank0 mpiio; do
    d=/tmp/g$np$via; rm -rf $d
    t=$(( 14 / np ))
    mpirun --oversubscribe --bind-to none -np $np bin/mnw -q -i $IN -o $d -t $t --cigar --phylip --output-via $via > $d.txt 2>&1; rc=$?
    echo "np=$np via=$via (-t $t each): rc=$rc; $(grep -o 'done: .*' $d/mnw.log)"
    [ $rc -eq 0 ] || tail -5 $d.txt
    grep -o 'cld: .*per pair[^)]*)' $d/mnw.log
    grep -o 'rank [0-9]* ([^)]*): [0-9]* work lists, [0-9]* pairs' $d/mnw.log | tr '\n' ';'; echo
    same=yes; for f in pairs.tsv.gz dist.column.gz dist.phylip; do cmp -s /tmp/g1/$f $d/$f || same="NO ($f)"; done
    echo "    np=$np via=$via outputs byte-identical to the 1-rank run: $same"
  done
done
} > $O/gpu_mpiio.txt 2>&1
cat $O/gpu_mpiio.txt
