import re, sys, collections
# usage: migr.py TRACE...
pat = re.compile(r'^\s*(\S.*?)-(\d+)\s+\[(\d+)\]\s+\S+\s+([\d.]+): (\w+): (.*)$')
for path in sys.argv[1:]:
    lines = open(path).read().splitlines()
    recent = collections.deque(maxlen=400)
    heavy_pids = set()
    count = collections.Counter()
    for l in lines:
        m = pat.match(l)
        if not m: continue
        comm, pid, cpu, ts, ev, rest = m.groups()
        if ev == 'sched_migrate_task':
            f = dict(x.split('=', 1) for x in re.findall(r'\w+=\S+', rest))
            if f.get('comm', '').startswith('heavy'):
                o, d = f['orig_cpu'], f['dest_cpu']
                # who did it: the current task on the CPU that logged the event
                ctx = [r for r in recent if r[2] in (o, d)][-6:]
                count[(comm.split('/')[0], cpu, o, d)] += 1
                print(f"{path.split('/')[-1]} {ts} {f['comm']} {o}->{d} by {comm}[{cpu}]")
                for r in ctx:
                    print("     ", r[3], r[2], r[0], r[4], r[5][:110])
        recent.append((comm, pid, cpu, ts, ev, rest))
    print(path, dict(count))
