#!/bin/sh
# Packages the extension as editors/vscode/acf-productions.vsix (install it with
# `code --install-extension acf-productions.vsix`). `./mvnw package` runs this from the
# distribution module and ships the .vsix as editors/acf-productions.vsix; `-Dacf.vsix.skip`
# leaves it out. Needs node and npm, and the npm registry the first time (npm ci fetches
# vscode-languageclient and @vscode/vsce, pinned in package-lock.json; later builds use npm's
# cache). Without node or npm it fails under CI (CI set, as .ci/run runs) or with
# ACF_VSIX=required, and elsewhere says why it skipped and exits 0, so that a developer without
# node still builds everything else. Nothing is redone while the inputs are unchanged.
set -eu
cd "$(dirname "$0")"

missing=""
command -v node >/dev/null 2>&1 || missing="node"
command -v npm >/dev/null 2>&1 || missing="${missing:+$missing and }npm"
# @vscode/vsce 3 and its libraries need Node.js 20 or later (Debian 12's own nodejs is 18).
if [ -z "$missing" ] && ! node -e 'process.exit(+process.versions.node.split(".")[0] >= 20 ? 0 : 1)'; then
  missing="Node.js 20 or later (found $(node --version))"
fi
if [ -n "$missing" ]; then
  why="the VS Code extension (.vsix) needs $missing (Debian: apt-get install nodejs npm)"
  if [ -n "${CI:-}" ] || [ "${ACF_VSIX:-}" = required ]; then
    echo "editors/vscode/build.sh: error: $why" >&2
    exit 1
  fi
  echo "editors/vscode/build.sh: skipped: $why; the distribution ships without it"
  exit 0
fi

# npm ci again only when the lock file changed since the last one (it empties node_modules).
if ! cmp -s package-lock.json node_modules/.acf-package-lock.json 2>/dev/null; then
  npm ci --prefer-offline --no-audit --no-fund --loglevel=error >/dev/null # errors: stderr
  cp package-lock.json node_modules/.acf-package-lock.json
fi
cmp -s ../../LICENSE LICENSE || cp ../../LICENSE LICENSE

# Packaged again only when an input is newer than the package.
vsix=acf-productions.vsix
if [ -f "$vsix" ] && [ -z "$(find package.json package-lock.json extension.js \
    language-configuration.json LICENSE syntaxes README.md -newer "$vsix" 2>/dev/null)" ]; then
  exit 0 # up to date: nothing to say (./mvnw -q stays one line per module)
fi
# vsce lists every packaged file on stdout: kept out of the build's log unless it fails.
log=node_modules/.acf-vsce.log
if ! npx --no-install vsce package --allow-missing-repository --out "$vsix" >"$log" 2>&1; then
  cat "$log" >&2
  exit 1
fi
echo "editors/vscode/build.sh: packaged $(pwd)/$vsix"
