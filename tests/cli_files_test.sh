#!/usr/bin/env bash
# `gpusort sort` and `argsort` on real files, end to end (CI runs it after
# building the CLI; without a GPU the CPU backend sorts). Good input: raw and
# .npy files sort, and the output checks as sorted; argsort and --values
# give the stable permutation. Bad input: each case must exit 2
# with a message naming the fault, and leave no output file and no
# temporary file behind:
#   a truncated raw file, a malformed .npy header, an unsupported dtype, a
#   Fortran-ordered array, a wrong --key, an unreadable input, an
#   unwritable output folder, and a full disk (a file-size limit).
# Usage: tests/cli_files_test.sh [path/to/gpusort]
set -uo pipefail
bin=${1:-build/gpusort}
dir=$(mktemp -d)
trap 'chmod -R u+w "$dir"; rm -rf "$dir"' EXIT
fails=0
pass() { echo "ok   $1"; }
fail() { echo "FAIL $1"; fails=$((fails + 1)); }

# refuse NAME PATTERN ARGS...: exit 2, the message matches, no output left
refuse() {
  local name=$1 pattern=$2
  shift 2
  local err rc
  err=$("$bin" sort "$@" 2>&1 >/dev/null)
  rc=$?
  local left
  left=$(find "$dir" -name 'out*' -o -name '.out*' | head -1)
  if [ "$rc" -eq 2 ] && grep -q -- "$pattern" <<< "$err" && [ -z "$left" ]; then
    pass "$name"
  else
    fail "$name (exit $rc, message: $err, left: $left)"
  fi
  rm -f "$dir"/out* "$dir"/.out*
}

# npy FILE DICT BYTES: a version 1.0 .npy file with header dict DICT and
# BYTES bytes of data
npy() {
  local file=$1 dict=$2 bytes=$3
  local len=$(( ${#dict} + 1 ))
  local pad=$(( (64 - (10 + len) % 64) % 64 ))
  local total=$(( len + pad ))
  {
    printf '\x93NUMPY\x01\x00'
    printf "\\x$(printf %02x $((total & 255)))\\x$(printf %02x $((total >> 8)))"
    printf '%s%*s\n' "$dict" "$pad" ''
    head -c "$bytes" /dev/urandom
  } > "$file"
}

# good input
"$bin" gen --key u32 --n 100003 --dist uniform "$dir/keys.bin" > /dev/null
if "$bin" sort --key u32 "$dir/keys.bin" "$dir/sorted.bin" > /dev/null &&
   "$bin" verify --key u32 "$dir/sorted.bin" > /dev/null; then pass "raw u32 sorts"; else fail "raw u32 sorts"; fi
npy "$dir/keys.npy" "{'descr': '<i8', 'fortran_order': False, 'shape': (5000,), }" 40000
if "$bin" sort "$dir/keys.npy" "$dir/sorted.npy" > /dev/null &&
   tail -c 40000 "$dir/sorted.npy" > "$dir/sorted_i64.bin" &&
   "$bin" verify --key i64 "$dir/sorted_i64.bin" > /dev/null &&
   [ "$(head -c 6 "$dir/sorted.npy" | od -An -c | tr -d ' ')" = "223NUMPY" ]; then
  pass ".npy i64 sorts, .npy out"
else
  fail ".npy i64 sorts, .npy out"
fi

# argsort and values, checked in Python (no NumPy needed): the stable
# permutation, and pairs that move together
"$bin" gen --key u16 --n 20011 --dist few_unique "$dir/k16.bin" > /dev/null
python3 -c "import struct,sys; n=20011; open(sys.argv[1],'wb').write(struct.pack('<%dQ'%n,*range(n)))" "$dir/v64.bin"
if "$bin" argsort --key u16 "$dir/k16.bin" "$dir/perm.bin" > /dev/null &&
   "$bin" sort --key u16 --values "$dir/v64.bin" --values-out "$dir/sv.bin" "$dir/k16.bin" "$dir/sk.bin" > /dev/null &&
   python3 - "$dir" <<'PY'
import struct, sys
d = sys.argv[1]
keys = struct.unpack('<20011H', open(d + '/k16.bin', 'rb').read())
want = sorted(range(len(keys)), key=lambda i: keys[i])  # Python's sort is stable
perm = struct.unpack('<20011I', open(d + '/perm.bin', 'rb').read())
sk = struct.unpack('<20011H', open(d + '/sk.bin', 'rb').read())
sv = struct.unpack('<20011Q', open(d + '/sv.bin', 'rb').read())
assert list(perm) == want and list(sv) == want and list(sk) == [keys[i] for i in want]
PY
then pass "argsort and --values (stable)"; else fail "argsort and --values (stable)"; fi

# bad input
head -c 1001 "$dir/keys.bin" > "$dir/trunc.bin"
refuse "truncated raw file" "not a multiple" --key u32 "$dir/trunc.bin" "$dir/out.bin"
npy "$dir/bad.npy" "{'descr': '<u4', 'fortran_order': False, 'shape': 4 }" 16
refuse "malformed .npy header" "malformed .npy header" "$dir/bad.npy" "$dir/out.npy"
npy "$dir/c8.npy" "{'descr': '<c8', 'fortran_order': False, 'shape': (4,), }" 32
refuse "unsupported dtype" "unsupported .npy dtype" "$dir/c8.npy" "$dir/out.npy"
npy "$dir/f.npy" "{'descr': '<u4', 'fortran_order': True, 'shape': (2, 2), }" 16
refuse "Fortran order" "Fortran-ordered" "$dir/f.npy" "$dir/out.npy"
npy "$dir/short.npy" "{'descr': '<u4', 'fortran_order': False, 'shape': (10,), }" 12
refuse "truncated .npy" "truncated or corrupt" "$dir/short.npy" "$dir/out.npy"
refuse "wrong --key for .npy" "does not match" --key u32 "$dir/keys.npy" "$dir/out.npy"
refuse "unknown --key" "unknown key type" --key u33 "$dir/keys.bin" "$dir/out.bin"
refuse "missing input" "cannot open" --key u32 "$dir/nothing.bin" "$dir/out.bin"
if [ "$(id -u)" != 0 ]; then
  cp "$dir/keys.bin" "$dir/secret.bin" && chmod 000 "$dir/secret.bin"
  refuse "unreadable input" "cannot open" --key u32 "$dir/secret.bin" "$dir/out.bin"
  mkdir "$dir/ro" && chmod 555 "$dir/ro"
  refuse "unwritable output folder" "cannot create a temporary file" --key u32 "$dir/keys.bin" "$dir/ro/out.bin"
else
  echo "skip unreadable input and unwritable folder: running as root, which may read and write anything"
fi
head -c 30000 "$dir/v64.bin" > "$dir/v3.bin"
refuse "values of a bad width" "values must be 1, 2, 4, 8 or 16 bytes" --key u16 --values "$dir/v3.bin" --values-out "$dir/outv.bin" "$dir/k16.bin" "$dir/out.bin"
refuse "--values without --values-out" "go together" --key u16 --values "$dir/v64.bin" "$dir/k16.bin" "$dir/out.bin"
refuse "output folder missing" "cannot create a temporary file" --key u32 "$dir/keys.bin" "$dir/none/out.bin"
# a full disk: a file-size limit of 100 KB against 400 KB of output
err=$( (ulimit -f 100; "$bin" sort --key u32 "$dir/keys.bin" "$dir/out.bin") 2>&1 >/dev/null)
rc=$?
left=$(find "$dir" -name 'out*' -o -name '.out*' | head -1)
if [ "$rc" -eq 2 ] && grep -q "cannot write" <<< "$err" && [ -z "$left" ]; then
  pass "full disk (ulimit -f)"
else
  fail "full disk (ulimit -f) (exit $rc, message: $err, left: $left)"
fi

echo "cli_files_test: $fails failed"
[ "$fails" -eq 0 ]
