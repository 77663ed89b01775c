// SPDX-License-Identifier: GPL-2.0
/*
 * wakeups - early (non-timer) wake-ups on one CPU, for the budget selftests
 *
 * wakeups [-s] TARGET_CPU SOURCE_CPU SECONDS
 *
 * A reader pinned to TARGET_CPU blocks on a pipe; a writer pinned to
 * SOURCE_CPU writes one byte after each pause. Three pauses in ten are
 * short (100..400 us), the others long (1..2 ms), from a fixed-seed
 * generator. The target CPU's idle periods thus end with a cross-CPU
 * wake-up its own timers know nothing about, and about 30% of them end
 * before the target residency of the deep states (500..700 us): a risk
 * between the budget governor's tolerance at pressure 0 (1/8) and at full
 * pressure (1/2).
 *
 * By default the writer sleeps through each pause (nanosleep()), so that
 * its CPU idles too, as a real device's would, and it does not wait for
 * the reader. The target's idle periods are then the pauses only where
 * waking up is fast next to them. On a slow kernel (an emulator without
 * -icount, where a wake-up and a pipe write take hundreds of microseconds
 * of guest time) the writer's own wake-up adds to every pause; and when
 * the target sits in a state with a long exit latency, the reader is
 * still on its way back when a short pause ends, finds the next byte
 * already there and does not idle at all: the short periods vanish
 * exactly when the governor chose deep, and the history it learns from
 * confirms the choice. A test can then land in either mode.
 *
 * With -s (synchronous) each pause starts when the reader is about to
 * block again (it says so through shared memory), and the writer spins
 * through it on the clock: every pause is one idle period of the target,
 * shorter by the reader's way into idle only, however long its wake-ups
 * take. SOURCE_CPU is busy throughout.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../cpuidle_budget_lib/affinity.h"

/* The monotonic clock in seconds. */
static double now(void)
{
	return now_ns() / 1e9;
}

int main(int argc, char **argv)
{
	unsigned int seed = 1;
	double end;
	int fd[2], sync = 0;
	unsigned long *blocks, n = 0;
	pid_t pid;
	char c;

	if (argc == 5 && !strcmp(argv[1], "-s")) {
		sync = 1;
		argv++;
		argc--;
	}
	if (argc != 4) {
		fprintf(stderr, "usage: wakeups [-s] TARGET_CPU SOURCE_CPU SECONDS\n");
		return 2;
	}
	/* How many times the reader went to block on the pipe. */
	blocks = mmap(NULL, sizeof(*blocks), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (blocks == MAP_FAILED || pipe(fd)) {
		perror("mmap, pipe");
		return 1;
	}
	*blocks = 0;
	pid = fork();
	if (pid == 0) {
		close(fd[1]);
		pin(atoi(argv[1]));
		do
			__atomic_add_fetch(blocks, 1, __ATOMIC_RELEASE);
		while (read(fd[0], &c, 1) == 1);
		_exit(0);
	}
	close(fd[0]);
	pin(atoi(argv[2]));
	end = now() + atof(argv[3]);
	while (now() < end) {
		long us = rand_r(&seed) % 10 < 3 ? 100 + rand_r(&seed) % 300 :
						   1000 + rand_r(&seed) % 1000;
		struct timespec ts = { 0, us * 1000 };

		if (sync) {
			double deadline;

			/* Until the reader is on its way to block (or time is up). */
			n++;
			while (__atomic_load_n(blocks, __ATOMIC_ACQUIRE) < n && now() < end)
				;
			deadline = now() + us / 1e6;
			while (now() < deadline)
				;
		} else {
			nanosleep(&ts, NULL);
		}
		if (write(fd[1], "x", 1) != 1) {
			perror("write");
			return 1;
		}
	}
	close(fd[1]);
	waitpid(pid, NULL, 0);
	return 0;
}
