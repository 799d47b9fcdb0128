#!/usr/bin/env bash
# `gpusort sort`, `argsort` and `topk` on real files, end to end (CI runs it after
# building the CLI; without a GPU the CPU backend sorts). Good input: raw and
# .npy files sort, and the output checks as sorted; argsort and --values
# give the stable permutation. The external sort (--max-memory below what
# the input needs) must give the in-memory path's outputs bit for bit: every
# key type, both orders, float zeros, NaNs and infinities, values of 1 to
# 16 bytes, argsort, .npy, and more runs than one merge takes. Bad input:
# each case must exit 2 with a message naming the fault, and leave no
# output file and no temporary file behind:
#   a truncated raw file, a malformed .npy header, an unsupported dtype, a
#   Fortran-ordered array, --by on a missing or non-key field, on a plain
#   array or on truncated records, a record array without --by, a wrong
#   --key, an unreadable input, an unwritable output folder, a bad
#   --max-memory, and a full disk (a file-size limit), in memory and on the
#   external path's runs and output.
# Off a terminal the commands end with one summary line on stderr; --quiet
# drops it, and everything else but errors.
# Outputs that are not regular files are written through, never replaced:
# character devices (a null and a full one made here with mknod, never the
# system's), FIFOs, a socket, standard output ('-') and symbolic links, for
# sort, argsort, topk, gen and --values-out; a write error (a full device,
# a broken pipe) exits 2. Inputs may be streams: '-', /dev/stdin and FIFOs,
# raw and .npy, a raw one larger than --max-memory taking the external
# sort. An output that is an input under another name, or a directory, is
# refused; the identical path sorts in place.
# Usage: tests/cli_files_test.sh [path/to/gpusort]
set -uo pipefail
bin=${1:-build/gpusort}
dir=$(mktemp -d)
trap 'chmod -R u+w "$dir"; rm -rf "$dir"' EXIT
fails=0
pass() { echo "ok   $1"; }
fail() { echo "FAIL $1"; fails=$((fails + 1)); }

# leftovers: the first output or temporary file left in the folder, if any
leftovers() { find "$dir" -name 'out*' -o -name '.out*' -o -name '.gpusort-run*' | head -1; }

# refuse NAME PATTERN ARGS...: exit 2, the message matches, no output left
refuse() {
  local name=$1 pattern=$2
  shift 2
  local err rc
  err=$("$bin" sort "$@" 2>&1 >/dev/null)
  rc=$?
  local left
  left=$(leftovers)
  if [ "$rc" -eq 2 ] && grep -q -- "$pattern" <<< "$err" && [ -z "$left" ]; then
    pass "$name"
  else
    fail "$name (exit $rc, message: $err, left: $left)"
  fi
  rm -f "$dir"/out* "$dir"/.out*
}

# npy FILE DICT BYTES [DATA]: a version 1.0 .npy file with header dict DICT
# and BYTES bytes of data (from the file DATA, or random)
npy() {
  local file=$1 dict=$2 bytes=$3 data=${4:-/dev/urandom}
  local len=$(( ${#dict} + 1 ))
  local pad=$(( (64 - (10 + len) % 64) % 64 ))
  local total=$(( len + pad ))
  {
    printf '\x93NUMPY\x01\x00'
    printf "\\x$(printf %02x $((total & 255)))\\x$(printf %02x $((total >> 8)))"
    printf '%s%*s\n' "$dict" "$pad" ''
    head -c "$bytes" "$data"
  } > "$file"
}

# --by: a record .npy sorted by a field (k: u32, then p: u32 payload, 8-byte
# records): k ascends, and the records are the input's, whole
npy "$dir/rec.npy" "{'descr': [('k', '<u4'), ('p', '<u4')], 'fortran_order': False, 'shape': (20000,), }" 160000
hdr=$(( $(stat -c %s "$dir/rec.npy") - 160000 ))
if "$bin" sort --quiet --by k "$dir/rec.npy" "$dir/rec_sorted.npy" > /dev/null &&
   tail -c 160000 "$dir/rec_sorted.npy" | od -An -tu4 -w8 -v | awk '{print $1}' | sort -n -c &&
   cmp <(tail -c 160000 "$dir/rec.npy" | od -An -tx1 -w8 -v | sort) \
       <(tail -c 160000 "$dir/rec_sorted.npy" | od -An -tx1 -w8 -v | sort) &&
   cmp <(head -c "$hdr" "$dir/rec.npy") <(head -c "$hdr" "$dir/rec_sorted.npy"); then
  pass "--by sorts a record .npy by a field"
else
  fail "--by sorts a record .npy by a field"
fi
rm -f "$dir/rec_sorted.npy"

# good input
"$bin" gen --key u32 --n 100003 --dist uniform "$dir/keys.bin" > /dev/null
if "$bin" sort --quiet --key u32 "$dir/keys.bin" "$dir/sorted.bin" > /dev/null &&
   "$bin" verify --key u32 "$dir/sorted.bin" > /dev/null; then pass "raw u32 sorts"; else fail "raw u32 sorts"; fi
npy "$dir/keys.npy" "{'descr': '<i8', 'fortran_order': False, 'shape': (5000,), }" 40000
if "$bin" sort --quiet "$dir/keys.npy" "$dir/sorted.npy" > /dev/null &&
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
if "$bin" argsort --quiet --key u16 "$dir/k16.bin" "$dir/perm.bin" > /dev/null &&
   "$bin" sort --quiet --key u16 --values "$dir/v64.bin" --values-out "$dir/sv.bin" "$dir/k16.bin" "$dir/sk.bin" > /dev/null &&
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

# the external sort against the in-memory path
# agrees NAME BUDGET COMMAND ARGS...: `gpusort COMMAND ARGS` in memory and with
# --max-memory BUDGET (which must sort externally, leaving no run file) give the
# same bytes in every output; @ in ARGS stands for the outputs' prefix
agrees() {
  local name=$1 budget=$2 cmd=$3
  shift 3
  local mem=() ext=() a f err bad=""
  for a in "$@"; do
    mem+=("${a//@/$dir/mem}")
    ext+=("${a//@/$dir/ext}")
  done
  "$bin" "$cmd" "${mem[@]}" > /dev/null 2>&1 || bad="in-memory sort failed"
  err=$("$bin" "$cmd" --max-memory "$budget" "${ext[@]}" 2>&1 >/dev/null) || bad="${bad:-external sort failed: $err}"
  grep -q "external (" <<< "$err" || bad="${bad:-not external: $err}"
  for f in "$dir"/mem.*; do
    [ -e "$f" ] || { bad="${bad:-no output}"; continue; }
    cmp -s "$f" "${f/mem./ext.}" || bad="${bad:-${f##*/} differs}"
  done
  [ -n "$(leftovers)" ] && bad="${bad:-left $(leftovers)}"
  if [ -z "$bad" ]; then pass "$name"; else fail "$name ($bad)"; fi
  rm -f "$dir"/mem.* "$dir"/ext.*
}
"$bin" gen --key u32 --n 1000003 --dist uniform "$dir/big.bin" > /dev/null
agrees "external u32 (8 runs)" 1M sort --key u32 "$dir/big.bin" @.bin
agrees "external u32, descending" 1M sort --key u32 --descending "$dir/big.bin" @.bin
agrees "external u32, 62 runs in 6 merge passes" 128K sort --key u32 "$dir/big.bin" @.bin
if "$bin" sort --key u32 --max-memory 1M "$dir/big.bin" "$dir/sorted_big.bin" > /dev/null 2>&1 &&
   "$bin" verify --key u32 "$dir/sorted_big.bin" > /dev/null; then
  pass "external u32 verifies"
else
  fail "external u32 verifies"
fi
for k in u8 u16 u32 u64 i8 i16 i32 i64 f16 bf16 f32 f64; do
  "$bin" gen --key $k --n 200003 --dist few_unique "$dir/k_$k.bin" > /dev/null
  agrees "external $k" 256K sort --key $k "$dir/k_$k.bin" @.bin
  agrees "external $k, descending" 256K sort --key $k --descending "$dir/k_$k.bin" @.bin
done
# f32: both zeros, NaNs of either sign and several payloads, infinities, many
# of each (their order among equals shows), among ordinary floats
python3 - "$dir/special.bin" <<'PY'
import random, struct, sys
random.seed(7)
special = [0x00000000, 0x80000000, 0x7fc00000, 0x7f800001, 0x7fffffff, 0xffc00000, 0xff800001,
           0x7f800000, 0xff800000, 0x00000001, 0x80000001]
n = 400000
words = [random.choice(special) if random.random() < 0.5 else
         struct.unpack('<I', struct.pack('<f', random.uniform(-1e3, 1e3)))[0] for _ in range(n)]
open(sys.argv[1], 'wb').write(struct.pack('<%dI' % n, *words))
PY
agrees "external f32: -0.0, +0.0, NaN, inf" 1M sort --key f32 "$dir/special.bin" @.bin
agrees "external f32 specials, descending" 1M sort --key f32 --descending "$dir/special.bin" @.bin
python3 -c "import struct,sys; n=400000; open(sys.argv[1],'wb').write(struct.pack('<%dI'%n,*range(n)))" "$dir/v32.bin"
agrees "external f32 specials + u32 values (stable)" 1M sort --key f32 --values "$dir/v32.bin" --values-out @.v "$dir/special.bin" @.bin
# i64 keys with few distinct values: ties across runs, values of 1 to 16 bytes
for w in 1 2 4 8 16; do
  head -c $((200003 * w)) /dev/urandom > "$dir/v$w.bin"
  agrees "external i64 + $w-byte values" 1M sort --key i64 --values "$dir/v$w.bin" --values-out @.v "$dir/k_i64.bin" @.bin
done
agrees "external i64 + 8-byte values, descending" 1M sort --key i64 --descending --values "$dir/v8.bin" --values-out @.v "$dir/k_i64.bin" @.bin
agrees "external argsort u16" 256K argsort --key u16 "$dir/k_u16.bin" @.bin
agrees "external argsort f32 specials, u64 indices" 1M argsort --key f32 --index u64 "$dir/special.bin" @.bin
agrees "external argsort, descending" 1M argsort --key i64 --descending "$dir/k_i64.bin" @.bin
npy "$dir/special.npy" "{'descr': '<f4', 'fortran_order': False, 'shape': (400000,), }" 1600000 "$dir/special.bin"
npy "$dir/v8.npy" "{'descr': '<u8', 'fortran_order': False, 'shape': (200003,), }" 1600024 "$dir/v8.bin"
npy "$dir/k_i64.npy" "{'descr': '<i8', 'fortran_order': False, 'shape': (200003,), }" 1600024 "$dir/k_i64.bin"
agrees "external .npy f32 in and out" 1M sort "$dir/special.npy" @.npy
agrees "external .npy keys and values" 1M sort --values "$dir/v8.npy" --values-out @.v.npy "$dir/k_i64.npy" @.npy
agrees "external .npy argsort" 1M argsort "$dir/special.npy" @.npy
"$bin" gen --key u32 --n 1048576 --dist uniform "$dir/big4m.bin" > /dev/null
npy "$dir/big4m.npy" "{'descr': '<u4', 'fortran_order': False, 'shape': (1048576,), }" 4194304 "$dir/big4m.bin"

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
npy "$dir/recs.npy" "{'descr': [('k', '<u4'), ('s', '|S4')], 'fortran_order': False, 'shape': (100,), }" 800
refuse "--by: no such field" "has no field 'x'" --by k,x "$dir/recs.npy" "$dir/out.npy"
refuse "--by: not a key field" "not a key type" --by s "$dir/recs.npy" "$dir/out.npy"
refuse "--by: a plain array" "not a record .npy" --by k "$dir/keys.npy" "$dir/out.npy"
refuse "a record array without --by" "with --by" "$dir/recs.npy" "$dir/out.npy"
npy "$dir/recs_short.npy" "{'descr': [('k', '<u4'), ('s', '|S4')], 'fortran_order': False, 'shape': (100,), }" 799
refuse "--by: truncated records" "truncated or corrupt" --by k "$dir/recs_short.npy" "$dir/out.npy"
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
refuse "bad --max-memory" "bad --max-memory" --max-memory 12Q --key u32 "$dir/keys.bin" "$dir/out.bin"
refuse "--max-memory below 64K" "below the least budget" --max-memory 1K --key u32 "$dir/keys.bin" "$dir/out.bin"

# full LIMIT_KB PATTERN NAME ARGS... IN OUT: `sort ARGS IN OUT` under a
# file-size limit (a full disk) exits 2 with the message, leaving no output
# or temporary file, and IN as it was
full() {
  local limit=$1 pattern=$2 name=$3
  shift 3
  local in=${*: -2:1} err rc left before
  before=$(cksum < "$in")
  err=$( (ulimit -f "$limit"; "$bin" sort "$@") 2>&1 >/dev/null)
  rc=$?
  left=$(leftovers)
  [ "$(cksum < "$in")" = "$before" ] || left="${left:-$in changed}"
  if [ "$rc" -eq 2 ] && grep -q "$pattern" <<< "$err" && [ -z "$left" ]; then
    pass "$name"
  else
    fail "$name (exit $rc, message: $err, left: $left)"
  fi
  rm -f "$dir"/out* "$dir"/.out*
}
# 100 KB against 400 KB of output
full 100 "cannot write '$dir/out.bin'" "full disk (ulimit -f)" --key u32 "$dir/keys.bin" "$dir/out.bin"
# the external path: its first run is 512 KB
full 100 "cannot write a temporary run file" "full disk on the external sort's runs" \
  --max-memory 1M --key u32 "$dir/big.bin" "$dir/out.bin"
# the runs fit in 4 MiB, the .npy output (a header, then 4 MiB) does not
full 4096 "cannot write '$dir/out.npy'" "full disk on the external sort's output" \
  --max-memory 1M "$dir/big4m.npy" "$dir/out.npy"

# the summary line: one off a terminal, none with --quiet
err=$("$bin" sort --key u32 --max-memory 1M "$dir/big.bin" "$dir/out.bin" 2>&1 >/dev/null)
if [ "$(wc -l <<< "$err")" -eq 1 ] &&
   grep -q "^gpusort sort: 1000003 u32 keys, 3.8 MiB in .* s (.*/s), backend .*, external (8 runs, 1 merge pass)$" <<< "$err"; then
  pass "summary line off a terminal"
else
  fail "summary line off a terminal (got: $err)"
fi
err=$("$bin" argsort --key u32 "$dir/keys.bin" "$dir/out.bin" 2>&1 >/dev/null)
if [ "$(wc -l <<< "$err")" -eq 1 ] && grep -q "^gpusort argsort: 100003 u32 keys to u32 indices, .* in memory$" <<< "$err"; then
  pass "summary line, in memory"
else
  fail "summary line, in memory (got: $err)"
fi
err=$("$bin" sort --quiet --key u32 --max-memory 1M "$dir/big.bin" "$dir/out.bin" 2>&1 >/dev/null)
if [ -z "$err" ]; then pass "--quiet: no summary"; else fail "--quiet: no summary (got: $err)"; fi
rm -f "$dir"/out*

# topk: the k largest are the descending sort's first k, bit for bit; k > n
# is refused with no output left
"$bin" sort --quiet --descending --key u32 "$dir/keys.bin" "$dir/desc.bin" > /dev/null 2>&1
if "$bin" topk --quiet --k 100 --key u32 --indices "$dir/outidx.bin" "$dir/keys.bin" "$dir/outtop.bin" > /dev/null 2>&1 &&
   head -c 400 "$dir/desc.bin" | cmp -s - "$dir/outtop.bin" && [ "$(stat -c %s "$dir/outidx.bin")" -eq 800 ]; then
  pass "topk: the descending sort's first k, with u64 indices"
else
  fail "topk: the descending sort's first k"
fi
rm -f "$dir"/out*
err=$("$bin" topk --k 100004 --key u32 "$dir/keys.bin" "$dir/out.bin" 2>&1 >/dev/null)
rc=$?
if [ "$rc" -eq 2 ] && grep -q "more than the 100003 keys" <<< "$err" && [ -z "$(leftovers)" ]; then
  pass "topk: k > n refused"
else
  fail "topk: k > n refused (exit $rc, message: $err)"
fi
rm -f "$dir"/out*

# outputs that are not regular files, inputs that are streams
# exits2 NAME PATTERN CMD ARGS...: `gpusort CMD ARGS` exits 2, within a
# minute, with a message matching PATTERN
exits2() {
  local name=$1 pattern=$2 err rc
  shift 2
  err=$(timeout 60 "$bin" "$@" 2>&1 > /dev/null)
  rc=$?
  if [ "$rc" -eq 2 ] && grep -q -- "$pattern" <<< "$err"; then pass "$name"; else fail "$name (exit $rc, message: $err)"; fi
}
# via NAME KIND CMD ARGS...: `gpusort CMD ARGS`, @ in ARGS standing for the
# output under test, exits 0 with @ of KIND, gives the bytes it gives with @
# a regular file, and leaves @ what it was:
#   fifo    a FIFO that cat reads
#   -       standard output
#   link    a symbolic link to a file: the target gets the bytes
#   socket  a Unix socket that a Python server reads
#   null    the null device made by mknod_devices (no bytes to compare)
via() {
  local name=$1 kind=$2
  shift 2
  local want="$dir/via_want" got="$dir/via_got" at="$dir/via_at" a rc bad="" reader=""
  local reg=() cmd=()
  rm -f "$want" "$got" "$at"
  case $kind in
    fifo) mkfifo "$at" ;;
    -) at=- ;;
    link) ln -s via_got "$at" ;;
    null) at="$devs/null" ;;
  esac
  for a in "$@"; do
    reg+=("${a//@/$want}")
    cmd+=("${a//@/$at}")
  done
  "$bin" "${reg[@]}" > /dev/null 2>&1 || bad="with a regular file: exit $?"
  case $kind in
    fifo) timeout 60 cat "$at" > "$got" & reader=$! ;;
    socket)
      timeout 60 python3 -c 'import socket, sys
s = socket.socket(socket.AF_UNIX)
s.bind(sys.argv[1])
s.listen(1)
c, _ = s.accept()
with open(sys.argv[2], "wb") as f:
    while b := c.recv(1 << 16):
        f.write(b)' "$at" "$got" &
      reader=$!
      for _ in $(seq 100); do [ -S "$at" ] && break; sleep 0.1; done ;;
  esac
  if [ "$kind" = - ]; then
    timeout 60 "$bin" "${cmd[@]}" > "$got" 2> /dev/null
  else
    timeout 60 "$bin" "${cmd[@]}" > /dev/null 2>&1
  fi
  rc=$?
  [ -n "$reader" ] && wait "$reader"
  [ "$rc" -eq 0 ] || bad=${bad:-exit $rc}
  case $kind in
    fifo) [ -p "$at" ] || bad=${bad:-the FIFO was replaced} ;;
    link) [ -L "$at" ] || bad=${bad:-the link was replaced} ;;
    socket) [ -S "$at" ] || bad=${bad:-the socket was replaced} ;;
    null) [ -c "$at" ] || bad=${bad:-the device was replaced} ;;
  esac
  [ "$kind" = null ] || cmp -s "$want" "$got" || bad=${bad:-the bytes differ}
  [ -z "$(find "$dir" -name '*.tmp-*')" ] || bad=${bad:-left $(find "$dir" -name '*.tmp-*')}
  if [ -z "$bad" ]; then pass "$name"; else fail "$name ($bad)"; fi
  rm -f "$want" "$got" "$dir"/via_other*
  [ "$kind" = null ] || [ "$kind" = - ] || rm -f "$at"
}
for kind in fifo - link socket; do
  via "sort, OUT $kind" $kind sort --key u32 "$dir/keys.bin" @
  via "sort .npy, OUT $kind" $kind sort "$dir/keys.npy" @
done
via "external sort, OUT -" - sort --key u32 --max-memory 1M "$dir/big.bin" @
via "external sort .npy, OUT fifo" fifo sort --max-memory 1M "$dir/big4m.npy" @
for kind in fifo - link; do
  via "argsort, OUT $kind" $kind argsort --key u16 "$dir/k16.bin" @
  via "topk, OUT $kind" $kind topk --k 100 --key u32 "$dir/keys.bin" @
  via "topk --indices $kind" $kind topk --k 100 --key u32 --indices @ "$dir/keys.bin" "$dir/via_other"
  via "gen, OUT $kind" $kind gen --key u64 --n 10007 --dist sorted @
  via "--values-out $kind" $kind sort --key u16 --values "$dir/v64.bin" --values-out @ "$dir/k16.bin" "$dir/via_other"
done

# a link that dangles: its target is created, the link stays
ln -s dangling_target.bin "$dir/dangling.bin"
if "$bin" sort --quiet --key u32 "$dir/keys.bin" "$dir/dangling.bin" &&
   [ -L "$dir/dangling.bin" ] && cmp -s "$dir/sorted.bin" "$dir/dangling_target.bin"; then
  pass "OUT a dangling link: its target written"
else
  fail "OUT a dangling link: its target written"
fi
rm -f "$dir/dangling.bin" "$dir/dangling_target.bin"

# a null and a full character device, made here so that a regression can
# never replace the system's /dev/null
devs="$dir/devs"
mkdir "$devs"
if mknod "$devs/null" c 1 3 2> /dev/null && mknod "$devs/full" c 1 7 2> /dev/null &&
   echo probe > "$devs/null" 2> /dev/null; then
  via "sort, OUT a null device" null sort --key u32 "$dir/keys.bin" @
  via "external sort, OUT a null device" null sort --key u32 --max-memory 1M "$dir/big.bin" @
  via "argsort, OUT a null device" null argsort --key u16 "$dir/k16.bin" @
  via "topk, OUT a null device" null topk --k 100 --key u32 "$dir/keys.bin" @
  via "gen, OUT a null device" null gen --key u32 --n 1000 @
  via "--values-out a null device" null sort --key u16 --values "$dir/v64.bin" --values-out @ "$dir/k16.bin" "$dir/via_other"
  # (@: the full device): exit 2 with the ENOSPC message
  full='No space left on device'
  exits2 "sort, OUT a full device: exit 2" "cannot write '$devs/full': $full" sort --key u32 "$dir/keys.bin" "$devs/full"
  exits2 "external sort, OUT a full device: exit 2" "cannot write '$devs/full': $full" \
    sort --key u32 --max-memory 1M "$dir/big.bin" "$devs/full"
  exits2 "argsort, OUT a full device: exit 2" "cannot write '$devs/full': $full" argsort --key u16 "$dir/k16.bin" "$devs/full"
  exits2 "topk, OUT a full device: exit 2" "cannot write '$devs/full': $full" \
    topk --k 100 --key u32 "$dir/keys.bin" "$devs/full"
  exits2 "gen, OUT a full device: exit 2" "cannot write '$devs/full': $full" gen --key u32 --n 1000 "$devs/full"
  exits2 "--values-out a full device: exit 2" "cannot write '$devs/full': $full" \
    sort --key u16 --values "$dir/v64.bin" --values-out "$devs/full" "$dir/k16.bin" "$dir/via_other"
  rm -f "$dir"/via_other*
  if [ -c "$devs/null" ] && [ -c "$devs/full" ]; then
    pass "the null and full devices are still character devices"
  else
    fail "the null and full devices are still character devices ($(ls -l "$devs"))"
  fi
else
  echo "skip character devices: mknod (or writing the node it makes) is not permitted here"
fi

# informational lines go to stderr when OUT is standard output
err=$("$bin" sort --key u32 "$dir/keys.bin" - 2>&1 > "$dir/via_got")
if cmp -s "$dir/sorted.bin" "$dir/via_got" && grep -q "^backend: " <<< "$err" && grep -q "^wrote -$" <<< "$err" &&
   grep -q "^gpusort sort: 100003 u32 keys" <<< "$err"; then
  pass "OUT -: the lines on stderr"
else
  fail "OUT -: the lines on stderr (got: $err)"
fi
rm -f "$dir/via_got"
# /dev/stdout in a pipe, through a link of our own as /dev/stdout is one:
# a regression can only replace that link
ln -s /proc/self/fd/1 "$dir/stdout_link"
"$bin" sort --key u32 "$dir/keys.bin" "$dir/stdout_link" 2> /dev/null | cat > "$dir/via_got"
if cmp -s "$dir/sorted.bin" "$dir/via_got" && [ -L "$dir/stdout_link" ]; then
  pass "OUT /dev/stdout in a pipe"
else
  fail "OUT /dev/stdout in a pipe"
fi
rm -f "$dir/via_got" "$dir/stdout_link"

# from_stream NAME WANT FEED CMD ARGS...: `FEED | gpusort CMD ARGS` writes
# the bytes of the file WANT to standard output; with "external" as NAME's
# last word it must have sorted externally
from_stream() {
  local name=$1 want=$2 feed=$3 err rc bad=""
  shift 3
  bash -c "$feed" | timeout 60 "$bin" "$@" 2> "$dir/stream_err" > "$dir/stream_got"
  rc=${PIPESTATUS[1]}
  err=$(cat "$dir/stream_err")
  [ "$rc" -eq 0 ] || bad="exit $rc: $err"
  cmp -s "$want" "$dir/stream_got" || bad=${bad:-the bytes differ}
  [ "${name##* }" != external ] || grep -q "external (" <<< "$err" || bad=${bad:-not external: $err}
  if [ -z "$bad" ]; then pass "$name"; else fail "$name ($bad)"; fi
  rm -f "$dir/stream_got" "$dir/stream_err"
}
from_stream "raw keys from a pipe, - to -" "$dir/sorted.bin" "cat '$dir/keys.bin'" sort --key u32 - -
from_stream "raw keys from /dev/stdin" "$dir/sorted.bin" "cat '$dir/keys.bin'" sort --key u32 /dev/stdin -
from_stream ".npy keys from a pipe, - to -" "$dir/sorted.npy" "cat '$dir/keys.npy'" sort - -
from_stream "raw stream beyond --max-memory: external" "$dir/sorted_big.bin" "cat '$dir/big.bin'" \
  sort --key u32 --max-memory 1M - -
"$bin" sort --quiet --max-memory 1M "$dir/big4m.npy" "$dir/big4m_sorted.npy"
from_stream ".npy stream beyond --max-memory: external" "$dir/big4m_sorted.npy" "cat '$dir/big4m.npy'" \
  sort --max-memory 1M - -
"$bin" argsort --quiet --key u32 "$dir/big.bin" "$dir/big_perm.bin"
from_stream "argsort of a raw stream beyond --max-memory: external" "$dir/big_perm.bin" "cat '$dir/big.bin'" \
  argsort --key u32 --max-memory 1M - -
head -c 400 "$dir/desc.bin" > "$dir/top100.bin"
from_stream "topk of a raw stream" "$dir/top100.bin" "cat '$dir/keys.bin'" topk --k 100 --key u32 - -
"$bin" gen --quiet --key u32 --n 100003 - | "$bin" sort --quiet --key u32 - - | "$bin" verify --key u32 - > /dev/null
rcs=("${PIPESTATUS[@]}")
if [ "${rcs[*]}" = "0 0 0" ]; then pass "gen | sort | verify"; else fail "gen | sort | verify (exits ${rcs[*]})"; fi
mkfifo "$dir/in_fifo"
cat "$dir/keys.bin" > "$dir/in_fifo" &
if timeout 60 "$bin" sort --quiet --key u32 "$dir/in_fifo" "$dir/fifo_sorted.bin" && cmp -s "$dir/sorted.bin" "$dir/fifo_sorted.bin"; then
  pass "IN a FIFO"
else
  fail "IN a FIFO"
fi
wait
rm -f "$dir/in_fifo" "$dir/fifo_sorted.bin"

# bad streams: exit 2 with the message
exits2 "raw stream without --key" "standard input is a raw stream: --key is required" sort - - < <(cat "$dir/keys.bin")
exits2 "raw stream, a partial key" "standard input is 1001 bytes, not a multiple of the u32 key size" \
  sort --key u32 - - < <(head -c 1001 "$dir/keys.bin")
exits2 "raw stream beyond --max-memory, a partial key" "standard input is 4000013 bytes, not a multiple" \
  sort --key u32 --max-memory 1M - - < <(cat "$dir/big.bin"; printf x)
exits2 "truncated .npy stream" "standard input ended after 39996 of its 40000 bytes of data: truncated" \
  sort - - < <(head -c -4 "$dir/keys.npy")
exits2 "truncated .npy header in a stream" "truncated .npy header" sort - - < <(head -c 40 "$dir/keys.npy")
exits2 "--values with a raw key stream" "its length unknown: with --values" \
  sort --key u16 --values "$dir/v64.bin" --values-out "$dir/via_other" - "$dir/via_other2" < <(cat "$dir/k16.bin")
exits2 "raw values from a stream" "values from a stream must be .npy" \
  sort --key u16 --values - --values-out "$dir/via_other" "$dir/k16.bin" "$dir/via_other2" < <(cat "$dir/v64.bin")
[ -z "$(find "$dir" -name 'via_other*' -o -name '.via_other*')" ] || fail "bad streams left outputs behind"

# a reader that goes away: exit 2 with EPIPE's message, no hang
timeout 60 "$bin" sort --key u32 "$dir/big.bin" - 2> "$dir/pipe_err" | head -c 100 > /dev/null
rcs=("${PIPESTATUS[@]}")
if [ "${rcs[0]}" -eq 2 ] && grep -q "cannot write standard output: Broken pipe" "$dir/pipe_err"; then
  pass "broken pipe: exit 2"
else
  fail "broken pipe: exit 2 (exits ${rcs[*]}, message: $(cat "$dir/pipe_err"))"
fi
timeout 60 "$bin" sort --quiet --key u32 --max-memory 1M "$dir/big.bin" - 2> "$dir/pipe_err" | head -c 100 > /dev/null
rcs=("${PIPESTATUS[@]}")
if [ "${rcs[0]}" -eq 2 ] && grep -q "Broken pipe" "$dir/pipe_err"; then
  pass "broken pipe in the external merge: exit 2"
else
  fail "broken pipe in the external merge: exit 2 (exits ${rcs[*]}, message: $(cat "$dir/pipe_err"))"
fi
rm -f "$dir/pipe_err"

# --quiet: nothing on stdout or stderr, files or streams
# quiet NAME CMD ARGS...: with @ in ARGS a file, and then standard output
quiet() {
  local name=$1 a got file=() std=()
  shift
  for a in "$@"; do
    file+=("${a//@/$dir/quiet_out}")
    std+=("${a//@/-}")
  done
  got=$("$bin" "${file[@]}" 2>&1; "$bin" "${std[@]}" 2>&1 > /dev/null)
  if [ -z "$got" ]; then pass "--quiet: $name"; else fail "--quiet: $name (got: $got)"; fi
  rm -f "$dir/quiet_out"*
}
quiet "sort" sort --quiet --key u32 "$dir/keys.bin" @
quiet "external sort" sort --quiet --key u32 --max-memory 1M "$dir/big.bin" @
quiet "sort --values" sort --quiet --key u16 --values "$dir/v64.bin" --values-out "$dir/quiet_out_v" "$dir/k16.bin" @
quiet "argsort" argsort --quiet --key u16 "$dir/k16.bin" @
quiet "topk" topk --quiet --k 10 --key u32 "$dir/keys.bin" @
quiet "gen" gen --quiet --key u32 --n 1000 @

# the same file under another name, and directories: refused, IN untouched
ln "$dir/keys.bin" "$dir/hard.bin"
ln -s keys.bin "$dir/soft.bin"
before=$(cksum < "$dir/keys.bin")
refuse "OUT a hard link to IN" "is the input '$dir/keys.bin' under another name" --key u32 "$dir/keys.bin" "$dir/hard.bin"
refuse "OUT a symbolic link to IN" "is the input '$dir/keys.bin' under another name" --key u32 "$dir/keys.bin" "$dir/soft.bin"
refuse "IN a symbolic link to OUT" "is the input '$dir/soft.bin' under another name" --key u32 "$dir/soft.bin" "$dir/keys.bin"
exits2 "OUT the file standard input comes from" "is the input standard input under another name" \
  sort --key u32 - "$dir/keys.bin" < "$dir/keys.bin"
ln -s v64.bin "$dir/v64_link.bin"
refuse "--values-out a link to --values" "is the input '$dir/v64.bin' under another name" \
  --key u16 --values "$dir/v64.bin" --values-out "$dir/v64_link.bin" "$dir/k16.bin" "$dir/out.bin"
refuse "OUT and --values-out the same file" "are the same file" \
  --key u16 --values "$dir/v64.bin" --values-out "$dir/out.bin" "$dir/k16.bin" "$dir/out.bin"
[ "$(cksum < "$dir/keys.bin")" = "$before" ] || fail "the refusals changed IN"
refuse "OUT a directory" "output '$dir' is a directory" --key u32 "$dir/keys.bin" "$dir"
ln -s . "$dir/dir_link"
refuse "OUT a link to a directory" "output '$dir/dir_link' is a directory" --key u32 "$dir/keys.bin" "$dir/dir_link"
refuse "IN a directory" "'$dir' is a directory" --key u32 "$dir" "$dir/out.bin"
rm -f "$dir/hard.bin" "$dir/soft.bin" "$dir/v64_link.bin" "$dir/dir_link"
# the identical path is explicitly in place
cp "$dir/keys.bin" "$dir/inplace.bin"
if "$bin" sort --quiet --key u32 "$dir/inplace.bin" "$dir/inplace.bin" && cmp -s "$dir/sorted.bin" "$dir/inplace.bin"; then
  pass "IN and OUT the identical path: in place"
else
  fail "IN and OUT the identical path: in place"
fi
cp "$dir/keys.bin" "$dir/inplace.bin"
if "$bin" sort --quiet --key u32 --max-memory 1M "$dir/inplace.bin" "$dir/inplace.bin" &&
   cmp -s "$dir/sorted.bin" "$dir/inplace.bin"; then
  pass "in place, external"
else
  fail "in place, external"
fi
rm -f "$dir/inplace.bin"

echo "cli_files_test: $fails failed"
[ "$fails" -eq 0 ]
