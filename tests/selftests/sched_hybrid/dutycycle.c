// SPDX-License-Identifier: GPL-2.0
/*
 * dutycycle: a task with a known CPU demand, for placement tests.
 *
 *   dutycycle [-p PERIOD_US] [-n NAME] [-s CPUS] PCT:SECONDS...
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
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NSEC_PER_SEC 1000000000LL

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static void sleep_until(long long t)
{
	struct timespec ts = { t / NSEC_PER_SEC, t % NSEC_PER_SEC };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static void die_usage(void)
{
	fprintf(stderr, "usage: dutycycle [-p PERIOD_US] [-n NAME] [-s CPUS] PCT:SECONDS...\n");
	exit(2);
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

int main(int argc, char **argv)
{
	long long period = 10000 * 1000LL;
	const char *name = "duty";
	cpu_set_t start;
	int opt, i, confined = 0;

	while ((opt = getopt(argc, argv, "p:n:s:")) != -1) {
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
		default:
			die_usage();
		}
	}
	if (optind >= argc)
		die_usage();
	if (confined)
		start_on(&start);

	for (i = optind; i < argc; i++) {
		char comm[16];
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
		for (t = start; t < end; t += period) {
			long long busy_end = t + period * pct / 100;

			while (now_ns() < busy_end)
				;
			if (pct < 100)
				sleep_until(t + period);
		}
	}
	return 0;
}
