# tests/e2e/browser_check.sh - sourced (". $src/tests/e2e/browser_check.sh")
# by the e2e tests that look at a page in headless chromium; not a test
# itself (CMake registers test_*.sh only).
#
# browser_find        sets $browser to chromium, chromium-browser or
#                     google-chrome, the first on PATH; 1 when none
# browser_require WHY exits 77 (the tests' SKIP_RETURN_CODE) printing
#                     "skipping: no chromium" when there is none
# run_browser ARGS... chromium headless with our flags, a fresh profile in
#                     $tmp (the caller's temporary folder), a 120 s
#                     timeout and its stderr appended to $tmp/browser.log;
#                     ARGS add flags and the URL (--dump-dom prints the
#                     page's DOM on stdout, --screenshot=FILE writes a PNG)
# browser_shot FILE URL ARGS...
#                     a screenshot of URL (scrollbars hidden) into FILE;
#                     1 when FILE is empty or missing
# browser_log         the last 3 lines of $tmp/browser.log
#
# browser_budget (default 15000) is chromium's --virtual-time-budget in
# ms; set it before run_browser, empty for none.
browser=""
browser_budget=${browser_budget-15000}

browser_find() {
    for b in chromium chromium-browser google-chrome; do
        if command -v "$b" >/dev/null 2>&1; then
            browser=$b
            return 0
        fi
    done
    return 1
}

browser_require() {
    browser_find && return 0
    echo "skipping: no chromium" >&2
    exit 77
}

run_browser() {
    prof=$(mktemp -d "$tmp/profile.XXXXXX")
    timeout 120 "$browser" --headless --no-sandbox --disable-gpu \
        --disable-dev-shm-usage \
        --disable-background-networking --disable-component-update \
        --disable-sync --no-first-run --user-data-dir="$prof" \
        --allow-file-access-from-files \
        ${browser_budget:+--virtual-time-budget=$browser_budget} "$@" \
        2>>"$tmp/browser.log"
}

browser_shot() {
    shot_file=$1 shot_url=$2
    shift 2
    run_browser --hide-scrollbars "$@" --screenshot="$shot_file" \
        "$shot_url" >/dev/null
    [ -s "$shot_file" ]
}

browser_log() {
    tail -3 "$tmp/browser.log" 2>/dev/null
}
