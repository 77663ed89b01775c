// SPDX-License-Identifier: GPL-2.0
/*
 * wakeups - early (non-timer) wake-ups on one CPU, for the budget selftests
 *
 * wakeups TARGET_CPU SOURCE_CPU SECONDS
 *
 * A reader pinned to TARGET_CPU blocks on a pipe; a writer pinned to
 * SOURCE_CPU writes one byte after each pause. Three pauses in ten are
 * short (100..400 us), the others long (1..2 ms), from a fixed-seed
 * generator. The target CPU's idle periods thus end with a cross-CPU
 * wake-up its own timers know nothing about, and about 30% of them end
 * before the target residency of the deep states (500..700 us): a risk
 * between the budget governor's tolerance at pressure 0 (1/8) and at full
 * pressure (1/2).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("sched_setaffinity");
		exit(1);
	}
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	unsigned int seed = 1;
	double end;
	int fd[2];
	pid_t pid;
	char c;

	if (argc != 4) {
		fprintf(stderr, "usage: wakeups TARGET_CPU SOURCE_CPU SECONDS\n");
		return 2;
	}
	if (pipe(fd)) {
		perror("pipe");
		return 1;
	}
	pid = fork();
	if (pid == 0) {
		close(fd[1]);
		pin(atoi(argv[1]));
		while (read(fd[0], &c, 1) == 1)
			;
		_exit(0);
	}
	close(fd[0]);
	pin(atoi(argv[2]));
	end = now() + atof(argv[3]);
	while (now() < end) {
		long us = rand_r(&seed) % 10 < 3 ? 100 + rand_r(&seed) % 300 :
						   1000 + rand_r(&seed) % 1000;
		struct timespec ts = { 0, us * 1000 };

		nanosleep(&ts, NULL);
		if (write(fd[1], "x", 1) != 1) {
			perror("write");
			return 1;
		}
	}
	close(fd[1]);
	waitpid(pid, NULL, 0);
	return 0;
}
