// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-mmap - CPU mappings of dumb buffers map the right pages.
 *
 * atomkms maps a window of pages per page fault (module/atomkms_gem.c), so
 * every access must still reach the page at its own offset: whole and
 * partial mappings, touched forwards, backwards and down a column, two
 * mappings of one buffer at once, a mapping inherited by a child process,
 * and buffers whose size is not a multiple of the window. Each write is
 * checked through a fresh mapping, whose page tables start empty.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "drmutil.h"
#include "tap.h"

#define PAGE 4096u

struct bo {
	uint32_t handle, pitch;
	uint64_t size, offset;
};

static int bo_create(int fd, uint32_t w, uint32_t h, struct bo *bo)
{
	struct drm_mode_create_dumb c = { .width = w, .height = h, .bpp = 32 };
	struct drm_mode_map_dumb m = { 0 };

	if (drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &c))
		return -errno;
	m.handle = c.handle;
	if (drmIoctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &m))
		return -errno;
	*bo = (struct bo){ c.handle, c.pitch, c.size, m.offset };
	return 0;
}

static void bo_destroy(int fd, struct bo *bo)
{
	struct drm_mode_destroy_dumb d = { .handle = bo->handle };

	drmIoctl(fd, DRM_IOCTL_MODE_DESTROY_DUMB, &d);
}

static uint32_t *bo_map(int fd, const struct bo *bo, uint64_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		       bo->offset);

	return p == MAP_FAILED ? NULL : p;
}

/* The word every page starts with, and one in its middle. */
static uint32_t tag(uint64_t page, uint32_t salt)
{
	return (uint32_t)(page * 2654435761u) ^ salt;
}

/* Pages of @bo whose first word is not tag(page, salt): -1 if unmappable. */
static long bo_count_wrong(int fd, const struct bo *bo, uint32_t salt)
{
	uint64_t pages = bo->size / PAGE, i;
	uint32_t *p = bo_map(fd, bo, bo->size);
	long wrong = 0;

	if (!p)
		return -1;
	for (i = 0; i < pages; i++)
		wrong += p[i * PAGE / 4] != tag(i, salt) ||
			 p[i * PAGE / 4 + 517] != ~tag(i, salt);
	munmap(p, bo->size);
	return wrong;
}

static void write_page(uint32_t *p, uint64_t page, uint32_t salt)
{
	p[page * PAGE / 4] = tag(page, salt);
	p[page * PAGE / 4 + 517] = ~tag(page, salt);
}

static void test_orders(int fd, const char *what, uint32_t w, uint32_t h)
{
	struct bo bo;
	uint64_t pages, i;
	uint32_t *p;
	int err = bo_create(fd, w, h, &bo);

	if (!check(!err, sf("%s: create %ux%u", what, w, h), strerror(-err)))
		return;
	pages = bo.size / PAGE;

	/* Forwards. */
	p = bo_map(fd, &bo, bo.size);
	if (check(p != NULL, sf("%s: map", what), strerror(errno))) {
		for (i = 0; i < pages; i++)
			write_page(p, i, 1);
		munmap(p, bo.size);
		check(bo_count_wrong(fd, &bo, 1) == 0,
		      sf("%s: %llu pages written forwards read back", what,
			 (unsigned long long)pages), "pages differ");
	}

	/* Backwards: each fault lands at the end of its window first. */
	p = bo_map(fd, &bo, bo.size);
	if (p) {
		for (i = pages; i-- > 0;)
			write_page(p, i, 2);
		munmap(p, bo.size);
		check(bo_count_wrong(fd, &bo, 2) == 0,
		      sf("%s: pages written backwards read back", what),
		      "pages differ");
	}

	/* Odd pages only, then even pages through a second mapping. */
	p = bo_map(fd, &bo, bo.size);
	if (p) {
		uint32_t *q = bo_map(fd, &bo, bo.size);

		for (i = 1; i < pages; i += 2)
			write_page(p, i, 3);
		if (q) {
			for (i = 0; i < pages; i += 2)
				write_page(q, i, 3);
			check(q[PAGE / 4] == tag(1, 3) &&
			      p[0] == tag(0, 3),
			      sf("%s: two mappings see each other's writes",
				 what), "stale page");
			munmap(q, bo.size);
		}
		munmap(p, bo.size);
		check(bo_count_wrong(fd, &bo, 3) == 0,
		      sf("%s: interleaved writes through two mappings read back",
			 what), "pages differ");
	}

	/* A 1-pixel column, as igt paints one. */
	p = bo_map(fd, &bo, bo.size);
	if (p) {
		uint32_t y, bad = 0;

		for (y = 0; y < h; y++)
			p[y * (bo.pitch / 4) + 7] = 0x00c0ffee ^ y;
		munmap(p, bo.size);
		p = bo_map(fd, &bo, bo.size);
		for (y = 0; p && y < h; y++)
			bad += p[y * (bo.pitch / 4) + 7] != (0x00c0ffee ^ y);
		check(p && !bad, sf("%s: a 1-pixel column reads back", what),
		      sf("%u of %u lines differ", bad, h));
		if (p)
			munmap(p, bo.size);
	}
	bo_destroy(fd, &bo);
}

/* A mapping shorter than the buffer covers just its own pages. */
static void test_partial(int fd)
{
	struct bo bo;
	uint64_t pages, len, i;
	uint32_t *p, *full;
	int err = bo_create(fd, 1024, 768, &bo);

	if (!check(!err, "partial: create 1024x768", strerror(-err)))
		return;
	pages = bo.size / PAGE;
	full = bo_map(fd, &bo, bo.size);
	if (!check(full != NULL, "partial: map", strerror(errno)))
		goto out;
	for (i = 0; i < pages; i++)
		write_page(full, i, 4);
	munmap(full, bo.size);

	/* 37 pages: not a multiple of any power-of-two window. */
	len = 37 * PAGE;
	p = bo_map(fd, &bo, len);
	if (check(p != NULL, "partial: map 37 pages", strerror(errno))) {
		for (i = 37; i-- > 0;)
			write_page(p, i, 5);
		munmap(p, len);
	}
	full = bo_map(fd, &bo, bo.size);
	if (full) {
		long early = 0, late = 0;

		for (i = 0; i < pages; i++) {
			uint32_t salt = i < 37 ? 5 : 4;
			long bad = full[i * PAGE / 4] != tag(i, salt);

			if (i < 37)
				early += bad;
			else
				late += bad;
		}
		check(!early, "partial: its 37 pages were written",
		      sf("%ld wrong", early));
		check(!late, "partial: the pages beyond it were not",
		      sf("%ld changed", late));
		munmap(full, bo.size);
	}
out:
	bo_destroy(fd, &bo);
}

/* A child inherits the mapping (vm_open) and writes through it. */
static void test_fork(int fd)
{
	struct bo bo;
	uint64_t pages, i;
	uint32_t *p;
	int status = -1, err = bo_create(fd, 640, 480, &bo);
	pid_t pid;

	if (!check(!err, "fork: create 640x480", strerror(-err)))
		return;
	pages = bo.size / PAGE;
	p = bo_map(fd, &bo, bo.size);
	if (!check(p != NULL, "fork: map", strerror(errno)))
		goto out;
	write_page(p, 0, 6);
	pid = fork();
	if (pid == 0) {
		for (i = 0; i < pages; i++)
			write_page(p, i, 6);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	check(pid > 0 && WIFEXITED(status) && !WEXITSTATUS(status),
	      "fork: the child wrote through the inherited mapping",
	      sf("status %d", status));
	check(p[(pages - 1) * PAGE / 4] == tag(pages - 1, 6),
	      "fork: the parent sees the child's writes", "stale page");
	munmap(p, bo.size);
	check(bo_count_wrong(fd, &bo, 6) == 0,
	      "fork: the buffer holds the child's writes", "pages differ");
out:
	bo_destroy(fd, &bo);
}

int main(void)
{
	int fd = atomkms_open();

	if (fd < 0) {
		printf("test-mmap: FAIL (no atomkms device)\n");
		return 1;
	}
	test_orders(fd, "1920x1080", 1920, 1080);
	/* 10 pages: smaller than one window. */
	test_orders(fd, "100x100", 100, 100);
	/* A size that ends in the middle of a window. */
	test_orders(fd, "1000x333", 1000, 333);
	test_partial(fd);
	test_fork(fd);
	return tap_done("test-mmap");
}
