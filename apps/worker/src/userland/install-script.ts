import { EGRESS_LOCAL_PORT, EGRESS_MOUNT, EGRESS_SOCKET } from '../sandbox/shell-wrapper.js';

/** Inside the install sandbox: the package lists (`<manager>.list`, one per line) and this script. */
export const BUILD_INPUT_MOUNT = '/run/agentry/build';
/** Inside the install sandbox: where the script leaves `failed` (`<manager>\t<package>`) when a package fails. */
export const BUILD_OUTPUT_MOUNT = '/run/agentry/out';

const PROXY = `http://127.0.0.1:${EGRESS_LOCAL_PORT}`;
/** `${expr}` as the shell reads it, written inside a template literal. */
const shellVar = (expr: string) => '${' + expr + '}';
/** The list `list` read, as words. */
const ALL = `"${shellVar('PACKAGES[@]')}"`;
const PORT_HEX = EGRESS_LOCAL_PORT.toString(16).toUpperCase().padStart(4, '0');

/**
 * The script that installs a package set into a layer's tree, reaching the registries only through the
 * egress proxy. It runs twice, as root of its own user namespace: `system` (Debian packages and the
 * toolchains the other managers need) with the whole tree writable, then `user` (npm, pip, cargo, gem, go:
 * packages whose own scripts are not the archive's) with everything read-only but /usr/local and without
 * capabilities. Each manager installs its list at once; when that fails it installs the packages one by
 * one, so the one that fails is named (in `failed` and on the log).
 */
export const INSTALL_SCRIPT = String.raw`set -uo pipefail
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/tmp/home LANG=C.UTF-8
export DEBIAN_FRONTEND=noninteractive npm_config_cache=/tmp/npm-cache npm_config_update_notifier=false
export http_proxy=${PROXY} https_proxy=${PROXY} HTTP_PROXY=${PROXY} HTTPS_PROXY=${PROXY}
fail() { printf '%s\t%s\n' "$1" "$2" > ${BUILD_OUTPUT_MOUNT}/failed; echo "agentry: $1 package $2 could not be installed" >&2; exit 1; }
mkdir -p "$HOME"
socat TCP-LISTEN:${EGRESS_LOCAL_PORT},bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:${EGRESS_MOUNT}/${EGRESS_SOCKET} </dev/null >/dev/null 2>&1 &
for i in $(seq 200); do grep -q ':${PORT_HEX} 00000000:0000 0A' /proc/net/tcp && break; sleep 0.01; done

each() {
  local manager=$1 step=$2; shift 2
  echo "agentry: $manager: $*"
  "$step" "$@" && return 0
  for package in "$@"; do "$step" "$package" || fail "$manager" "$package"; done
  fail "$manager" "$*"
}
list() { local file=${BUILD_INPUT_MOUNT}/$1.list; [ -s "$file" ] && mapfile -t PACKAGES < "$file"; }
# Package lists and downloads stay in /tmp, out of the layer.
mkdir -p /tmp/apt/lists/partial /tmp/apt/archives/partial
apt=(apt-get -y -o Dir::State::Lists=/tmp/apt/lists -o Dir::Cache::Archives=/tmp/apt/archives -o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache=)
apt_ready=
apt_ready() {
  [ -n "$apt_ready" ] && return 0
  "${shellVar('apt[@]')}" update || fail apt "(the package lists of the Debian archive)"
  apt_ready=1
}
toolchain() { command -v "$1" >/dev/null || { apt_ready; apt_step "$2" || fail apt "$2"; }; }

apt_step() { "${shellVar('apt[@]')}" install --no-install-recommends "$@"; }
npm_step() { npm install -g --no-audit --no-fund --registry "$NPM_REGISTRY" "$@"; }
pip_step() { python3 -m pip install --no-cache-dir --root-user-action=ignore --break-system-packages --index-url "$PIP_INDEX_URL" $PIP_TRUSTED "$@"; }
cargo_step() {
  CARGO_HOME=/tmp/cargo cargo install --root /usr/local --config "source.crates-io.replace-with='mirror'" \
    --config "source.mirror.registry='$CARGO_INDEX'" "$@"
}
gem_step() { gem install --no-document --clear-sources --source "$GEM_SOURCE" --install-dir /usr/local/lib/gems --bindir /usr/local/bin "$@"; }
go_step() {
  local package
  for package in "$@"; do
    [[ $package == *@* ]] || package=$package@latest
    GOPATH=/tmp/go GOBIN=/usr/local/bin GOPROXY="$GOPROXY" go install "$package" || return 1
  done
}

if [ "$1" = system ]; then
  if list apt; then apt_ready; each apt apt_step ${ALL}; fi
  if list cargo; then toolchain cargo cargo; fi
  if list gem; then toolchain gem ruby; fi
  if list go; then toolchain go golang-go; fi
  rm -rf /var/cache/debconf/*-old /var/log/apt
else
  if list npm; then each npm npm_step ${ALL}; fi
  if list pip; then each pip pip_step ${ALL}; fi
  if list cargo; then each cargo cargo_step ${ALL}; fi
  if list gem; then each gem gem_step ${ALL}; fi
  if list go; then each go go_step ${ALL}; fi
fi
echo "agentry: $1 packages installed"
`;
