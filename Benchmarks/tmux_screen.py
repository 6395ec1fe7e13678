"""Driving a program in a tmux server of the caller's own (`tmux -L SOCKET`) and reading its screen:
what the benchmark scripts that time the browser in a real terminal share."""
import statistics
import subprocess
import time


def tmux(socket, *args, check=True):
    """Runs a tmux command on the server `socket`; its standard output."""
    return subprocess.run(["tmux", "-L", socket, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, check=check).stdout


def launch(socket, command, env, width=120, height=40):
    """Starts `command` (one shell command line) in a new tmux server of the caller's own, in a
    `width` x `height` window."""
    subprocess.run(["tmux", "-L", socket, "-f", "/dev/null", "new-session", "-d", "-x", str(width), "-y",
                    str(height), command], check=True, env=env, stdin=subprocess.DEVNULL,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def capture(socket):
    """The pane's screen as text."""
    return tmux(socket, "capture-pane", "-p", check=False)


def wait_for(socket, predicate, timeout=20.0, step=0.005):
    """The first screen, polled every `step` seconds, on which `predicate` holds; exits with the
    screen shown when none does within `timeout` seconds."""
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        screen = capture(socket)
        if predicate(screen):
            return screen
        time.sleep(step)
    raise SystemExit(f"timed out after {timeout} s; screen:\n{capture(socket)}")


def latency_figures(latencies):
    """The median, 90th percentile and worst of key latencies in ms, as the scripts report them;
    nothing when no key was pressed."""
    if not latencies:
        return {}
    ordered = sorted(latencies)
    return {
        "median_ms": statistics.median(ordered),
        "p90_ms": ordered[max(0, int(0.9 * len(ordered)) - 1)],
        "max_ms": ordered[-1],
    }
