#!/usr/bin/env bash
# issue 22 baseline (session 34): the CLD's result bytes and CPU time per pair
# with 1, 2, 4, 8 ranks (mpirun --oversubscribe on one 16-core host, CPU
# workers only), today's rank-0 writer: bench/run_cld.sh (16-base windows of
# real 16S genes, twice), and whole genes (tests/data/16s-1000.fa.gz,
# 499,500 pairs, default outputs and with --cigar).
set -u
export PATH=/usr/local/cuda/bin:$PATH
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
O=$OUT
{ date -u; nvidia-smi -L; nproc; grep -m1 '^model name' /proc/cpuinfo; mpirun --version | head -1; } > $O/info.txt 2>&1
make -j16 bin/mnw > $O/build.txt 2>&1 || { tail -20 $O/build.txt; exit 1; }
for rep in 1 2; do
  bash bench/run_cld.sh -n 6000 -w 2 1 2 4 8 > $O/run_cld_rep$rep.txt 2>&1; echo "rc=$?" >> $O/run_cld_rep$rep.txt
done
{
echo "# whole genes: tests/data/16s-1000.fa.gz (499,500 pairs), 2 CPU workers per rank, --gpus none"
for extra in "" "--cigar"; do
  for np in 1 2 4 8; do
    rm -rf /tmp/g
    mpirun --oversubscribe --bind-to none -np $np bin/mnw -q -i tests/data/16s-1000.fa.gz -o /tmp/g -t 2 --gpus none $extra > /tmp/g.txt 2>&1 || cat /tmp/g.txt
    echo "np=$np ${extra:-default outputs}: $(grep -o 'done: .*' /tmp/g/mnw.log)"
    echo "    $(grep -o 'cld: .*' /tmp/g/mnw.log)"
    echo "    outputs: $(du -cb /tmp/g/*.gz | tail -1 | cut -f1) bytes"
  done
done
} > $O/genes.txt 2>&1
cat $O/run_cld_rep1.txt $O/run_cld_rep2.txt $O/genes.txt
