#!/usr/bin/env bash
# issue 22 after-measurement (session 35): the CLD's result bytes and CPU time
# per pair with 1, 2, 4, 8 ranks on one 16-core host (mpirun --oversubscribe,
# CPU workers only), rank 0 writing every result (--output-via rank0, the
# baseline) and the ranks writing through MPI-IO (--output-via mpiio), in the
# same run. PART 1: bench/run_cld.sh twice (16-base windows of real 16S genes)
# and whole genes (tests/data/16s-1000.fa.gz, 499,500 pairs) with the default
# outputs; PART 2: whole genes with --cigar.
set -u
part=${1:-1}
export PATH=/usr/local/cuda/bin:$PATH
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
O=$OUT
{ date -u; nvidia-smi -L; nproc; grep -m1 '^model name' /proc/cpuinfo; mpirun --version | head -1; git log --oneline -1; } > $O/info$part.txt 2>&1
make -j16 bin/mnw > $O/build$part.txt 2>&1 || { tail -20 $O/build$part.txt; exit 1; }
genes() { # genes EXTRA... : 16s-1000 with 1 (rank0), 2, 4, 8 ranks (rank0 and mpiio)
  echo "# whole genes: tests/data/16s-1000.fa.gz (499,500 pairs), 2 CPU workers per rank, --gpus none $*"
  for np in 1 2 4 8; do
    for via in rank0 mpiio; do
      [ $np -eq 1 ] && [ $via = mpiio ] && continue
      rm -rf /tmp/g-$via
      mpirun --oversubscribe --bind-to none -np $np bin/mnw -q -i tests/data/16s-1000.fa.gz -o /tmp/g-$via -t 2 --gpus none --output-via $via "$@" > /tmp/g.txt 2>&1 || cat /tmp/g.txt
      echo "np=$np via=$via ${*:-default outputs}: $(grep -o 'done: .*' /tmp/g-$via/mnw.log)"
      echo "    $(grep -o 'cld: .*' /tmp/g-$via/mnw.log)"
      echo "    outputs: $(du -cb /tmp/g-$via/*.gz | tail -1 | cut -f1) bytes"
    done
    if [ $np -gt 1 ]; then
      same=yes; for f in /tmp/g-rank0/*.gz /tmp/g-rank0/dist.phylip; do [ -e "$f" ] || continue; cmp -s $f /tmp/g-mpiio/$(basename $f) || same=NO; done
      echo "    np=$np: mpiio outputs byte-identical to rank0's: $same"
    fi
  done
}
if [ $part = 1 ]; then
  for rep in 1 2; do
    bash bench/run_cld.sh -n 6000 -w 2 1 2 4 8 > $O/run_cld_rep$rep.txt 2>&1; echo "rc=$?" >> $O/run_cld_rep$rep.txt
  done
  genes > $O/genes.txt 2>&1
  cat $O/run_cld_rep1.txt $O/run_cld_rep2.txt $O/genes.txt
else
  genes --cigar > $O/genes_cigar.txt 2>&1
  cat $O/genes_cigar.txt
fi
