"""Builds croupier._croupier, the extension under the croupier package.

Where the C library comes from, first match wins:
  1. CROUPIER_BUILD_DIR=DIR: the static libcroupier.a of a CMake build
     directory of this repository (and the repository's include/,
     CROUPIER_SOURCE_DIR when this directory is a copy);
  2. ../build/libcroupier.a next to this directory (bash scripts/setup.sh
     or scripts/test.sh made it);
  3. pkg-config croupier: an installed croupier (cmake --install), linked
     with its shared library.
The static library is position-independent, so the extension carries the
engine and needs no library path at run time.
"""
import os
import shlex
import subprocess

from setuptools import Extension, setup

here = os.path.dirname(os.path.abspath(__file__))
# The repository (for include/ and build/): CROUPIER_SOURCE_DIR when this
# directory was copied elsewhere to be built (tests/python/pip.sh).
repo = os.environ.get("CROUPIER_SOURCE_DIR") or os.path.dirname(here)


def static_build(build_dir):
    lib = os.path.join(build_dir, "libcroupier.a")
    if not os.path.exists(lib):
        return None
    return dict(include_dirs=[os.path.join(repo, "include")], extra_objects=[lib],
                libraries=["jansson", "m"], extra_link_args=["-pthread"])


def from_pkg_config():
    try:
        flags = subprocess.check_output(["pkg-config", "--cflags", "--libs", "croupier"],
                                        text=True)
    except (OSError, subprocess.CalledProcessError):
        raise SystemExit("croupier's C library was not found: build it (cmake -S . -B build "
                         "&& cmake --build build) or set CROUPIER_BUILD_DIR, or install it "
                         "(pkg-config croupier)")
    inc, libdirs, libs, other = [], [], [], []
    for f in shlex.split(flags):
        if f.startswith("-I"):
            inc.append(f[2:])
        elif f.startswith("-L"):
            libdirs.append(f[2:])
        elif f.startswith("-l"):
            libs.append(f[2:])
        else:
            other.append(f)
    return dict(include_dirs=inc, library_dirs=libdirs, runtime_library_dirs=libdirs,
                libraries=libs, extra_link_args=other)


build_dir = os.environ.get("CROUPIER_BUILD_DIR")
cfg = static_build(build_dir) if build_dir else static_build(os.path.join(repo, "build"))
if build_dir and cfg is None:
    raise SystemExit("CROUPIER_BUILD_DIR=%s has no libcroupier.a" % build_dir)
if cfg is None:
    cfg = from_pkg_config()

setup(ext_modules=[Extension(
    "croupier._croupier", ["croupier/_croupier.c"],
    define_macros=[("_POSIX_C_SOURCE", "200809L")],
    extra_compile_args=["-std=c11"], **cfg)])
