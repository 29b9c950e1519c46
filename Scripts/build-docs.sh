#!/usr/bin/env bash
# Builds the documentation site offline: Scripts/build-docs.sh OUTPUT_DIR
#
# 1. Builds Streams, StreamsBlocking, StreamsTest, StreamsInspector and ConfigFeatures (debug, in the package's .build, or in
#    DOCS_SCRATCH if set; after `swift test` this is a no-op) and extracts each module's public
#    symbol graph into DOCS_WORK (default .build/docs). The modules re-export
#    Foundation and Streams; swift-symbolgraph-extract keeps only what each module declares.
# 2. Converts each catalog (Sources/<Module>/<Module>.docc) with `docc convert --analyze
#    --warnings-as-errors`: any DocC diagnostic, a note included, fails the build.
# 3. Fails if a module's landing page (or ObservableType's page, where the operators are curated
#    by family) has a group DocC made up itself, that is a public symbol nobody curated.
# 4. Merges the five archives into one static site in OUTPUT_DIR, served from its root
#    (`python3 -m http.server -d OUTPUT_DIR`, then /documentation/streams).
#
# Exits non-zero on any failure. OUTPUT_DIR must be empty, missing, or a site this script wrote.
set -euo pipefail

if [[ $# -ne 1 || -z "$1" ]]; then
    echo "usage: Scripts/build-docs.sh OUTPUT_DIR" >&2
    exit 64
fi
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
if [[ -d /opt/swift/usr/bin ]]; then export PATH="/opt/swift/usr/bin:$PATH"; fi
for tool in swift docc swift-symbolgraph-extract python3; do
    command -v "$tool" >/dev/null || { echo "build-docs: '$tool' not found on PATH" >&2; exit 69; }
done

output="$1"
marker=".streams-docs-site"
if [[ -e "$output" && ! -d "$output" ]]; then
    echo "build-docs: $output exists and is not a folder" >&2
    exit 73
fi
if [[ -d "$output" && -n "$(ls -A "$output")" && ! -e "$output/$marker" ]]; then
    echo "build-docs: $output is not empty and was not written by this script; refusing to replace it" >&2
    exit 73
fi

work="${DOCS_WORK:-$root/.build/docs}"
modules=(Streams StreamsBlocking StreamsTest StreamsInspector ConfigFeatures)
triple="$(swift -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["triple"])')"
mkdir -p "$work"

echo "build-docs: building the modules"
scratch="${DOCS_SCRATCH:-$root/.build}"
swift build --scratch-path "$scratch" --target ConfigFeatures
swift build --scratch-path "$scratch" --target StreamsTest
swift build --scratch-path "$scratch" --target StreamsInspector
module_dir="$scratch/debug/Modules"

for module in "${modules[@]}"; do
    echo "build-docs: $module"
    graphs="$work/symbol-graphs/$module"
    archive="$work/$module.doccarchive"
    diagnostics="$work/$module-diagnostics.json"
    rm -rf "$graphs" "$archive" "$diagnostics"
    mkdir -p "$graphs"
    swift-symbolgraph-extract -module-name "$module" -I "$module_dir" -target "$triple" \
        -minimum-access-level public -emit-extension-block-symbols -skip-synthesized-members \
        -output-dir "$graphs"
    # A graph of extensions to another module's types that add only conformances
    # (NSObject: ReactiveCompatible, JSONDecoder: DataDecoder) would give DocC empty pages it can
    # neither link nor curate; the conformances are listed on the protocols' own pages.
    python3 - "$graphs" <<'PY'
import json, pathlib, sys
for graph in pathlib.Path(sys.argv[1]).glob("*@*.symbols.json"):
    symbols = json.loads(graph.read_text())["symbols"]
    if all(symbol["kind"]["identifier"] == "swift.extension" for symbol in symbols):
        graph.unlink()
PY
    docc convert "Sources/$module/$module.docc" \
        --additional-symbol-graph-dir "$graphs" \
        --fallback-display-name "$module" --fallback-bundle-identifier "org.streams.$module" \
        --output-path "$archive" --transform-for-static-hosting \
        --analyze --warnings-as-errors --diagnostics-file "$diagnostics"
    python3 Scripts/docs-coverage.py "$archive" "$diagnostics"
done

echo "build-docs: merging into $output"
staged="$work/site"
rm -rf "$staged"
archives=()
for module in "${modules[@]}"; do archives+=("$work/$module.doccarchive"); done
docc merge "${archives[@]}" --output-path "$staged" \
    --synthesized-landing-page-name "Streams packages" --synthesized-landing-page-topics-style list
touch "$staged/$marker"
rm -rf "$output"
mkdir -p "$(dirname "$output")"
mv "$staged" "$output"
echo "build-docs: site written to $output ($(find "$output/data" -name '*.json' | wc -l) pages)"
