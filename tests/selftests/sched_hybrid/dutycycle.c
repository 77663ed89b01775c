// SPDX-License-Identifier: GPL-2.0
/*
 * dutycycle: a task with a known CPU demand, for placement tests.
 *
 *   dutycycle [-p PERIOD_US] [-n NAME] [-s CPUS] [-g] [-o OFFSET_US] [-v]
 *             PCT:SECONDS...
 *
 * Each phase runs busy for PCT% of every period (10 ms by default) and
 * sleeps the rest, for SECONDS; 100 never sleeps. The task renames itself
 * NAME-<phase> (NAME defaults to "duty") at every phase, so a sched_switch
 * trace tells the phases apart. Times are CLOCK_MONOTONIC, so the demand is
 * a share of wall (or, under QEMU -icount, virtual) time.
 *
 * -s CPUS (a list such as "2-5" or "2,3,4,5") starts the task on those CPUs:
 * the phases run in a child forked while dutycycle is confined to CPUS,
 * which then takes back the affinity dutycycle was started with, and
 * dutycycle exits with the child's status. This is for where a new task
 * starts from. The kernel gives a new task, as its initial utilization,
 * half the spare capacity of the CPU it is forked onto: about 512 on a
 * P-core, above what capacity-aware packing lets onto an E-core of 605
 * (2/3, 403). util_est keeps that figure for as long as the task's
 * wake-ups wait for their CPU, since it is not lowered for a task that did
 * not get all the CPU time it wanted; under QEMU, wake-ups on CPU 0 wait
 * about 1.7 ms, and a light task forked there kept an estimate of 468 for
 * a whole run. Forked on an E-core, a task starts below the limit, and
 * where it runs from then on is up to the scheduler alone.
 *
 * -g holds the task at a gate before its first phase, named NAME-gate
 * (NAME at most 10 characters, so that the whole name fits a task's 15),
 * until it gets SIGUSR1: a test starts several tasks, waits until every one
 * is at the gate and releases them together, so they start as one however
 * long each took to start (under QEMU -icount, a host that is slow to load
 * a program shows as seconds of virtual time while other vCPUs spin).
 * -o OFFSET_US then delays the first phase, so that periodic tasks
 * released together need not run in phase.
 *
 * SIGTERM, once past the gate, ends the phases early; the task then exits
 * 0 as if they were done (printing -v's line): a test ends a background
 * load that way.
 *
 * -v prints, when the last phase ends, one line to standard error: the
 * task's name, the CPU it ended on and what the scheduler estimates of it
 * (/proc/self/sched: PELT utilization and runnable average, util_est,
 * migrations), to tell why a task ran where a placement test did not want
 * it. It is read once, after the work, so it does not perturb the run.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NSEC_PER_SEC 1000000000LL
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

/* Set by SIGTERM once the task is past its gate: the phases end. */
static atomic_int stopped;

static void stop(int sig)
{
	(void)sig;
	stopped = 1;
}

static void sleep_until(long long t)
{
	struct timespec ts = { t / NSEC_PER_SEC, t % NSEC_PER_SEC };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR &&
	       !stopped)
		;
}

static void die_usage(void)
{
	fputs("usage: dutycycle [-p PERIOD_US] [-n NAME] [-s CPUS] [-g] [-o OFFSET_US] [-v]\n"
	      "                 PCT:SECONDS...\n", stderr);
	exit(2);
}

/*
 * "COMM cpu N util_avg U runnable_avg R util_est E nr_migrations M" on
 * standard error, from /proc/self/sched (CONFIG_SCHED_DEBUG); the fields
 * the kernel does not list are left out.
 */
static void print_sched_stats(const char *comm)
{
	static const char * const keys[] = {
		"se.avg.util_avg", "se.avg.runnable_avg", "se.avg.util_est",
		"se.nr_migrations",
	};
	char line[256], out[512];
	size_t len, i;
	FILE *f;

	len = snprintf(out, sizeof(out), "%s cpu %d", comm, sched_getcpu());
	f = fopen("/proc/self/sched", "r");
	while (f && fgets(line, sizeof(line), f)) {
		char key[64];
		long long v;

		if (sscanf(line, "%63s : %lld", key, &v) != 2)
			continue;
		for (i = 0; i < ARRAY_SIZE(keys); i++)
			if (!strcmp(key, keys[i]) && len < sizeof(out))
				len += snprintf(out + len, sizeof(out) - len, " %s %lld",
						strrchr(key, '.') + 1, v);
	}
	if (f)
		fclose(f);
	fprintf(stderr, "%s\n", out);
}

/* "N", "N-M" and comma-separated lists of them into @set; 0 if malformed. */
static int parse_cpus(const char *list, cpu_set_t *set)
{
	const char *p = list;

	CPU_ZERO(set);
	while (*p) {
		char *end;
		long first = strtol(p, &end, 10), last = first, cpu;

		if (end == p || first < 0)
			return 0;
		if (*end == '-') {
			p = end + 1;
			last = strtol(p, &end, 10);
			if (end == p || last < first)
				return 0;
		}
		if (last >= CPU_SETSIZE)
			return 0;
		for (cpu = first; cpu <= last; cpu++)
			CPU_SET(cpu, set);
		if (*end == ',' && end[1])
			end++;
		else if (*end)
			return 0;
		p = end;
	}
	return CPU_COUNT(set) > 0;
}

/*
 * Fork the task that runs the phases while confined to @start; the child
 * returns with the original affinity, the parent exits with its status.
 */
static void start_on(const cpu_set_t *start)
{
	cpu_set_t original;
	int status;
	pid_t pid;

	if (sched_getaffinity(0, sizeof(original), &original) ||
	    sched_setaffinity(0, sizeof(*start), start)) {
		perror("dutycycle: affinity");
		exit(1);
	}
	pid = fork();
	if (pid < 0) {
		perror("dutycycle: fork");
		exit(1);
	}
	if (pid == 0) {
		if (sched_setaffinity(0, sizeof(original), &original)) {
			perror("dutycycle: affinity");
			exit(1);
		}
		return;
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			perror("dutycycle: waitpid");
			exit(1);
		}
	exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
}

/* Named NAME-gate, wait for the SIGUSR1 of @usr1, which main() blocked. */
static void wait_at_gate(const char *name, const sigset_t *usr1)
{
	char comm[16];
	int sig, rc;

	snprintf(comm, sizeof(comm), "%s-gate", name);
	prctl(PR_SET_NAME, comm);
	rc = sigwait(usr1, &sig);
	if (rc) {
		fprintf(stderr, "dutycycle: sigwait: %s\n", strerror(rc));
		exit(1);
	}
}

int main(int argc, char **argv)
{
	long long period = 10000 * 1000LL, offset = 0;
	struct sigaction term = { .sa_handler = stop };
	const char *name = "duty";
	cpu_set_t start;
	int opt, i, confined = 0, gate = 0, verbose = 0;
	char comm[16] = "";
	sigset_t usr1;

	while ((opt = getopt(argc, argv, "p:n:s:go:v")) != -1) {
		switch (opt) {
		case 'p':
			period = atoll(optarg) * 1000;
			if (period <= 0)
				die_usage();
			break;
		case 'n':
			name = optarg;
			break;
		case 's':
			if (!parse_cpus(optarg, &start))
				die_usage();
			confined = 1;
			break;
		case 'g':
			gate = 1;
			break;
		case 'o':
			offset = atoll(optarg) * 1000;
			if (offset < 0)
				die_usage();
			break;
		case 'v':
			verbose = 1;
			break;
		default:
			die_usage();
		}
	}
	if (optind >= argc || (gate && strlen(name) > 10))
		die_usage();
	/*
	 * Blocked before anything can see the gate's name, so that the
	 * release cannot come before sigwait() and kill the task; the child
	 * of -s inherits the mask.
	 */
	if (gate) {
		sigemptyset(&usr1);
		sigaddset(&usr1, SIGUSR1);
		if (sigprocmask(SIG_BLOCK, &usr1, NULL)) {
			perror("dutycycle: sigprocmask");
			return 1;
		}
	}
	if (confined)
		start_on(&start);
	if (gate)
		wait_at_gate(name, &usr1);
	/* Only now: at the gate, SIGTERM must still end the task. */
	sigemptyset(&term.sa_mask);
	sigaction(SIGTERM, &term, NULL);
	if (offset)
		sleep_until(now_ns() + offset);

	for (i = optind; i < argc && !stopped; i++) {
		int pct;
		double secs;
		long long start, end, t;

		if (sscanf(argv[i], "%d:%lf", &pct, &secs) != 2 ||
		    pct < 0 || pct > 100 || secs <= 0)
			die_usage();
		snprintf(comm, sizeof(comm), "%s-%d", name, i - optind);
		prctl(PR_SET_NAME, comm);

		start = now_ns();
		end = start + (long long)(secs * NSEC_PER_SEC);
		for (t = start; t < end && !stopped; t += period) {
			long long busy_end = t + period * pct / 100;

			while (now_ns() < busy_end && !stopped)
				;
			if (pct < 100)
				sleep_until(t + period);
		}
	}
	if (verbose)
		print_sched_stats(comm);
	return 0;
}
