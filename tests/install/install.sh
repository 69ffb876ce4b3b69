#!/usr/bin/env bash
# install.sh — the fixture of the install/ tests: installs the build into a
# fresh PREFIX (`cmake --install BUILD --prefix PREFIX`) and checks that it
# holds exactly the program, both libraries under their soname, the public
# headers (every one of include/croupier/, nothing else), croupier.pc for
# this prefix and both man pages.
# Usage: install.sh BUILD_DIR PREFIX SOURCE_DIR SOVERSION VERSION
set -euo pipefail
build="$1"
prefix="$2"
src="$3"
soversion="$4"
version="$5"
fail() { echo "FAIL: $*" >&2; exit 1; }

rm -rf "$prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null

# CMAKE_INSTALL_LIBDIR is lib/ unless the build was configured for /usr.
libdir="$(cd "$prefix" && dirname "$(find . -name croupier.pc)")"
libdir="${libdir%/pkgconfig}"
libdir="${libdir#./}"
{
    echo bin/croupier
    for h in "$src"/include/croupier/*.h; do echo "include/croupier/${h##*/}"; done
    echo "$libdir/libcroupier.a"
    echo "$libdir/libcroupier.so"
    echo "$libdir/libcroupier.so.$soversion"
    echo "$libdir/libcroupier.so.$version"
    echo "$libdir/pkgconfig/croupier.pc"
    echo share/man/man1/croupier.1
    echo share/man/man3/croupier.3
} | sort >"$prefix.expected"
(cd "$prefix" && find . ! -type d | sed 's|^\./||' | sort) >"$prefix.got"
diff -u "$prefix.expected" "$prefix.got" || fail "the installed files differ ('-' missing, '+' extra)"
rm -f "$prefix.expected" "$prefix.got"

[ "$(readlink "$prefix/$libdir/libcroupier.so")" = "libcroupier.so.$soversion" ] ||
    fail "libcroupier.so does not point at the soname"
grep -qx "prefix=$prefix" "$prefix/$libdir/pkgconfig/croupier.pc" ||
    fail "croupier.pc does not name the prefix $prefix"
"$prefix/bin/croupier" --version | grep -qx "croupier $version" ||
    fail "the installed program does not report version $version"
echo "ok: installed into $prefix"
