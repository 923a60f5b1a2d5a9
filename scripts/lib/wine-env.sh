# SPDX-License-Identifier: MIT
# The Wine environment of one test run: a private WINEPREFIX under the build
# directory, one Xvfb and one persistent wineserver, stopped by the ids started here.
# Usage: source scripts/lib/wine-env.sh; npt_wine_start BUILD_DIR; ...; npt_wine_stop

npt_wine_start() {
  local build_dir
  build_dir=$(mkdir -p "$1" && cd "$1" && pwd)
  export WINEPREFIX=$build_dir/wineprefix
  export WINEARCH=win64
  export WINEDEBUG=${WINEDEBUG:--all}
  mkdir -p "$build_dir"

  local display_file
  display_file=$(mktemp)
  # -displayfd picks a free display and reports it once the server accepts connections.
  Xvfb -displayfd 9 -screen 0 1280x1024x24 -nolisten tcp +extension GLX 9>"$display_file" >/dev/null 2>&1 &
  NPT_XVFB_PID=$!
  local i
  for i in $(seq 1 100); do
    [ -s "$display_file" ] && break
    kill -0 "$NPT_XVFB_PID" 2>/dev/null || { echo "Xvfb failed to start" >&2; return 1; }
    sleep 0.1
  done
  export DISPLAY=":$(head -n1 "$display_file")"
  rm -f "$display_file"

  if [ ! -f "$WINEPREFIX/system.reg" ]; then
    # Seen once on a fresh clone: the first prefix creation ended without a word (and the
    # test command with it, under set -e). Say so, and try once more before giving up.
    npt_wine_create_prefix "$build_dir/wineboot.log" || {
      echo "creating the Wine prefix failed; trying once more (log: $build_dir/wineboot.log)" >&2
      wineserver -k >/dev/null 2>&1 || true
      npt_wine_create_prefix "$build_dir/wineboot.log" || {
        echo "creating the Wine prefix $WINEPREFIX failed twice; log: $build_dir/wineboot.log" >&2
        return 1
      }
    }
  fi
  wineserver -p -f >/dev/null 2>&1 &
  NPT_WINESERVER_PID=$!
  # Start Wine's background processes (services, explorer) now, with no pipes
  # attached: started by a test they would inherit its stdout and keep the
  # test runner waiting for end-of-file until the wineserver exits.
  wine cmd /c exit >/dev/null 2>&1 </dev/null
  export NPT_XVFB_PID NPT_WINESERVER_PID
}

npt_wine_create_prefix() {
  local log=$1
  # No Mono/Gecko download prompts: nothing here needs them and the network is closed.
  WINEDLLOVERRIDES="mscoree,mshtml=" wineboot --init >>"$log" 2>&1 &&
    wineserver -w &&
    # wined3d's OpenGL renderer on llvmpipe is the reference configuration.
    wine reg add 'HKCU\Software\Wine\Direct3D' /v renderer /t REG_SZ /d gl /f >>"$log" 2>&1 &&
    # A crashing test prints its backtrace and exits instead of waiting on a dialog.
    wine reg add 'HKCU\Software\Wine\WineDbg' /v ShowCrashDialog /t REG_DWORD /d 0 /f >>"$log" 2>&1 &&
    wineserver -w
}

npt_wine_stop() {
  if [ -n "${NPT_WINESERVER_PID:-}" ]; then
    wineserver -k >/dev/null 2>&1 || true
    kill "$NPT_WINESERVER_PID" 2>/dev/null || true
    wait "$NPT_WINESERVER_PID" 2>/dev/null || true
    NPT_WINESERVER_PID=
  fi
  if [ -n "${NPT_XVFB_PID:-}" ]; then
    kill "$NPT_XVFB_PID" 2>/dev/null || true
    wait "$NPT_XVFB_PID" 2>/dev/null || true
    NPT_XVFB_PID=
  fi
}
