// SPDX-License-Identifier: GPL-2.0
/*
 * sporadic - seeded wake-ups of one CPU, timer-driven or from another CPU
 *
 * sporadic [-p] [-s SEED] [-b BURST_US] [-t TRAIN -g GAP_US] [-n COUNT]
 *          TARGET_CPU SOURCE_CPU MEAN_US [SECONDS]
 *
 * A reader pinned to TARGET_CPU blocks on a pipe; a writer pinned to
 * SOURCE_CPU sleeps, then writes one byte, again and again, for SECONDS
 * (0 or none: until killed). After each byte the reader spins for
 * BURST_US (default 0) on the monotonic clock, then blocks again: a
 * time-boxed burst, so the work it does (the cycles the platform's model
 * counts) is what the CPU's frequency gives in that time.
 *
 * The pauses are exponential with mean MEAN_US (a device's interrupts,
 * arriving independently of each other), cut at ten times the mean;
 * with -p they are periodic instead, MEAN_US apart on absolute deadlines
 * from a first one at a seeded phase in 0..MEAN_US (a timer of an
 * application that polls). With SOURCE_CPU equal to TARGET_CPU the
 * target wakes for its own timer; otherwise every wake-up of the target
 * is a cross-CPU one that its own timers know nothing about.
 *
 * With -t, each wake-up becomes a train of TRAIN wake-ups GAP_US apart
 * (a device that interrupts a few times in quick succession, as a
 * network adapter's packet train does), the pause or period counted
 * from the train's last wake-up (exponential) or first (periodic).
 *
 * SEED (default 1) makes the run repeatable: the same seed gives the same
 * phase and pauses. The bench (bench/ab.sh) restarts its sporadic loads
 * with the round's seed at the start of every block, so that every arm of
 * a round sees the same wake-ups.
 *
 * With -n, nothing runs: the first COUNT wake-up times (us after the
 * start) are printed, one a line, for a test of the sequence (SECONDS
 * does not cut it short). The reader dies with the writer (SIGKILL, on
 * the writer's exit or death).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "affinity.h"

/* splitmix64: small, and the same sequence on every libc. */
static unsigned long long next_u64(unsigned long long *state)
{
	unsigned long long z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in (0, 1]. */
static double next_unit(unsigned long long *state)
{
	return ((next_u64(state) >> 11) + 1) / 9007199254740992.0;
}

/* An exponential pause of mean MEAN_US, cut at ten times the mean, in ns. */
static unsigned long long next_pause_ns(unsigned long long *state, long mean_us)
{
	double pause = -log(next_unit(state)) * mean_us;

	return (unsigned long long)(fmin(pause, 10.0 * mean_us) * 1000);
}

/* The writer's schedule: where the next wake-up falls. */
struct releases {
	unsigned long long state;		/* the generator, seeded */
	unsigned long long base;		/* the current train's first wake-up, ns */
	unsigned long long t;		/* the last wake-up, ns */
	long mean_us;		/* the mean pause, or the period */
	long train;		/* wake-ups in a train (1: none) */
	long gap_us;		/* between a train's wake-ups */
	long left;		/* of the current train */
	int periodic;
	int started;
};

/*
 * The next wake-up, in ns from the start: the next of the current train,
 * or the first of the next one, a period after the last train's first
 * (periodic) or an exponential pause after its last wake-up. The first
 * train starts at a seeded phase (periodic) or after a pause.
 */
static unsigned long long next_release(struct releases *g)
{
	if (g->left) {
		g->left--;
		g->t += g->gap_us * 1000ULL;
		return g->t;
	}
	if (!g->started) {
		g->started = 1;
		/* Mix the seed once, so that seeds 1, 2, 3 start far apart. */
		next_u64(&g->state);
		if (g->periodic)
			g->base = (unsigned long long)(next_unit(&g->state) * g->mean_us * 1000);
		else
			g->base = next_pause_ns(&g->state, g->mean_us);
	} else if (g->periodic) {
		g->base += g->mean_us * 1000ULL;
	} else {
		g->base = g->t + next_pause_ns(&g->state, g->mean_us);
	}
	g->t = g->base;
	g->left = g->train - 1;
	return g->t;
}

static void sleep_until(unsigned long long ns)
{
	struct timespec ts = { ns / 1000000000ULL, ns % 1000000000ULL };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* A whole number in MIN..MAX, or exit with a message naming WHAT. */
static long parse_arg(const char *text, long min, long max, const char *what)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(text, &end, 10);
	if (errno || end == text || *end || v < min || v > max) {
		fprintf(stderr, "sporadic: %s '%s' is not a whole number in %ld..%ld\n",
			what, text, min, max);
		exit(2);
	}
	return v;
}

static void die_usage(void)
{
	fprintf(stderr,
		"usage: sporadic [-p] [-s SEED] [-b BURST_US] [-t TRAIN -g GAP_US] [-n COUNT]\n"
		"       TARGET_CPU SOURCE_CPU MEAN_US [SECONDS]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	long target, source, burst_us = 0, seconds = 0, ncpus, count = 0;
	struct releases g = { .state = 1, .train = 1 };
	unsigned long long start, end, t;
	int fd[2], opt;
	pid_t pid;
	char c;

	while ((opt = getopt(argc, argv, "ps:b:n:t:g:")) != -1) {
		switch (opt) {
		case 'p':
			g.periodic = 1;
			break;
		case 's':
			g.state = parse_arg(optarg, 0, 1L << 62, "seed");
			break;
		case 'b':
			burst_us = parse_arg(optarg, 0, 10000000, "burst");
			break;
		case 'n':
			count = parse_arg(optarg, 1, 100000000, "count");
			break;
		case 't':
			g.train = parse_arg(optarg, 1, 1000, "train");
			break;
		case 'g':
			g.gap_us = parse_arg(optarg, 1, 10000000, "gap (us)");
			break;
		default:
			die_usage();
		}
	}
	if (argc - optind < 3 || argc - optind > 4)
		die_usage();
	ncpus = sysconf(_SC_NPROCESSORS_CONF);
	target = parse_arg(argv[optind], 0, ncpus - 1, "target CPU");
	source = parse_arg(argv[optind + 1], 0, ncpus - 1, "source CPU");
	g.mean_us = parse_arg(argv[optind + 2], 1, 100000000, "mean pause (us)");
	if (argc - optind == 4)
		seconds = parse_arg(argv[optind + 3], 0, 100000000, "seconds");
	if (g.train > 1 && !g.gap_us) {
		fprintf(stderr, "sporadic: a train (-t) needs its gap (-g)\n");
		return 2;
	}
	if (g.periodic && (g.train - 1) * g.gap_us + burst_us >= g.mean_us)
		fprintf(stderr, "sporadic: a train and its burst fill a %ld us period\n",
			g.mean_us);
	if (count) {
		/* The sequence the writer would follow, from 0, printed. */
		while (count--)
			printf("%llu\n", (unsigned long long)(next_release(&g) / 1000));
		return 0;
	}
	if (pipe(fd)) {
		perror("pipe");
		return 1;
	}
	pid = fork();
	if (pid < 0) {
		perror("fork");
		return 1;
	}
	if (pid == 0) {
		/*
		 * Killed with the writer: the bench kills the writer at the
		 * end of a block, and a reader left in its burst, or with
		 * bytes still in the pipe, would run into the next block.
		 */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() == 1)
			_exit(1);
		close(fd[1]);
		pin(target);
		while (read(fd[0], &c, 1) == 1) {
			unsigned long long stop = now_ns() + burst_us * 1000ULL;

			while (burst_us && now_ns() < stop)
				;
		}
		_exit(0);
	}
	close(fd[0]);
	pin(source);
	start = now_ns();
	end = seconds ? start + seconds * 1000000000ULL : UINT64_MAX;
	for (;;) {
		t = start + next_release(&g);
		if (t >= end)
			break;
		sleep_until(t);
		if (write(fd[1], "x", 1) != 1) {
			perror("write");
			return 1;
		}
	}
	close(fd[1]);
	waitpid(pid, NULL, 0);
	return 0;
}
