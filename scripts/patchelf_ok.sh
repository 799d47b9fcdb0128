#!/usr/bin/env bash
# Exits 0 when the patchelf on PATH is 0.14.5 or newer, the oldest that
# auditwheel repair accepts (scripts/setup.sh and scripts/wheel.sh ask).
v=$(patchelf --version 2>/dev/null | awk '{print $2}')
[ -n "$v" ] && [ "$(printf '%s\n' 0.14.5 "$v" | sort -V | head -n1)" = 0.14.5 ]
