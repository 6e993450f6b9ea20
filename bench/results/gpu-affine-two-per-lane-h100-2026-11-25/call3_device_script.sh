#!/usr/bin/env bash
# issue 18: stall reasons (all) of the two-per-lane TiledDScan kernel, linear, with and without direction stores; SASS-level stall samples of the stored one
set -u
export PATH=/usr/local/cuda/bin:$PATH
O=$OUT
cp bench/tmp/s29_call3.sh $O/device_script.sh
{ date -u; nvidia-smi -L; nvcc --version | tail -1; git log --oneline -1; } > $O/info.txt
make -j14 build/bench/bench_gpu > $O/build_new.txt 2>&1 || { tail -20 $O/build_new.txt; exit 1; }
M='regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio|smsp__inst_executed.sum|gpu__time_duration.sum|smsp__warps_active.avg.per_cycle_active|l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum|l1tex__t_requests_pipe_lsu_mem_global_op_st.sum|smsp__inst_executed_op_shared_ld.sum|smsp__inst_executed_op_global_st.sum'
for tb in device score; do
B="devdata/16s-2k.fa.gz --pairs 30000 --gaps linear --cpu-pairs 10 --rodinia-pairs 0 --reps 1 --kernels tileddscan --lanes x2 --tb $tb"
timeout 150 ncu --kernel-name regex:dscan2 --launch-count 1 --metrics "$M" build/bench/bench_gpu $B > $O/ncu_stalls_$tb.txt 2>&1; echo "ncu $tb rc=$?"
grep -E 'stalled|inst_executed|duration|warps_active|sectors|requests' $O/ncu_stalls_$tb.txt | awk '$NF+0 > 0.05 || /inst|duration|sectors|requests/' | sed 's/smsp__average_warps_issue_stalled_//; s/_per_issue_active.ratio//'
done
B="devdata/16s-2k.fa.gz --pairs 30000 --gaps linear --cpu-pairs 10 --rodinia-pairs 0 --reps 1 --kernels tileddscan --lanes x2 --tb device"
timeout 200 ncu --kernel-name regex:dscan2 --launch-count 1 --section SourceCounters --section WarpStateStats --page source --print-source sass --csv build/bench/bench_gpu $B > $O/ncu_source_dev.csv 2>&1; echo "ncu source rc=$? $(wc -l < $O/ncu_source_dev.csv) lines"
