#!/usr/bin/env bash
# A tilesim sweep on a Slurm cluster (docs/sweeps.md): each task of a job array
# simulates one shard, then one job merges the shards' files into the CSV,
# SVG and HTML of one run.
#
#   array=$(sbatch --parsable --array=0-15 slurm_sweep.sh SWEEP.yaml OUT [sweep options])
#   sbatch --dependency=afterok:$array slurm_sweep.sh SWEEP.yaml OUT [sweep options]
#
# In an array task (SLURM_ARRAY_TASK_ID set), shard I of N writes OUT.shardI.csv;
# N is the array's task count (--array=0-(N-1)), or TILESIM_SHARDS when a single
# task is submitted again (sbatch --array=5 --export=ALL,TILESIM_SHARDS=16 ...).
# A task stopped by SIGTERM (time limit, preemption) keeps what it finished and
# a requeued or resubmitted task continues from there (--resume).
# Outside an array, the script merges OUT.shard*.csv into OUT.csv, OUT.svg and
# OUT.html. Sweep options (--hw, --set, --max-events) go to every step alike.
#SBATCH --job-name=tilesim-sweep
#SBATCH --cpus-per-task=4
#SBATCH --time=01:00:00
#SBATCH --open-mode=append
set -euo pipefail
if [[ $# -lt 2 ]]; then
  echo "usage: sbatch --array=0-(N-1) $0 SWEEP.yaml OUT [tilesim sweep options]" >&2
  exit 2
fi
sweep=$1
out=$2
shift 2
if [[ -n ${SLURM_ARRAY_TASK_ID:-} ]]; then
  shards=${TILESIM_SHARDS:-${SLURM_ARRAY_TASK_COUNT:?not an array job: submit with --array=0-(N-1)}}
  exec tilesim sweep "$sweep" --shard "$SLURM_ARRAY_TASK_ID/$shards" \
    --csv "$out.shard$SLURM_ARRAY_TASK_ID.csv" --resume -j "${SLURM_CPUS_PER_TASK:-1}" "$@"
fi
exec tilesim sweep "$sweep" --merge "$out".shard*.csv \
  --csv "$out.csv" --svg "$out.svg" --html "$out.html" "$@"
