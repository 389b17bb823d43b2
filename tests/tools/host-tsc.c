// SPDX-License-Identifier: GPL-2.0
/*
 * host-tsc: print this host's time-stamp counter rate in kHz.
 *
 * Under TCG, QEMU's guest reads the host's TSC (cpu_get_host_ticks), so
 * this is the rate of the guest's TSC too. The test kernel has no ACPI, so
 * no HPET or PM timer to calibrate its TSC against: boot.sh gives it this
 * rate (tsc_early_khz=) instead of the PIT calibration, which a loaded host
 * throws off (tests/qemu/boot.sh).
 *
 * Two (TSC, CLOCK_MONOTONIC_RAW) pairs 200 ms apart, each the tightest of a
 * few bracketed reads: a preemption between the two reads of a pair costs
 * a retry, not a wrong rate. Exit 1 (nothing printed) when no pair is
 * tight or the rate is not plausible.
 */
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <x86intrin.h>

struct pair {
	uint64_t tsc;
	uint64_t ns;
};

static uint64_t ns_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC_RAW, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* The pair whose TSC reads around the clock read are closest. */
static int sample(struct pair *p)
{
	uint64_t best = UINT64_MAX;
	int i;

	for (i = 0; i < 50; i++) {
		uint64_t a = __rdtsc();
		uint64_t ns = ns_now();
		uint64_t b = __rdtsc();

		if (b > a && b - a < best) {
			best = b - a;
			p->tsc = a + (b - a) / 2;
			p->ns = ns;
		}
	}
	/* 100 us of TSC at 10 GHz: more means every read was interrupted. */
	return best < 1000000 ? 0 : -1;
}

int main(void)
{
	struct timespec wait = { 0, 200 * 1000 * 1000 };
	struct pair p0, p1;
	double khz;

	if (sample(&p0))
		return 1;
	nanosleep(&wait, NULL);
	if (sample(&p1) || p1.ns <= p0.ns || p1.tsc <= p0.tsc)
		return 1;
	khz = (double)(p1.tsc - p0.tsc) * 1e6 / (double)(p1.ns - p0.ns);
	if (khz < 100000 || khz > 10000000)
		return 1;
	printf("%.0f\n", khz);
	return 0;
}
