#!/usr/bin/python3
"""Hashing's figures (issue 34, item 2), side by side in one run.

- Throughput of every SHA-256 and CRC-32 path of Sources/CGalleryChecksum (plain C, the SHA
  extensions, libcrypto, and the path a hash takes by default; zlib, PCLMULQDQ, VPCLMULQDQ),
  built from those very files into `hash-speed` (Benchmarks/hash-speed/hash-speed.c), beside
  `openssl speed -evp sha256` and zlib's `crc32` on 16 KiB buffers.
- `validate` of the 10,000-photo gallery (`.build-bench/work/g10k.imagegallery`, made by
  `make bench`) beside `openssl dgst -sha256` of the same file (one core) and `7z t`, and
  beside the previous build (`--baseline BIN`).

Each is measured twice: as this processor is, and as one without the SHA extensions. The
second sets `OPENSSL_ia32cap=:~0x20000000` (OpenSSL's documented mask: CPUID leaf 7 EBX bit
29, SHA) for OpenSSL and for our libcrypto path alike, runs ours with
`IMAGEGALLERY_SHA256=without-sha-extensions` (the default path as it runs on such a
processor), and beside it ours with plain C forced (`IMAGEGALLERY_SHA256=portable`: the
path the previous build took there, whose code is unchanged; the previous build itself has no
way to be forced, so it is timed as this processor is only). Throughput is per second of processor time, as `openssl speed`
divides by default, so that other work on the machine does not move it. Runs are
interleaved (one of each command per round); the figures are medians.

usage: Benchmarks/hashing.py [--bin .build/release] [--baseline BIN] [--runs N] [--validate-only] [--markdown FILE]
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
G10K = os.path.join(REPO, ".build-bench", "work", "g10k.imagegallery")
SPEED = os.path.join(REPO, ".build-bench", "hash-speed")
WITHOUT_SHA = {"OPENSSL_ia32cap": ":~0x20000000", "IMAGEGALLERY_SHA256": "without-sha-extensions"}


def run(arguments, env=None):
    done = subprocess.run(arguments, capture_output=True, text=True, env=dict(os.environ, **(env or {})))
    if done.returncode != 0:
        sys.exit(f"hashing.py: {' '.join(arguments)} failed ({done.returncode}): {done.stderr[-400:]}")
    return done


def build_speed():
    """hash-speed from the checksum and on-demand sources as the package compiles them (-O2):
    all of COnDemand, whose loader registers the HEVC decoder it also holds."""
    sources = [os.path.join(REPO, "Sources", "CGalleryChecksum", name) for name in ("sha256.c", "crc32_pclmul.c", "sha1.c")]
    sources += [os.path.join(REPO, "Sources", "COnDemand", name) for name in ("on_demand.c", "hevc_decoder.c")]
    os.makedirs(os.path.dirname(SPEED), exist_ok=True)
    run(["cc", "-O2", "-I", os.path.join(REPO, "Sources/CGalleryChecksum/include"), "-I", os.path.join(REPO, "Sources/COnDemand/include"),
         os.path.join(REPO, "Benchmarks/hash-speed/hash-speed.c"), *sources,
         "-lz", "-ldl", "-lpthread", "-o", SPEED])


def speeds(env, seconds):
    """{path: MB/s} from hash-speed, and OpenSSL's SHA-256 as `openssl-evp`."""
    found = {}
    for line in run([SPEED, str(seconds)], env).stdout.splitlines():
        name, value = line.split()[0], line.split()[1]
        if value != "unavailable:":
            found[name] = float(value)
    out = run(["openssl", "speed", "-seconds", str(int(seconds)), "-bytes", "16384", "-evp", "sha256"], env).stdout
    row = next(l for l in out.splitlines() if l.startswith("sha256"))
    found["openssl-evp"] = float(re.findall(r"([\d.]+)k", row)[-1]) * 1000 / 1e6
    return found


def timed(arguments, env=None):
    start = time.perf_counter()
    run(arguments, env)
    return time.perf_counter() - start


def measure(binary, baseline, runs, validate_only=False):
    throughput = {"as is": {}, "without SHA": {}}
    times = {}
    for _ in range(runs):
        for label, env in (("as is", None), ("without SHA", WITHOUT_SHA)):
            for name, value in ({} if validate_only else speeds(env, 1)).items():
                throughput[label].setdefault(name, []).append(value)
            commands = {"validate": ([binary, "validate", G10K], env),
                        "openssl-dgst": (["openssl", "dgst", "-sha256", G10K], env),
                        "7z-t": (["7z", "t", G10K], None)}
            if env:
                commands["baseline-validate"] = ([binary, "validate", G10K], {"IMAGEGALLERY_SHA256": "portable"})
            elif baseline:
                commands["baseline-validate"] = ([baseline, "validate", G10K], None)
            for key, (arguments, command_env) in commands.items():
                times.setdefault((label, key), []).append(timed(arguments, command_env))
    return ({label: {k: statistics.median(v) for k, v in found.items()} for label, found in throughput.items()},
            {key: statistics.median(values) for key, values in times.items()})


def flags():
    with open("/proc/cpuinfo") as info:
        line = next((l for l in info if l.startswith("flags")), "")
    return " ".join(f for f in ["sha_ni", "avx2", "avx512f", "vpclmulqdq"] if f in line.split())


def throughput_table(throughput):
    lines = ["| path | as this processor is | without the SHA extensions |", "|---|---:|---:|"]
    names = [("sha256-portable", "SHA-256, plain C"), ("sha256-sha-extensions", "SHA-256, the SHA extensions"),
             ("sha256-libcrypto", "SHA-256, libcrypto"), ("sha256-best", "SHA-256, by default, here"),
             ("sha256-best-without-sha-extensions", "SHA-256, by default, without the SHA extensions"),
             ("openssl-evp", "anchor: `openssl speed -evp sha256`"), ("crc32-zlib", "CRC-32, zlib"),
             ("crc32-pclmul", "CRC-32, PCLMULQDQ"), ("crc32-vpclmul", "CRC-32, VPCLMULQDQ"),
             ("crc32-best", "**CRC-32, by default**"), ("crc32-zlib-direct", "anchor: zlib's `crc32()` called directly")]
    for key, label in names:
        cells = [f"{throughput[side][key]:,.0f} MB/s" if key in throughput[side] else "—" for side in ("as is", "without SHA")]
        lines.append(f"| {label} | {cells[0]} | {cells[1]} |")
    for side, name, best in (("as is", "as is", "sha256-best"),
                             ("without SHA", "without the SHA extensions", "sha256-best-without-sha-extensions")):
        t = throughput[side]
        lines.append("")
        lines.append(f"{name}: SHA-256 by default / OpenSSL = **{t[best] / t['openssl-evp']:.2f} ×** its speed "
                     f"(target ≥ 1.0); CRC-32 by default / zlib = **{t['crc32-best'] / t['crc32-zlib-direct']:.1f} ×** (target ≥ 1.0).")
    return lines


def report(throughput, times, runs):
    size = os.path.getsize(G10K)
    lines = [f"{runs} interleaved rounds, medians; CPU flags: {flags()}; {os.cpu_count()} cores."]
    if throughput["as is"]:
        lines += ["", "Throughput on 16 KiB buffers in cache (hash-speed, 1 s per path per round):", ""]
        lines += throughput_table(throughput)
    lines += ["", f"`validate` of the 10,000-photo gallery ({size / 1e9:.2f} GB):", "",
              "| processor | `validate` | `openssl dgst -sha256` (1 core) | ratio (target ≤ 0.6) | `7z t` | ratio | before (see above) | ratio |",
              "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for label in ("as is", "without SHA"):
        ours, dgst, seven = times[(label, "validate")], times[(label, "openssl-dgst")], times[(label, "7z-t")]
        before = times.get((label, "baseline-validate"))
        lines.append(f"| {label} | {ours:.2f} s | {dgst:.2f} s | **{ours / dgst:.2f} ×** | {seven:.2f} s | {ours / seven:.2f} × | "
                     + (f"{before:.2f} s | {ours / before:.2f} × |" if before else "— | — |"))
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", default=os.path.join(REPO, ".build", "release"))
    parser.add_argument("--baseline", help="the previous build's imagegallery")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--markdown", help="write the RESULTS.md section here")
    parser.add_argument("--validate-only", action="store_true",
                        help="time the commands alone, without the throughput of each path (many rounds in minutes)")
    arguments = parser.parse_args()
    if not os.path.exists(G10K):
        sys.exit(f"hashing.py: {G10K} is missing: `make bench` makes it")
    if not arguments.validate_only:
        build_speed()
    throughput, times = measure(os.path.join(arguments.bin, "imagegallery"), arguments.baseline, arguments.runs,
                                arguments.validate_only)
    text = report(throughput, times, arguments.runs)
    print(text)
    if arguments.markdown:
        with open(arguments.markdown, "w") as out:
            out.write(text)


if __name__ == "__main__":
    main()
