#!/bin/sh
# e2e: --version names the git revision the binary was built from, taken
# at build time (cmake/git_rev.cmake): the row equals `git describe
# --always --dirty` of the source folder as it is now. Skips (77) when the
# source is not the top of a git checkout (a tarball: then there is no git
# row at all), or when a commit or an edited file is newer than the binary.
# usage: test_version_git.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2
command -v git >/dev/null 2>&1 || { echo "skipping: no git" >&2; exit 77; }
top=$(git -C "$src" rev-parse --show-toplevel 2>/dev/null) || top=
if [ -z "$top" ] || [ "$(cd "$top" && pwd -P)" != "$(cd "$src" && pwd -P)" ]; then
    "$pb" --version | grep -q '^  git ' && { echo "FAIL: a git row outside a checkout" >&2; exit 1; }
    echo "skipping: $src is not the top of a git checkout" >&2
    exit 77
fi
# a commit or an edit after the build: the binary cannot know it yet
built=$(stat -c %Y "$pb")
if [ "$(git -C "$src" log -1 --format=%ct)" -gt "$built" ]; then
    echo "skipping: a commit newer than $pb (build again)" >&2
    exit 77
fi
newer=$(cd "$src" && git diff --name-only HEAD 2>/dev/null | while read -r f; do
    [ -e "$f" ] && [ "$f" -nt "$pb" ] && echo "$f"; done | head -n 1)
if [ -n "$newer" ]; then
    echo "skipping: $newer changed after $pb was built (build again)" >&2
    exit 77
fi
want=$(git -C "$src" describe --always --dirty)
got=$("$pb" --version | sed -n 's/^  git        //p')
if [ "$got" != "$want" ]; then
    echo "FAIL: --version says git '$got', the source is at '$want' (built before the last commit or edit?)" >&2
    exit 1
fi
echo "git $got"
