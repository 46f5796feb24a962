#!/usr/bin/python3
"""Run `imagegallery validate` over a hostile corpus and compare with its expectations.

Usage: check-hostile-corpus.py OUTDIR [--binary PATH] [--timeout S] [--max-rss-mb N]
                               [--min-accuracy PCT] [--jobs N] [--only SUBSTRING] [--results FILE]

OUTDIR is what make-hostile-corpus.py wrote (files + expected.json). For every file:

    /usr/bin/time -f %M BINARY validate --format json [--deep] FILE

with a timeout (default 10 s). Checked: the exit code is 0 or 1 and agrees with the report
(never a signal, never 2 for an existing file), the report is one JSON document of the shape of
Specs/validation-report.md, the verdict, the category of the first fatal/error finding, the
wall time and the maximum RSS (default limit 100 MB). Writes OUTDIR/results.json (or --results,
which the committed Fixtures/hostile needs: tests never change it), prints a summary with every
mismatch, and exits 1 on any crash, hang or memory breach, or when verdict accuracy is below
--min-accuracy (default 95). check-hostile-commands.py runs the other commands.
"""

import argparse
import concurrent.futures
import json
import os
import signal
import subprocess
import sys
import tempfile
import time


def run_one(binary, path, deep, timeout):
    fd, tfile = tempfile.mkstemp(prefix="ig-rss-")
    os.close(fd)
    cmd = ["/usr/bin/time", "-f", "%M", "-o", tfile, binary, "validate", "--format", "json"]
    if deep:
        cmd.append("--deep")
    cmd.append(path)
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    hung = False
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        hung = True
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, err = p.communicate()
    elapsed = time.monotonic() - t0
    rss_kb = None
    signalled = None
    try:
        with open(tfile) as f:
            lines = [l.strip() for l in f if l.strip()]
        for l in lines:
            if l.startswith("Command terminated by signal"):
                signalled = int(l.rsplit(" ", 1)[1])
        if lines and lines[-1].isdigit():
            rss_kb = int(lines[-1])
    except (OSError, ValueError):
        pass
    finally:
        try:
            os.unlink(tfile)
        except OSError:
            pass
    return dict(rc=p.returncode, out=out, err=err, time=elapsed, rss_kb=rss_kb, hung=hung, signal=signalled)


def analyse(name, exp, r, max_rss_kb):
    res = {"file": name, "expected": exp, "rc": r["rc"], "time": round(r["time"], 3), "rssKB": r["rss_kb"],
           "problems": []}
    if r["hung"]:
        res["problems"].append("hang")
    if r["signal"] is not None or (r["rc"] is not None and r["rc"] < 0):
        res["problems"].append(f"crash (signal {r['signal'] if r['signal'] is not None else -r['rc']})")
    elif not r["hung"] and r["rc"] not in (0, 1):
        res["problems"].append(f"exit code {r['rc']}")
    if r["rss_kb"] is not None and r["rss_kb"] > max_rss_kb:
        res["problems"].append(f"memory {r['rss_kb'] / 1024:.1f} MB")
    err = r["err"].decode("utf-8", "replace")
    if any(s in err for s in ("Fatal error", "internal error", "Segmentation", "Illegal instruction", "Aborted")):
        res["problems"].append("crash message on stderr")
    res["stderr"] = err[-2000:]
    report = None
    if not r["hung"]:
        try:
            report = json.loads(r["out"])
        except ValueError:
            if "crash" not in " ".join(res["problems"]):
                res["problems"].append("report is not JSON")
    got = None
    if report is not None:
        try:
            f = report["files"][0]
            msgs = f.get("messages", [])
            if f.get("readFailure") is not None:
                res["problems"].append("readFailure: " + str(f["readFailure"]))
            first = next((m for m in msgs if m.get("severity") in ("fatal", "error")), None)
            got = {"valid": bool(f.get("valid")),
                   "firstId": first["id"] if first else None,
                   "category": first["id"].split("-")[1] if first else None,
                   "ids": [m["id"] + ":" + m["severity"][0] for m in msgs[:12]],
                   "messages": len(msgs),
                   "firstMessage": (first.get("message", "")[:200] if first else None)}
            if (r["rc"] == 0) != got["valid"] and r["rc"] in (0, 1):
                res["problems"].append(f"exit code {r['rc']} disagrees with valid={got['valid']}")
        except (KeyError, IndexError, TypeError, AttributeError) as e:
            res["problems"].append(f"report shape: {e!r}")
            got = None
    res["got"] = got
    unknown_verdict = bool(exp.get("verdictUnknown"))
    if got is None:
        res["verdictOK"] = None if unknown_verdict else False
        res["categoryOK"] = None
        res["idOK"] = None
        return res
    want_valid = exp["verdict"] == "valid"
    res["verdictOK"] = None if unknown_verdict else (got["valid"] == want_valid)
    res["categoryOK"] = None
    res["idOK"] = None
    if not unknown_verdict and not want_valid and not got["valid"]:
        cats = exp.get("categories") or ([exp["category"]] if exp.get("category") else [])
        if cats and not exp.get("categoryUnknown"):
            res["categoryOK"] = got["category"] in cats
        if exp.get("ids"):
            res["idOK"] = got["firstId"] in exp["ids"]
    return res


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir")
    ap.add_argument("--binary", default=os.environ.get("IMAGEGALLERY", ".build/debug/imagegallery"))
    ap.add_argument("--timeout", type=float, default=10.0)
    ap.add_argument("--max-rss-mb", type=float, default=100.0)
    ap.add_argument("--min-accuracy", type=float, default=95.0, help="minimum verdict accuracy in percent")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", default=None, help="check only files whose name contains this")
    ap.add_argument("--results", default=None, help="where to write the results (default OUTDIR/results.json)")
    return ap.parse_args()


def check_all(a, expected, names):
    """Validate every named file of the corpus, A.jobs at a time: {name: result}, and the seconds it took."""
    max_rss_kb = a.max_rss_mb * 1024
    t0 = time.monotonic()
    results = {}

    def job(n):
        r = run_one(a.binary, os.path.join(a.outdir, n), expected[n].get("deep", False), a.timeout)
        return n, analyse(n, expected[n], r, max_rss_kb)

    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        for n, res in ex.map(job, names):
            results[n] = res
    return results, time.monotonic() - t0


class Tally:
    """What the results RS add up to: verdicts, categories and ids right, crashes, hangs, memory."""

    def __init__(self, rs):
        self.vk = [r for r in rs if r["verdictOK"] is not None]
        self.vok = sum(1 for r in self.vk if r["verdictOK"])
        self.ck = [r for r in rs if r["categoryOK"] is not None]
        self.cok = sum(1 for r in self.ck if r["categoryOK"])
        self.ik = [r for r in rs if r["idOK"] is not None]
        self.iok = sum(1 for r in self.ik if r["idOK"])
        self.crashes = [r for r in rs if any(p.startswith("crash") or p.startswith("exit code")
                                             or p.startswith("report") or p.startswith("readFailure")
                                             for p in r["problems"])]
        self.hangs = [r for r in rs if "hang" in r["problems"]]
        self.mem = [r for r in rs if any(p.startswith("memory") for p in r["problems"])]
        self.acc = 100.0 * self.vok / len(self.vk) if self.vk else 100.0
        rss = [r for r in rs if r["rssKB"] is not None]
        self.maxrss = max(rss, key=lambda r: r["rssKB"]) if rss else None
        self.slow = sorted(rs, key=lambda r: -r["time"])[:5]


def fmt_exp(e):
    if e.get("verdictUnknown"):
        return "open"
    if e["verdict"] == "valid":
        return "valid"
    cats = e.get("categories") or [e.get("category")]
    s = "invalid " + "/".join(c for c in cats if c) if cats and cats[0] else "invalid ?"
    if e.get("ids"):
        s += " [" + ",".join(i[3:] for i in e["ids"]) + "]"
    return s


def fmt_got(r):
    g = r["got"]
    if g is None:
        return "no report"
    if g["valid"]:
        extra = " ".join(i for i in g["ids"][:4])
        return "valid" + (f" ({extra})" if extra else "")
    return f"invalid {g['firstId']} ({g['messages']} msgs: {' '.join(g['ids'][:5])})"


def print_summary(a, rs, t, wall):
    print(f"hostile corpus: {len(rs)} files, {a.binary}, {a.jobs} jobs, {wall:.1f} s")
    print(f"  verdicts right:   {t.vok}/{len(t.vk)} ({t.acc:.1f}%)  [{len(rs) - len(t.vk)} open verdicts not counted]")
    print(f"  categories right: {t.cok}/{len(t.ck)} (first fatal/error of invalid files with a known category)")
    print(f"  first ids listed: {t.iok}/{len(t.ik)} (informative)")
    print(f"  crashes/bad exit: {len(t.crashes)}   hangs (> {a.timeout:g} s): {len(t.hangs)}   "
          f"memory > {a.max_rss_mb:g} MB: {len(t.mem)}")
    if t.maxrss:
        print(f"  max RSS: {t.maxrss['rssKB'] / 1024:.1f} MB ({t.maxrss['file']})")
    print("  slowest: " + ", ".join(f"{r['file']} {r['time']:.2f} s" for r in t.slow))


def print_mismatches(rs):
    bad = [r for r in rs if r["problems"] or r["verdictOK"] is False or r["categoryOK"] is False]
    if bad:
        print(f"\nmismatches and problems ({len(bad)}):")
        for r in bad:
            what = []
            if r["verdictOK"] is False:
                what.append("VERDICT")
            if r["categoryOK"] is False:
                what.append("CATEGORY")
            what += [p.upper() for p in r["problems"]]
            print(f"  {r['file']}: {', '.join(what)}")
            print(f"      expected {fmt_exp(r['expected'])}; got {fmt_got(r)}")
            if r["expected"].get("note"):
                print(f"      note: {r['expected']['note'][:200]}")
            if r["problems"] and r.get("stderr"):
                print("      stderr: " + r["stderr"].strip().replace("\n", " | ")[-300:])
    idmiss = [r for r in rs if r["idOK"] is False and r["categoryOK"] is not False and r["verdictOK"] is not False]
    if idmiss:
        print(f"\nfirst id not among the expected ids, verdict and category right ({len(idmiss)}, informative):")
        for r in idmiss:
            print(f"  {r['file']}: expected {fmt_exp(r['expected'])}; got {r['got']['firstId']}")
    opens = [r for r in rs if r["expected"].get("verdictUnknown")]
    if opens:
        print(f"\nopen verdicts ({len(opens)}, only crash/hang/memory count):")
        for r in opens:
            print(f"  {r['file']}: {fmt_got(r)}  {r['time']:.2f} s  {(r['rssKB'] or 0) / 1024:.0f} MB")


def write_results(a, results, rs, t, wall):
    summary = {"files": len(rs), "wallSeconds": round(wall, 2), "binary": a.binary,
               "verdictsRight": t.vok, "verdictsCounted": len(t.vk), "verdictAccuracy": round(t.acc, 2),
               "categoriesRight": t.cok, "categoriesCounted": len(t.ck), "idsRight": t.iok, "idsCounted": len(t.ik),
               "crashes": [r["file"] for r in t.crashes], "hangs": [r["file"] for r in t.hangs],
               "memory": [r["file"] for r in t.mem],
               "maxRssKB": t.maxrss["rssKB"] if t.maxrss else None,
               "maxRssFile": t.maxrss["file"] if t.maxrss else None,
               "slowest": [[r["file"], r["time"]] for r in t.slow]}
    with open(a.results or os.path.join(a.outdir, "results.json"), "w") as f:
        json.dump({"summary": summary, "files": results}, f, indent=1, sort_keys=True)
        f.write("\n")


def main():
    a = parse_args()
    if not os.access(a.binary, os.X_OK):
        sys.exit(f"check-hostile-corpus: {a.binary}: not an executable")
    with open(os.path.join(a.outdir, "expected.json")) as f:
        expected = json.load(f)
    names = sorted(n for n in expected if a.only is None or a.only in n)
    results, wall = check_all(a, expected, names)
    rs = [results[n] for n in names]
    t = Tally(rs)
    print_summary(a, rs, t, wall)
    print_mismatches(rs)
    write_results(a, results, rs, t, wall)
    fail = bool(t.crashes or t.hangs or t.mem) or t.acc < a.min_accuracy
    print(f"\n{'FAIL' if fail else 'PASS'}: verdict accuracy {t.acc:.1f}% (minimum {a.min_accuracy:g}%), "
          f"{len(t.crashes)} crashes, {len(t.hangs)} hangs, {len(t.mem)} memory breaches")
    return 1 if fail else 0


if __name__ == "__main__":
    sys.exit(main())
