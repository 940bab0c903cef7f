#!/bin/sh
# fake-backend.sh DIR <input> -o <output> [--fail | --no-output]: a stand-in
# for a backend job. It notes its input in DIR/order and how many fake jobs
# were running when it started in DIR/counts, runs for 0.3 s, then writes
# <output> (or fails, or writes nothing).
dir=$1 input=$2 output=$4 mode=$5
mkdir "$dir/running.$$"
echo "$input" >> "$dir/order"
ls -d "$dir"/running.* | wc -l >> "$dir/counts"
sleep 0.3
rmdir "$dir/running.$$"
if [ "$mode" = --fail ]; then
  echo "fake-backend: cannot compile $input" >&2
  exit 3
fi
[ "$mode" = --no-output ] || echo object > "$output"
