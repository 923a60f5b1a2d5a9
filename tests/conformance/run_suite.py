#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Runs Wine's d3d11 conformance suite (d3d11_suite.exe) one way and gates the
result per test function against the committed expectation files (README.md).

  run_suite.py --suite EXE --path direct  --expect direct-fails.txt
  run_suite.py --suite EXE --path neptune --dll-dir DIR --server SERVER.exe \\
               --expect neptune-fails.txt --direct direct-fails.txt

One process runs every function (on the suite's worker threads, as Wine runs it);
when a process crashes or stalls, the functions it had begun but not ended each run
again alone, the ones it had not begun in a fresh process, so a crash costs one
function, not the rest of the run. A function's state: clean, Fail N (N failing
checks; a check that passes inside a todo block of Wine's, i.e. where the stack under
test does better than Wine, is counted but does not fail it), Crash or Timeout.

The gate: every function must have the state its expectation says. The direct run's
expectation is direct-fails.txt (functions Wine's own d3d11 does not pass here); a
path's expectation is the direct one, except for the functions its own file lists.
Anything else fails the test: a function that got worse (a regression) and also one
that got better than listed (the list must be brought down to it: it never hides).
--update rewrites the expectation file from this run instead.

The programs are Windows executables: they run through $MESON_EXE_WRAPPER or wine.
"""
import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "samples"))
from compare_runs import Server, program_for_b  # noqa: E402  (the samples' server handling)

MARKER = re.compile(r"^npt-suite: (begin|end) (test_\w+)\s*$")
# test.h's message lines: FILE:LINE: KIND: [CONTEXT: ...]MESSAGE; the driver's first
# context is the function's name.
MESSAGE = re.compile(r"^[\w.]+:\d+:[\d.]* (Test failed|Test succeeded inside todo block|Tests skipped"
                     r"|Test marked flaky|Test succeeded inside flaky todo block): (?:(test_\w+): )?")
SUMMARY = re.compile(r"^[0-9a-f]+:d3d11:[\d.]* \d+ tests executed")
COUNTERS = {"Test failed": "failed", "Test succeeded inside todo block": "todo_passed",
            "Tests skipped": "skipped", "Test marked flaky": "flaky",
            "Test succeeded inside flaky todo block": "flaky"}
UNATTRIBUTED = "(outside any test function)"
# test.h's skip line of a function whose create_device() failed.
NO_DEVICE_SKIP = "Failed to create device."


class Function:
    def __init__(self):
        self.failed = self.todo_passed = self.skipped = self.flaky = 0
        self.begun = self.ended = False
        self.abnormal = None  # "Crash" or "Timeout"
        self.lines = []       # the failing lines, for the log
        # The function skipped itself because it could not create a device: it ran nothing,
        # which must not pass for clean (a process whose context ended makes every later
        # function of that process skip so). It runs again alone, and "NoDevice" if still so.
        self.no_device = False
        # A failing line that lost its function's name was printed while this function ran:
        # it runs again alone, so that its own result is known.
        self.suspect = False
        # Outside any function: failing lines printed while no function ran (gated).
        self.unexplained = 0
        self.first_state = None   # set when the function ran again alone (see rerun_differing)

    def state(self):
        if self.abnormal:
            return (self.abnormal, 0)
        if self.no_device:
            return ("NoDevice", 0)
        return ("Fail", self.failed) if self.failed else ("Pass", 0)


def state_text(state):
    kind, count = state
    return "%s %d" % (kind, count) if kind == "Fail" else kind


def state_rank(state):
    kind, count = state
    return {"Pass": 0, "Fail": 1, "Flaky": 1, "NoDevice": 2, "Timeout": 2, "Crash": 2}[kind], count


class Runner:
    def __init__(self, options, wrapper, exe, env, work):
        self.options, self.wrapper, self.exe, self.env, self.work = options, wrapper, exe, env, work
        self.server = None
        self.server_restarts = []
        self.processes = 0
        self.log_paths = []

    def ensure_server(self):
        if not self.options.server:
            return
        if self.server and self.server.process.poll() is None:
            return
        if self.server:
            self.server_restarts.append("the server exited with %s during the run; its log: %s"
                                        % (self.server.process.returncode, self.server.log_path))
            self.server.stop()
            os.rename(self.server.log_path, self.server.log_path + ".%d" % len(self.server_restarts))
        self.server = Server(self.wrapper, self.options.server, self.work)
        self.env["NPT_SERVER"] = self.server.address()

    def stop(self):
        if self.server:
            if self.server.process.poll() is not None:
                self.server_restarts.append("the server exited with %s during the run; its log: %s"
                                            % (self.server.process.returncode, self.server.log_path))
            self.server.stop()

    def run(self, names, all_names, stall_timeout):
        """One process over NAMES; returns {name: Function} for those it began and
        whether it ended normally (its summary line printed)."""
        self.ensure_server()
        self.processes += 1
        args = [] if names == all_names else ["--only", ",".join(names)]
        log_path = os.path.join(self.work, "process-%02d.log" % self.processes)
        functions, running = {}, set()
        completed = False
        with open(log_path, "w+") as log:
            log.write("# %s\n" % " ".join(["d3d11"] + args)[:400])
            log.flush()
            process = subprocess.Popen(self.wrapper + [self.exe, "d3d11"] + args, env=self.env,
                                       stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                       cwd=os.path.dirname(self.exe))
            position, pending, last_progress = log.tell(), "", time.monotonic()
            timed_out = False
            while True:
                finished = process.poll() is not None
                log.seek(position)
                chunk = log.read()
                position = log.tell()
                if chunk:
                    last_progress = time.monotonic()
                    lines = (pending + chunk).split("\n")
                    pending = lines.pop()
                    for line in lines:
                        completed |= self.parse(line, functions, running)
                if finished:
                    break
                if time.monotonic() - last_progress > stall_timeout:
                    timed_out = True
                    process.kill()
                    process.wait()
                    log.write("\nrun_suite: no output for %d s: killed\n" % stall_timeout)
                    break
                time.sleep(0.5)
            if pending:
                completed |= self.parse(pending, functions, running)
        self.log_paths.append(log_path)
        return functions, completed and not timed_out, timed_out

    def parse(self, line, functions, running):
        line = line.rstrip("\r")
        marker = MARKER.match(line)
        if marker:
            what, name = marker.groups()
            function = functions.setdefault(name, Function())
            if what == "begin":
                running.add(name)
                function.begun = True
            else:
                running.discard(name)
                function.ended = True
            return False
        message = MESSAGE.match(line)
        if message:
            kind, name = message.groups()
            if not name:
                name = self.attribute(line[message.end():], running, functions)
            function = functions.setdefault(name, Function())
            counter = COUNTERS[kind]
            setattr(function, counter, getattr(function, counter) + 1)
            if counter == "skipped" and line[message.end():].strip() == NO_DEVICE_SKIP:
                function.no_device = True
            if counter in ("failed", "todo_passed"):
                function.lines.append(line)
            return False
        return bool(SUMMARY.match(line))

    @staticmethod
    def attribute(text, running, functions):
        """The function a message without a readable name belongs to."""
        # A thread a test function started itself has no context: it is that function's
        # when it is the only one running.
        if len(running) == 1:
            return next(iter(running))
        # Output of another process or thread can cut a line inside the function's name:
        # a prefix that only one running function has still names it.
        partial = re.match(r"test_\w*", text)
        if partial:
            candidates = [name for name in running if name.startswith(partial.group(0))]
            if len(candidates) == 1:
                return candidates[0]
        for name in running:
            functions.setdefault(name, Function()).suspect = True
        if not running:
            functions.setdefault(UNATTRIBUTED, Function()).unexplained += 1
        return UNATTRIBUTED


def list_functions(wrapper, exe, env, work):
    """The suite's function names (d3d11 --list).

    The listing goes to a file, not a pipe: a Wine process that inherited a pipe (the
    desktop or a service Wine starts on first use) keeps it open, and a reader waiting
    for its end waits for good. A listing that has not ended in a minute is killed and
    asked for again: once, in a full scripts/test run, a listing started at the same
    moment as another program under the same fresh wineserver never ended."""
    log_path = os.path.join(work, "list.log")
    for attempt in range(3):
        with open(log_path, "w+") as log:
            process = subprocess.Popen(wrapper + [exe, "d3d11", "--list"], env=env, stdin=subprocess.DEVNULL,
                                       stdout=log, stderr=subprocess.STDOUT, cwd=os.path.dirname(exe))
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
                print("run_suite: %s --list did not end in 60 s (attempt %d); killed" % (exe, attempt + 1))
                continue
            log.seek(0)
            output = log.read()
        names = [line.strip() for line in output.splitlines() if re.match(r"^test_\w+\s*$", line)]
        if names:
            return names
        raise SystemExit("run_suite: %s --list printed no test functions:\n%s" % (exe, output))
    raise SystemExit("run_suite: %s --list did not end in three attempts; see %s" % (exe, log_path))


def run_all(runner, names, all_names, options):
    """Every function's final result, isolating the ones a crash or stall caught."""
    results = {}
    pending = list(names)
    isolated = []
    while pending or isolated:
        if pending:
            batch, pending = pending, []
            functions, completed, timed_out = runner.run(batch, all_names, options.stall_timeout)
            if UNATTRIBUTED in functions:
                results.setdefault(UNATTRIBUTED, Function())
                extra = functions.pop(UNATTRIBUTED)
                results[UNATTRIBUTED].failed += extra.failed
                results[UNATTRIBUTED].unexplained += extra.unexplained
                results[UNATTRIBUTED].lines += extra.lines
            began_any = False
            for name in batch:
                function = functions.get(name)
                began_any |= bool(function and function.begun)
                if function and function.ended and not function.no_device and not function.suspect:
                    results[name] = function
                elif (function and function.begun) or completed:
                    # Caught by the crash or the stall, without a device, running when a
                    # nameless failing line came (or, in a process that ended normally,
                    # never run, which must not happen): alone, it tells.
                    isolated.append(name)
                else:
                    pending.append(name)
            if not began_any:
                raise SystemExit("run_suite: a process ran no test function; see %s" % runner.log_paths[-1])
        else:
            name = isolated.pop(0)
            functions, completed, timed_out = runner.run([name], all_names, options.function_timeout)
            function = functions.get(name) or Function()
            if not (function.ended and completed):
                function.abnormal = "Timeout" if timed_out else "Crash"
            results[name] = function
    return results


def read_expectations(path):
    expected = {}
    if not path or not os.path.exists(path):
        return expected
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            fields = [field.strip() for field in line.split(",")]
            if fields[1:2] == ["Fail"] and len(fields) == 3 and fields[2].isdigit() and int(fields[2]) > 0:
                expected[fields[0]] = ("Fail", int(fields[2]))
            elif fields[1:] in (["Crash"], ["Timeout"], ["Flaky"], ["NoDevice"]):
                expected[fields[0]] = (fields[1], 0)
            else:
                raise SystemExit("%s:%d: expected NAME,Fail,COUNT, NAME,Crash, NAME,Timeout, NAME,NoDevice or NAME,Flaky"
                                 % (path, number))
    return expected


def write_expectations(path, header, states):
    with open(path, "w") as f:
        f.write(header)
        for name, state in states:
            kind, count = state
            f.write("%s,%s\n" % (name, "Fail,%d" % count if kind == "Fail" else kind))


def accepted(actual, expected):
    """Whether the gate accepts state ACTUAL for a function expected to be EXPECTED."""
    # The gate holds each function's state (clean, failing, crashed, hung), not its count:
    # the failing checks of a function that fails move by a few with timing (two worker
    # threads, a neighbour's crash), and a gate on counts would be red for noise. A function
    # seen both clean and failing in repeated runs is listed Flaky: either is accepted.
    return (actual == expected or actual[0] == expected[0] == "Fail"
            or (expected[0] == "Flaky" and actual[0] in ("Pass", "Fail")))


def expectation_of(options):
    direct = read_expectations(options.direct) if options.direct else {}
    own = read_expectations(options.expect)
    return lambda name: own.get(name, direct.get(name, ("Pass", 0)))


def rerun_differing(runner, names, all_names, results, expected_of, options):
    """Runs each function whose state the gate would refuse once more, alone.

    The suite's functions wait on queries, events and the GPU with bounded waits; on a
    machine busy with other tests (CI runs this beside the rest of scripts/test) a
    function was seen to fail directly on Wine in the full run and pass alone. The
    lone run decides; the report names every function that needed it, with both states."""
    for name in names:
        if accepted(results[name].state(), expected_of(name)):
            continue
        functions, completed, timed_out = runner.run([name], all_names, options.function_timeout)
        again = functions.get(name) or Function()
        if not (again.ended and completed):
            again.abnormal = "Timeout" if timed_out else "Crash"
        again.first_state = results[name].state()
        results[name] = again


def gate(names, results, expected_of):
    problems = []
    for name in names + ([UNATTRIBUTED] if UNATTRIBUTED in results else []):
        actual = results[name].state()
        if name == UNATTRIBUTED:
            # Lines printed while functions ran were theirs: those functions ran again alone.
            unexplained = results[name].unexplained
            actual = ("Fail", unexplained) if unexplained else ("Pass", 0)
        expected = expected_of(name)
        if accepted(actual, expected):
            if actual[0] == "Fail" and expected != actual:
                print("note: %s expected %s, got %s" % (name, state_text(expected), state_text(actual)))
            continue
        if state_rank(actual) > state_rank(expected):
            verdict = "REGRESSED"
        elif state_rank(actual) < state_rank(expected):
            verdict = "IMPROVED (update the expectation file: it must shrink)"
        else:
            verdict = "CHANGED"
        problems.append("%s %s: expected %s, got %s" % (verdict, name, state_text(expected), state_text(actual)))
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--suite", help="d3d11_suite.exe")
    parser.add_argument("--path", required=True, help="the name of this way of running it: direct, neptune, triton")
    parser.add_argument("--dll-dir", help="the DLLs under test (copied beside the suite; d3d11,dxgi=n,b)")
    parser.add_argument("--server", help="neptune-server.exe, started for the run (NPT_SERVER)")
    parser.add_argument("--env", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--expect", required=True, help="this path's expectation file")
    parser.add_argument("--direct", help="the direct run's expectation file (the target of other paths)")
    parser.add_argument("--work", help="directory for the logs and results of this run")
    parser.add_argument("--only", help="run just these functions (comma-separated); no gate")
    parser.add_argument("--stall-timeout", type=int, default=300,
                        help="seconds without output after which a process counts as hung")
    parser.add_argument("--function-timeout", type=int, default=240,
                        help="the same for a function run alone")
    parser.add_argument("--update", action="store_true", help="rewrite --expect from this run")
    parser.add_argument("--from-results", metavar="WORK",
                        help="run nothing: report, gate or --update from the results.json an earlier run left in WORK")
    options = parser.parse_args()

    if options.from_results:
        options.work = options.from_results
        return report_and_gate(options, *load_results(options.from_results))
    if not options.suite or not options.work:
        parser.error("--suite and --work are needed to run the suite")

    started = time.monotonic()
    wrapper = shlex.split(os.environ.get("MESON_EXE_WRAPPER", "wine"))
    # The program runs in its own directory: every path it is given must be absolute.
    options.work = os.path.abspath(options.work)
    shutil.rmtree(options.work, ignore_errors=True)
    os.makedirs(options.work)
    env = dict(os.environ)
    env.setdefault("WINEDEBUG", "-all")
    # test.h then prints "Test succeeded" at most once a second while checks pass: the
    # heartbeat that tells a long function on a loaded machine from a hung one.
    env["WINETEST_TIME"] = "1"
    env.update(item.split("=", 1) for item in options.env)
    exe = os.path.abspath(options.suite)
    if options.dll_dir:
        env.setdefault("WINEDLLOVERRIDES", "d3d11,dxgi=n,b")
        exe = program_for_b(exe, options.dll_dir, options.work)

    names = all_names = list_functions(wrapper, exe, env, options.work)
    if options.only:
        unknown = set(options.only.split(",")) - set(names)
        if unknown:
            raise SystemExit("run_suite: no such test function: %s" % ", ".join(sorted(unknown)))
        names = [name for name in names if name in options.only.split(",")]
    runner = Runner(options, wrapper, exe, env, options.work)
    try:
        results = run_all(runner, names, all_names, options)
        if not options.only and not options.update:
            rerun_differing(runner, names, all_names, results, expectation_of(options), options)
    finally:
        runner.stop()

    processes, server_problems, elapsed = runner.processes, runner.server_restarts, time.monotonic() - started
    with open(os.path.join(options.work, "results.json"), "w") as f:
        json.dump({"path": options.path, "functions": names, "processes": processes,
                   "seconds": round(elapsed), "server_problems": server_problems,
                   "results": {name: {"state": state_text(function.state()), "failed": function.failed,
                                      "todo_passed": function.todo_passed, "skipped": function.skipped,
                                      "flaky": function.flaky, "lines": function.lines,
                                      "first_state": function.first_state and state_text(function.first_state),
                                      "unexplained": function.unexplained}
                               for name, function in results.items()}}, f, indent=1)
    with open(os.path.join(options.work, "failures.txt"), "w") as f:
        for name in names + [UNATTRIBUTED]:
            if name in results and results[name].lines:
                f.write("== %s (%s)\n" % (name, state_text(results[name].state())))
                f.writelines(line + "\n" for line in results[name].lines)

    return report_and_gate(options, names, results, processes, server_problems, elapsed)


def load_results(work):
    with open(os.path.join(work, "results.json")) as f:
        saved = json.load(f)
    results = {}
    for name, fields in saved["results"].items():
        function = results[name] = Function()
        for counter in ("failed", "todo_passed", "skipped", "flaky", "lines"):
            setattr(function, counter, fields[counter])
        if fields["state"] in ("Crash", "Timeout"):
            function.abnormal = fields["state"]
        function.no_device = fields["state"] == "NoDevice"
        # Results of a runner that did not tell: every nameless line counts.
        function.unexplained = fields.get("unexplained", fields["failed"] if name == UNATTRIBUTED else 0)
        first = fields.get("first_state")
        if first:
            kind, _, count = first.partition(" ")
            function.first_state = (kind, int(count or 0))
    return saved["functions"], results, saved["processes"], saved["server_problems"], saved["seconds"]


def report_and_gate(options, names, results, processes, server_problems, elapsed):
    direct = read_expectations(options.direct) if options.direct else {}
    own = read_expectations(options.expect)
    expected_of = expectation_of(options)

    states = {name: results[name].state() for name in names}
    clean = sum(1 for state in states.values() if state[0] == "Pass")
    failing = sum(function.failed for function in results.values())
    crashes = [name for name in names if states[name][0] == "Crash"]
    timeouts = [name for name in names if states[name][0] == "Timeout"]
    todo_passed = {name: results[name].todo_passed for name in names if results[name].todo_passed}
    print("Wine d3d11 conformance, %s: %d/%d functions clean, %d failing checks, %d crashes, %d timeouts "
          "(%d processes, %.0f s)" % (options.path, clean, len(names), failing, len(crashes), len(timeouts),
                                      processes, elapsed))
    if options.direct:
        direct_clean = len(names) - sum(1 for name in names if name in direct)
        direct_failing = sum(count for name, (kind, count) in direct.items() if name in names)
        print("  direct (%s): %d/%d clean, %d failing checks" % (os.path.basename(options.direct), direct_clean,
                                                                 len(names), direct_failing))
    for name in names:
        if states[name][0] != "Pass":
            print("  %-50s %s" % (name, state_text(states[name])))
    reran = [name for name in names if results[name].first_state]
    for name in reran:
        print("  ran again alone: %s was %s in the full run, %s alone" % (
            name, state_text(results[name].first_state), state_text(states[name])))
    if todo_passed:
        print("  checks passing inside Wine's todo blocks (counted clean): %s"
              % ", ".join("%s %d" % item for item in todo_passed.items()))
    if UNATTRIBUTED in results:
        print("  %d failing checks outside any test function (%d while none ran; the functions that ran "
              "at the others ran again alone)" % (results[UNATTRIBUTED].failed, results[UNATTRIBUTED].unexplained))
    print("  logs: %s (failures.txt, results.json, process-NN.log)" % options.work)

    if options.only:
        return 0
    problems = list(server_problems)
    if options.update:
        if options.path == "direct":
            header = ("# Functions of Wine's d3d11 test that Wine's own d3d11 does not pass on this machine (wined3d,\n"
                      "# llvmpipe): the result the other paths are held to (README.md).\n")
        else:
            header = ("# Functions of Wine's d3d11 test whose result through %s differs from the direct one\n"
                      "# (direct-fails.txt): the honest to-do list, which only shrinks (README.md).\n" % options.path)
        header += "# NAME,Fail,FAILING_CHECKS | NAME,Crash | NAME,Timeout | NAME,NoDevice | NAME,Flaky\n"
        # Flaky lines are a judgement over several runs: one run keeps them.
        listed = [(name, own[name] if own.get(name, ("",))[0] == "Flaky" else states[name]) for name in names
                  if own.get(name, ("",))[0] == "Flaky" or states[name] != direct.get(name, ("Pass", 0))]
        write_expectations(options.expect, header, listed)
        print("wrote %s (%d functions)" % (options.expect, len(listed)))
        for problem in problems:
            print("  " + problem)
        return 1 if problems else 0
    else:
        for name in own:
            if name not in names:
                problems.append("%s lists %s, which the suite does not have" % (options.expect, name))
            elif options.direct and own[name] == direct.get(name, ("Pass", 0)):
                problems.append("%s lists %s as %s, the direct result: remove it" % (options.expect, name,
                                                                                 state_text(own[name])))
        problems += gate(names, results, expected_of)
    if problems:
        print("GATE FAILED (%s):" % options.expect)
        for problem in problems:
            print("  " + problem)
        return 1
    print("gate: every function as %s%s says" % (os.path.basename(options.expect),
                                                 " and " + os.path.basename(options.direct) if options.direct else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
