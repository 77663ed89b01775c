// SPDX-License-Identifier: GPL-2.0
/*
 * sporadic - seeded wake-ups of one CPU, timer-driven or from another CPU
 *
 * sporadic [-p] [-s SEED] [-b BURST_US] [-n COUNT] TARGET_CPU SOURCE_CPU MEAN_US [SECONDS]
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
 * SEED (default 1) makes the run repeatable: the same seed gives the same
 * phase and pauses. The bench (bench/ab.sh) restarts its sporadic loads
 * with the round's seed at the start of every block, so that every arm of
 * a round sees the same wake-ups.
 *
 * With -n, nothing runs: the first COUNT wake-up times (us after the
 * start) are printed, one a line, for a test of the sequence.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "affinity.h"

/* splitmix64: small, and the same sequence on every libc. */
static uint64_t next_u64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in (0, 1]. */
static double next_unit(uint64_t *state)
{
	return ((next_u64(state) >> 11) + 1) / 9007199254740992.0;
}

/* An exponential pause of mean MEAN_US, cut at ten times the mean, in ns. */
static uint64_t next_pause_ns(uint64_t *state, long mean_us)
{
	double pause = -log(next_unit(state)) * mean_us;

	return (uint64_t)(fmin(pause, 10.0 * mean_us) * 1000);
}

static void sleep_until(uint64_t ns)
{
	struct timespec ts = { ns / 1000000000ULL, ns % 1000000000ULL };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* A whole number in MIN..MAX, or exit with a message naming WHAT. */
static long number(const char *text, long min, long max, const char *what)
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

static void usage(void)
{
	fprintf(stderr,
		"usage: sporadic [-p] [-s SEED] [-b BURST_US] [-n COUNT] TARGET_CPU SOURCE_CPU MEAN_US [SECONDS]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	long target, source, mean_us, burst_us = 0, seconds = 0, ncpus, count = 0;
	uint64_t state = 1, next, end;
	int fd[2], opt, periodic = 0;
	pid_t pid;
	char c;

	while ((opt = getopt(argc, argv, "ps:b:n:")) != -1) {
		switch (opt) {
		case 'p':
			periodic = 1;
			break;
		case 's':
			state = number(optarg, 0, 1L << 62, "seed");
			break;
		case 'b':
			burst_us = number(optarg, 0, 10000000, "burst");
			break;
		case 'n':
			count = number(optarg, 1, 100000000, "count");
			break;
		default:
			usage();
		}
	}
	if (argc - optind < 3 || argc - optind > 4)
		usage();
	ncpus = sysconf(_SC_NPROCESSORS_CONF);
	target = number(argv[optind], 0, ncpus - 1, "target CPU");
	source = number(argv[optind + 1], 0, ncpus - 1, "source CPU");
	mean_us = number(argv[optind + 2], 1, 100000000, "mean pause (us)");
	if (argc - optind == 4)
		seconds = number(argv[optind + 3], 0, 100000000, "seconds");
	if (burst_us && burst_us >= mean_us && periodic)
		fprintf(stderr, "sporadic: a burst of %ld us fills a %ld us period\n",
			burst_us, mean_us);
	if (count) {
		uint64_t t = 0;

		/* The same sequence as below, from 0, printed. */
		next_u64(&state);
		if (periodic)
			t = (uint64_t)(next_unit(&state) * mean_us * 1000);
		while (count--) {
			if (!periodic)
				t += next_pause_ns(&state, mean_us);
			printf("%llu\n", (unsigned long long)(t / 1000));
			if (periodic)
				t += mean_us * 1000ULL;
		}
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
		close(fd[1]);
		pin(target);
		while (read(fd[0], &c, 1) == 1) {
			uint64_t stop = now_ns() + burst_us * 1000ULL;

			while (burst_us && now_ns() < stop)
				;
		}
		_exit(0);
	}
	close(fd[0]);
	pin(source);
	/* Mix the seed once, so that seeds 1, 2, 3 start far apart. */
	next_u64(&state);
	next = now_ns();
	if (periodic)
		next += (uint64_t)(next_unit(&state) * mean_us * 1000);
	end = seconds ? now_ns() + seconds * 1000000000ULL : UINT64_MAX;
	for (;;) {
		if (!periodic)
			next += next_pause_ns(&state, mean_us);
		if (next >= end)
			break;
		sleep_until(next);
		if (write(fd[1], "x", 1) != 1) {
			perror("write");
			return 1;
		}
		if (periodic)
			next += mean_us * 1000ULL;
	}
	close(fd[1]);
	waitpid(pid, NULL, 0);
	return 0;
}
