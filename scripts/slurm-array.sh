#!/bin/bash
# slurm-array.sh — a CudaPerf evaluation as a SLURM job array: one task per
# shard, each on its own copy of the catalog (SQLite does not share writers
# across nodes), merged back once every task has finished.
#
#   sbatch --array=0-7 scripts/slurm-array.sh            # 8 shards, one GPU each
#   sbatch --dependency=afterany:<jobid> --wrap 'scripts/slurm-array.sh merge'
#
# Settings (environment): CATALOG (default datasets/catalog.db), WORK (a
# folder every node can read and write, default work/slurm), SELECTION (the
# `harness run` selection, default "--split test"), and RUN_OPTS (more run
# options, e.g. "--kernels variants").  A task that is killed can be
# resubmitted: it resumes its own run instead of starting again.
#SBATCH --job-name=cudaperf
#SBATCH --gpus-per-task=1
#SBATCH --cpus-per-task=16
#SBATCH --time=04:00:00
#SBATCH --output=work/slurm/%A_%a.log
set -euo pipefail
CATALOG=${CATALOG:-datasets/catalog.db}
WORK=${WORK:-work/slurm}
SELECTION=${SELECTION:---split test}
RUN_OPTS=${RUN_OPTS:-}
mkdir -p "$WORK"

if [ "${1:-}" = merge ]; then
    # every shard's copy into the main catalog: one run, finished when all shards are there
    exec bin/harness --catalog "$CATALOG" merge "$WORK"/shard-*.db
fi

I=${SLURM_ARRAY_TASK_ID:?run under sbatch --array, or pass merge}
N=${SLURM_ARRAY_TASK_COUNT:?}
SHARD_DB="$WORK/shard-$I.db"
[ -f "$SHARD_DB" ] || cp "$CATALOG" "$SHARD_DB"
# a resubmitted task continues its interrupted run
RUN=$(bin/harness --catalog "$SHARD_DB" results --json 2>/dev/null |
      python3 -c 'import json,sys; j=json.load(sys.stdin); print(j["id"] if j["status"] != "finished" else "")' \
      2>/dev/null || true)
if [ -n "$RUN" ]; then
    exec bin/harness --catalog "$SHARD_DB" run --resume "$RUN" --cache "$WORK/cache-$I"
fi
# shellcheck disable=SC2086
exec bin/harness --catalog "$SHARD_DB" run $SELECTION $RUN_OPTS --shard "$I/$N" --cache "$WORK/cache-$I"
