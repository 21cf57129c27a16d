#!/bin/sh
# Run inside `dbus-run-session`: a throw-away GNOME Keyring (Secret Service) for integration tests.
# Usage: dbus-run-session -- sh keyring_session.sh HOME_DIR PASSWORD
# Prints "READY <bus address>" once the login keyring is unlocked, then stays up until stdin closes.
set -eu
export HOME="$1"
mkdir -p "$HOME"
# A runtime dir from the outer session would point the daemon at the user's real keyring, and
# with none set the daemon falls back to a shared one (/run/user/UID): two sessions at once (tests
# in parallel) would then find each other's control socket. Each session gets its own.
unset XDG_DATA_HOME XDG_CONFIG_HOME GNOME_KEYRING_CONTROL
export XDG_RUNTIME_DIR="$HOME/.runtime"
mkdir -p -m 700 "$XDG_RUNTIME_DIR"
# Unlock first (creating the login keyring with PASSWORD), then start the secrets component of
# the same daemon: without the control dir from the first step, --start would launch a second one.
eval "$(printf '%s' "$2" | gnome-keyring-daemon --unlock --components=secrets)"
export GNOME_KEYRING_CONTROL
eval "$(gnome-keyring-daemon --start --components=secrets)"
echo "READY $DBUS_SESSION_BUS_ADDRESS"
# Keep the bus (and the daemon) alive until the test closes our stdin.
cat > /dev/null
