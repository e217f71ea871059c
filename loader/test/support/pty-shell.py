#!/usr/bin/env python3
"""A real terminal for the tests: an interactive bash in a new pseudo-terminal (its session leader,
as in a terminal window or a tmux pane), given COMMAND as typed. Once the output matches
UNTIL (a regular expression), the terminal is either closed (close: the master side is closed, as
when the window or pane goes; the kernel hangs the terminal up and the shell gets SIGHUP) or left
open while the test acts (wait: the helper writes "matched" to its stdout and reads until the shell
exits or TIMEOUT). The terminal's whole output is written to OUTPUT_FILE.

Usage: pty-shell.py close|wait UNTIL TIMEOUT OUTPUT_FILE COMMAND
Exit: 0 matched, 3 UNTIL never came within TIMEOUT seconds."""
import os
import pty
import re
import select
import sys
import time

mode, until, timeout, out_file, command = sys.argv[1], re.compile(sys.argv[2].encode()), float(sys.argv[3]), sys.argv[4], sys.argv[5]
pid, fd = pty.fork()
if pid == 0:
    os.environ['PS1'] = '$ '
    os.environ['TERM'] = 'xterm'
    os.execvp('bash', ['bash', '--norc', '--noprofile', '-i'])
os.write(fd, (command + '\n').encode())
seen = b''
deadline = time.time() + timeout
matched = False


def read_some(wait):
    global seen
    ready, _, _ = select.select([fd], [], [], wait)
    if not ready:
        return True
    try:
        chunk = os.read(fd, 65536)
    except OSError:
        return False
    if not chunk:
        return False
    seen += chunk
    # Written whole and renamed into place: a test reads the file while the terminal still writes
    # (the SIGKILL test measures it when it kills), and a file opened for writing here is empty
    # until written, which that read once found on a busy host.
    with open(out_file + '.part', 'wb') as f:
        f.write(seen)
    os.replace(out_file + '.part', out_file)
    return True


while time.time() < deadline and not matched:
    if not read_some(0.2):
        break
    matched = bool(until.search(seen))
if not matched:
    os.close(fd)
    sys.exit(3)
if mode == 'close':
    os.close(fd)
    os.waitpid(pid, 0)
    sys.exit(0)
print('matched', flush=True)
while time.time() < deadline and read_some(0.2):
    pass
os.close(fd)
sys.exit(0)
