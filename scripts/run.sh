#!/usr/bin/env bash
# Sets up (scripts/setup.sh) and starts ComposeLab; with no arguments it opens the bundled seed
# testbed. Arguments go to the program: a design file, or a subcommand such as `analyze FILE`.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh"
exec "${COMPOSELAB_BUILD_DIR:-$root/build}/composelab" "$@"
