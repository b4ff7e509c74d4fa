#!/bin/sh
# Packages the extension as editors/vscode/acf-productions.vsix (install it with
# `code --install-extension acf-productions.vsix`). Needs node and npm, and the npm registry
# the first time (npm ci fetches vscode-languageclient and @vscode/vsce, pinned in
# package-lock.json). `./mvnw package` afterwards ships the .vsix in the distribution.
set -eu
cd "$(dirname "$0")"
npm ci --no-audit --no-fund
cp ../../LICENSE LICENSE
npx vsce package --allow-missing-repository --out acf-productions.vsix
