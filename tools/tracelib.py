# SPDX-License-Identifier: GPL-2.0
"""Reading kernel trace text, shared by tools/cpuidle-analyze and
tools/sched-placement.

One event line in any of the three usual forms:

  ftrace (/sys/kernel/tracing/trace, with or without the tgid and
  irq-flags columns):
      <idle>-0       [001] d..1.   123.456789: cpu_idle: state=2 cpu_id=1
  trace-cmd report:
      <idle>-0     [001]   123.456789: cpu_idle:             state=2 cpu_id=1
  perf script:
      swapper     0 [001]   123.456789: power:cpu_idle: state=2 cpu_id=1

Event names lose their subsystem ("power:cpu_idle" is "cpu_idle").
"""

import re

FTRACE_RE = re.compile(
    r'^\s*(?P<task>.+?)-(?P<pid>\d+)\s+(?:\(\s*[\d-]+\)\s+)?\[(?P<cpu>\d+)\]'
    r'(?:\s+[\w.]{4,5})?\s+(?P<ts>\d+\.\d+):\s+(?P<event>[\w:]+):\s*(?P<body>.*)$')
# The start of an event line: whatever follows it must parse.
START_RE = re.compile(r'^\s*\S.*?(?:-|\s)\d+\s+(?:\(\s*[\d-]+\)\s+)?\[\d+\]')
PERF_RE = re.compile(
    r'^\s*(?P<task>\S.*?)\s+(?P<pid>\d+)\s+\[(?P<cpu>\d+)\]\s+(?P<ts>\d+\.\d+):'
    r'\s+(?P<event>[\w:]+):\s*(?P<body>.*)$')


class InputError(Exception):
    """Something in the input that the tool cannot use; the message says
    where (file and line) and what."""


class Event:
    __slots__ = ('line', 'task', 'pid', 'cpu', 'ts', 'name', 'body')

    def __init__(self, line, m):
        self.line = line
        self.task = m['task']
        self.pid = int(m['pid'])
        self.cpu = int(m['cpu'])
        self.ts = float(m['ts'])
        self.name = m['event'].rsplit(':', 1)[-1]
        self.body = m['body']


def events(lines, source, wanted):
    """The events named in @wanted, in order, from an iterable of lines.

    Comments, blank lines, headers and other events are skipped. A line
    that mentions a wanted event but cannot be read (a truncated line, say)
    raises InputError with its number."""
    for n, text in enumerate(lines, 1):
        if not text.strip() or text.lstrip().startswith('#'):
            continue
        m = FTRACE_RE.match(text) or PERF_RE.match(text)
        if not m:
            if START_RE.match(text) or any(w in text for w in wanted):
                raise InputError(f'{source}:{n}: cannot read this event line '
                                 f'(truncated?): {text.strip()[:80]}')
            continue
        ev = Event(n, m)
        if ev.name in wanted:
            yield ev


def fields(ev, source, required):
    """The key=value fields of an event's body, as a dict of strings;
    InputError naming the line when one of @required is missing."""
    out = dict(re.findall(r'(\w+)=(\S*)', ev.body))
    missing = [k for k in required if k not in out]
    if missing:
        raise InputError(f'{source}:{ev.line}: {ev.name} without '
                         f'{", ".join(missing)}: {ev.body[:80]}')
    return out


def parse_cpus(text, what):
    """"N" or "N-M" as a range of CPU numbers."""
    first, _, last = text.partition('-')
    try:
        first = int(first)
        last = int(last) if last else first
    except ValueError:
        raise InputError(f'{what}: CPUS "{text}" is not N or N-M')
    if first > last:
        raise InputError(f'{what}: CPU range "{text}" runs backwards')
    return range(first, last + 1)
