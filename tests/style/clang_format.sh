#!/usr/bin/env bash
# Every C++ source as .clang-format says. The style is pinned to clang-format 14, Debian 12's
# (scripts/install-deps.sh); another major version formats some constructs differently, so the
# check is skipped there (exit 77) rather than failing on a difference of tools.
# Usage: tests/style/clang_format.sh CLANG_FORMAT   (from the repository root)
set -u
tool=$1
major=$("$tool" --version | sed -n 's/.*version \([0-9][0-9]*\)\..*/\1/p' | head -n 1)
if [ "$major" != "14" ]; then
  echo "skipped: $tool is version ${major:-unknown}, the style is clang-format 14's"
  exit 77
fi
files=()
while IFS= read -r -d '' f; do files+=("$f"); done < <(find framework models examples tests \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' \) -print0 | sort -z)
# One process for all of them: one per file took ten times as long.
if ! out=$("$tool" --dry-run -Werror "${files[@]}" 2>&1); then
  echo "not formatted (run: clang-format -i FILE):"
  printf '%s\n' "$out" | sed -n 's/^\([^: ]*\):[0-9]*:[0-9]*: error:.*/  \1/p' | sort -u
  exit 1
fi
echo "${#files[@]} files, all formatted"
