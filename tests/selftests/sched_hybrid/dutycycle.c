// SPDX-License-Identifier: GPL-2.0
/*
 * dutycycle: a task with a known CPU demand, for placement tests.
 *
 *   dutycycle [-p PERIOD_US] [-n NAME] PCT:SECONDS...
 *
 * Each phase runs busy for PCT% of every period (10 ms by default) and
 * sleeps the rest, for SECONDS; 100 never sleeps. The task renames itself
 * NAME-<phase> (NAME defaults to "duty") at every phase, so a sched_switch
 * trace tells the phases apart. Times are CLOCK_MONOTONIC, so the demand is
 * a share of wall (or, under QEMU -icount, virtual) time.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
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
	fprintf(stderr, "usage: dutycycle [-p PERIOD_US] [-n NAME] PCT:SECONDS...\n");
	exit(2);
}

int main(int argc, char **argv)
{
	long long period = 10000 * 1000LL;
	const char *name = "duty";
	int opt, i;

	while ((opt = getopt(argc, argv, "p:n:")) != -1) {
		switch (opt) {
		case 'p':
			period = atoll(optarg) * 1000;
			if (period <= 0)
				die_usage();
			break;
		case 'n':
			name = optarg;
			break;
		default:
			die_usage();
		}
	}
	if (optind >= argc)
		die_usage();

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
