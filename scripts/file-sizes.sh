#!/usr/bin/env bash
# Rust source files over the line limit (tests beside code included), against an allow-list of
# the files not yet split.
#
# Usage: scripts/file-sizes.sh [LIMIT]     (LIMIT: lines, default 900)
#
# Every tracked .rs file (fuzz targets, benches and tests too) is counted with `wc -l`. The run
# fails (exit 1) when a file over LIMIT is not in scripts/file-sizes.allow, and when a listed file
# is no longer over LIMIT or no longer exists: the list only shrinks, so remove its line. Prints
# every file over LIMIT with its count, largest first.
set -euo pipefail
cd "$(dirname "$0")/.."

limit="${1:-900}"
allow=scripts/file-sizes.allow
status=0

declare -A allowed=()
if [[ -f $allow ]]; then
  while IFS= read -r line; do
    line="${line%%#*}"
    line="${line//[[:space:]]/}"
    [[ -n $line ]] && allowed["$line"]=1
  done <"$allow"
fi

declare -A over=()
while IFS= read -r -d '' file; do
  [[ -f $file ]] || continue
  lines=$(wc -l <"$file")
  if ((lines > limit)); then
    over["$file"]=$lines
  fi
done < <(git ls-files -z -- '*.rs')

for file in "${!over[@]}"; do
  printf '%6d %s\n' "${over[$file]}" "$file"
done | sort -rn | while read -r lines file; do
  if [[ -n ${allowed[$file]:-} ]]; then
    printf '%6d %s (allowed, not yet split)\n' "$lines" "$file"
  else
    printf '%6d %s\n' "$lines" "$file"
  fi
done

for file in "${!over[@]}"; do
  if [[ -z ${allowed[$file]:-} ]]; then
    echo "file-sizes: $file has ${over[$file]} lines (limit $limit): split it by job"
    status=1
  fi
done
for file in "${!allowed[@]}"; do
  if [[ -z ${over[$file]:-} ]]; then
    echo "file-sizes: $allow lists $file, which is no longer over $limit lines: remove its line"
    status=1
  fi
done

echo "file-sizes: ${#over[@]} file(s) over $limit lines, ${#allowed[@]} allowed"
exit "$status"
