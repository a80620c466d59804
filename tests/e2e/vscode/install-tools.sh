#!/usr/bin/env bash
# Installs what the real-VS-Code end-to-end test needs, offline except for the
# package registries: Debian's chromium and ripgrep (apt), code-server (npm; it
# carries VS Code itself) and playwright-core (npm; drives chromium, downloads
# no browser).  The npm packages go into a cache outside the repository, one
# folder per version, so later runs reuse them; on success it writes
# tools.json there, which tests/e2e/test_vscode.py reads.
#
# Installs only as root with apt-get and npm (as in CI); otherwise it says why
# the test will be skipped and exits 0.  Any failed step does the same.
set -uo pipefail

CODE_SERVER_VERSION=4.100.3   # VS Code 1.100.3; the last line that runs on Node 20
PLAYWRIGHT_VERSION=1.65.1
RIPGREP_CACHE=vscode-ripgrep-cache-1.15.11/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz

cache=${INPUTMEND_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/inputmend-e2e}
code_server_dir=$cache/code-server-$CODE_SERVER_VERSION
playwright_dir=$cache/playwright-core-$PLAYWRIGHT_VERSION
code_server=$code_server_dir/node_modules/.bin/code-server
playwright=$playwright_dir/node_modules/playwright-core

skip() {
  echo "VS Code end-to-end test: $1; it will be skipped"
  exit 0
}

missing_debs=()
for deb in chromium ripgrep libkrb5-dev; do
  dpkg -s "$deb" >/dev/null 2>&1 || missing_debs+=("$deb")
done
have_npm_packages=false
[ -x "$code_server" ] && [ -f "$playwright/package.json" ] && have_npm_packages=true

if [ ${#missing_debs[@]} -gt 0 ] || [ "$have_npm_packages" = false ]; then
  command -v npm >/dev/null 2>&1 || skip "npm not found"
  if [ ${#missing_debs[@]} -gt 0 ]; then
    { [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; } ||
      skip "missing ${missing_debs[*]} (installed only as root with apt-get)"
    echo "installing ${missing_debs[*]} for the VS Code end-to-end test"
    { apt-get update -qq &&
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=600 \
          "${missing_debs[@]}"; } >/dev/null 2>&1 ||
      skip "could not install ${missing_debs[*]} with apt-get"
  fi
fi

if [ ! -x "$code_server" ]; then
  [ "$(id -u)" = 0 ] || skip "code-server is not installed in $code_server_dir (installed only as root)"
  echo "installing code-server $CODE_SERVER_VERSION into $code_server_dir (about 2 minutes, once)"
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  # @vscode/ripgrep's postinstall would download rg; it takes it from its
  # download cache under $TMPDIR when there, so hand it Debian's rg.
  mkdir -p "$work/$(dirname "$RIPGREP_CACHE")"
  cp "$(command -v rg)" "$work/rg"
  tar -C "$work" -czf "$work/$RIPGREP_CACHE" rg
  rm -rf "$code_server_dir.partial"
  # npm_config_yes: node-pty's build runs `npx node-gyp`, which a `yes = false`
  # npm configuration refuses; the native modules then compile offline.
  if ! TMPDIR=$work npm_config_yes=true npm install --prefix "$code_server_dir.partial" \
      --unsafe-perm --no-audit --no-fund --loglevel=error \
      "code-server@$CODE_SERVER_VERSION" >"$work/npm.log" 2>&1; then
    tail -n 30 "$work/npm.log"
    skip "npm could not install code-server $CODE_SERVER_VERSION"
  fi
  mv "$code_server_dir.partial" "$code_server_dir"
fi

if [ ! -f "$playwright/package.json" ]; then
  echo "installing playwright-core $PLAYWRIGHT_VERSION into $playwright_dir"
  rm -rf "$playwright_dir.partial"
  npm install --prefix "$playwright_dir.partial" --no-audit --no-fund --loglevel=error \
    "playwright-core@$PLAYWRIGHT_VERSION" >/dev/null 2>&1 ||
    skip "npm could not install playwright-core $PLAYWRIGHT_VERSION"
  mv "$playwright_dir.partial" "$playwright_dir"
fi

chromium=$(command -v chromium) || skip "chromium not found"
cat >"$cache/tools.json" <<JSON
{"code_server": "$code_server", "playwright_core": "$playwright", "chromium": "$chromium"}
JSON
echo "VS Code end-to-end test tools: code-server $CODE_SERVER_VERSION, playwright-core $PLAYWRIGHT_VERSION, $("$chromium" --version 2>/dev/null)"
