"""The wall time of one process run the way a host runs a hook: posix_spawn() with standard
input from a file and the output discarded, timed from the spawn to wait4(). Shared by the
timing loops of scripts/bench-hook.sh.

In: the argument vector, the environment and the path of the standard input. Out: milliseconds.
"""
import os
import time

_devnull = os.open(os.devnull, os.O_WRONLY)


def spawn_ms(argv, env, stdin_path):
    """Run `argv` once with `env` and `stdin_path` as standard input; its wall time in ms."""
    fd = os.open(stdin_path, os.O_RDONLY)
    t = time.perf_counter_ns()
    pid = os.posix_spawn(argv[0], argv, env,
        file_actions=[(os.POSIX_SPAWN_DUP2, fd, 0), (os.POSIX_SPAWN_DUP2, _devnull, 1),
                      (os.POSIX_SPAWN_DUP2, _devnull, 2)])
    os.waitpid(pid, 0)
    dt = time.perf_counter_ns() - t
    os.close(fd)
    return dt / 1e6
