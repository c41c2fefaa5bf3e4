#!/usr/bin/env bash
# Installs what tile-opt needs to build and test, from Debian's packages only.
# Idempotent: when everything is present it changes nothing and says so.
# Needs root or sudo only when something is missing.
set -euo pipefail

packages=(
  # MLIR/LLVM 22: headers, libMLIR.so, mlir-opt, FileCheck, lit, not.
  libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools
  # The build.
  cmake ninja-build g++ make python3 zlib1g-dev libzstd-dev
  # JSON for the kernel manifest (header-only).
  nlohmann-json3-dev
  # Unit tests (GoogleTest).
  libgtest-dev
  # scripts/plot-results.py (the bench plots) and its test.
  python3-matplotlib
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null |
    grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

sudo=()
if [[ $(id -u) -ne 0 ]]; then
  if command -v sudo >/dev/null 2>&1; then
    sudo=(sudo)
  else
    echo "install-deps: missing ${missing[*]}, and not root (no sudo)" >&2
    exit 1
  fi
fi
echo "install-deps: installing ${missing[*]}"
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq \
  --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done"
