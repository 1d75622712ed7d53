// SPDX-License-Identifier: GPL-2.0-only
/*
 * dumb_paint - what a client pays to draw into a dumb buffer through a
 * fresh CPU mapping, as igt does around every cairo paint: MAP_DUMB,
 * mmap, write, munmap. Two patterns: a 1-pixel column down every line
 * (a page fault per line with the helper's one-page faults) and the
 * whole buffer. Run inside the guest on /dev/dri/card0, whichever driver
 * holds it; prints "RESULT LABEL key=value..." with per-round medians.
 *
 * Usage: dumb_paint LABEL WIDTH HEIGHT [ROUNDS]
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <drm.h>
#include <drm_mode.h>

#define MAX_ROUNDS 200

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
	struct drm_mode_create_dumb create = { .bpp = 32 };
	struct drm_mode_map_dumb map = { 0 };
	double column[MAX_ROUNDS], whole[MAX_ROUNDS];
	int rounds, fd, i, pattern;

	if (argc < 4) {
		fprintf(stderr, "usage: %s LABEL WIDTH HEIGHT [ROUNDS]\n", argv[0]);
		return 2;
	}
	create.width = atoi(argv[2]);
	create.height = atoi(argv[3]);
	rounds = argc > 4 ? atoi(argv[4]) : 40;
	if (rounds < 1 || rounds > MAX_ROUNDS)
		rounds = 40;
	fd = open("/dev/dri/card0", O_RDWR);
	if (fd < 0 || ioctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &create)) {
		perror("dumb_paint: CREATE_DUMB");
		return 1;
	}
	map.handle = create.handle;
	for (i = 0; i < rounds; i++) {
		for (pattern = 0; pattern < 2; pattern++) {
			double t = now_ms();
			uint8_t *p;
			uint32_t y;

			if (ioctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &map)) {
				perror("dumb_paint: MAP_DUMB");
				return 1;
			}
			p = mmap(NULL, create.size, PROT_READ | PROT_WRITE,
				 MAP_SHARED, fd, map.offset);
			if (p == MAP_FAILED) {
				perror("dumb_paint: mmap");
				return 1;
			}
			if (pattern == 0)
				for (y = 0; y < create.height; y++)
					*(volatile uint32_t *)(p + y * create.pitch +
							       4 * (i % create.width)) = y;
			else
				memset(p, i, create.size);
			munmap(p, create.size);
			(pattern ? whole : column)[i] = now_ms() - t;
		}
	}
	printf("RESULT %s mode=%ux%u pitch=%u rounds=%d paint_column_ms=%.3f paint_whole_ms=%.3f\n",
	       argv[1], create.width, create.height, create.pitch, rounds,
	       median(column, rounds), median(whole, rounds));
	return 0;
}
