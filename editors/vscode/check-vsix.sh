#!/bin/sh
# Checks a packaged extension (the distribution's editors/acf-productions.vsix; `mvn verify` runs
# this on the unpacked archive): the manifest, the entry point, the grammar, the language
# configuration, the licence and the language client library are in it, the packaging tool is
# not. A missing file fails under CI (CI set) or ACF_VSIX=required, and is only reported
# elsewhere (build.sh skipped it for want of node or npm); ACF_VSIX_SKIP=true (-Dacf.vsix.skip)
# skips the check.
set -eu
vsix="$1"
if [ "${ACF_VSIX_SKIP:-false}" = true ]; then
  echo "check-vsix.sh: the extension was left out (-Dacf.vsix.skip); not checked"
  exit 0
fi
if [ ! -f "$vsix" ]; then
  if [ -n "${CI:-}" ] || [ "${ACF_VSIX:-}" = required ]; then
    echo "check-vsix.sh: error: the distribution lacks $vsix (editors/vscode/build.sh)" >&2
    exit 1
  fi
  echo "check-vsix.sh: no $vsix in the distribution (build.sh skipped it); not checked"
  exit 0
fi
entries="$(unzip -Z1 "$vsix")"
for e in extension.vsixmanifest extension/package.json extension/extension.js \
    extension/language-configuration.json extension/syntaxes/acf.tmLanguage.json \
    extension/LICENSE.txt extension/node_modules/vscode-languageclient/package.json; do
  if ! printf '%s\n' "$entries" | grep -qx "$e"; then
    echo "check-vsix.sh: error: $vsix lacks $e" >&2
    exit 1
  fi
done
if printf '%s\n' "$entries" | grep -q "node_modules/@vscode/vsce/"; then
  echo "check-vsix.sh: error: $vsix holds the packaging tool (node_modules/@vscode/vsce)" >&2
  exit 1
fi
echo "check-vsix.sh: $vsix holds the extension and its language client"
