#!/usr/bin/env bash
# scripts/setup.sh — install the Debian 12 packages croupier needs and build
# it into build/.  Works as root (a minimal Debian has no sudo) or as a user
# with sudo.  Packages already installed are not touched.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake pkg-config libcmocka-dev libjansson-dev gnuplot-nox
          clang-format git ca-certificates libncurses-dev tmux
          libcivetweb-dev libsodium-dev libsqlite3-dev libpq-dev groff-base
          python3-dev python3-numpy python3-pytest python3-pip python3-setuptools
          libopenmpi-dev openmpi-bin) # the lab on MPI: mpirun -n N croupier sim (docs/lab.md)

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
        missing+=("$p")
    fi
done

if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" -eq 0 ]; then
        sudo=()
    elif command -v sudo >/dev/null 2>&1; then
        sudo=(sudo)
    else
        echo "setup.sh: need root or sudo to install: ${missing[*]}" >&2
        exit 1
    fi
    echo "setup.sh: installing ${missing[*]}"
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y --no-install-recommends "${missing[@]}"
fi

cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j "$(nproc 2>/dev/null || echo 2)"
echo "setup.sh: built ./build/croupier"
echo "setup.sh: for the PostgreSQL tests: export CROUPIER_TEST_PG=\"\$(sudo scripts/pg-test-db.sh)\""
