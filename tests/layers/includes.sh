#!/bin/sh
# tests/layers/includes.sh SOURCE_DIR [MODULE FILE]
#
# The layers by #include: each module's files include only headers of the
# modules below it (docs/architecture.md, "Data flow"). The link checks
# (layers_<module>, layers.upward) catch a call upward; they cannot catch
# render/ reaching model/, which sits below analysis/ and so is linked
# into render/'s programs anyway. This catches it by the include: render/
# names no model/ header (it is handed analysis/'s structs and handle).
# With MODULE FILE, FILE is checked as a file of MODULE (the test
# layers.includes_probe: a deliberate upward include must be found).
# Prints each include that breaks a layer; exit 0 none, 1 some.
set -u
src=$1
allowed() {
    case $1 in
    common) echo "common" ;;
    resultset) echo "common resultset" ;;
    model) echo "common resultset model" ;;
    ingest) echo "common resultset ingest" ;;
    analysis) echo "common resultset model analysis" ;;
    render) echo "common analysis render" ;;
    run) echo "common resultset ingest model run" ;;
    esac
}
bad=0
# check MODULE FILE...
check() {
    _m=$1
    shift
    _ok=$(allowed "$_m")
    for _f in "$@"; do
        for _inc in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([a-z_]*\)\/.*/\1/p' "$_f"); do
            case " $_ok " in
            *" $_inc "*) ;;
            *)
                echo "$_f: $_m/ includes $_inc/"
                bad=1
                ;;
            esac
        done
    done
}
if [ $# -ge 3 ]; then
    check "$2" "$3"
else
    for m in common resultset model ingest analysis render run; do
        # shellcheck disable=SC2046
        check $m $(find "$src/$m" -name '*.[ch]' | sort)
    done
fi
exit $bad
