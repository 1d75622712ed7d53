// SPDX-License-Identifier: GPL-2.0-only
/*
 * frame-check: what a real client drew against what atomkms composed.
 *
 * The clients stage (test/clients/) captures frames from the clients'
 * own side (weston's screenshots, grim, modetest's writeback dump) and
 * compares them with atomkms's live CRC, which the DRM CRC API reports
 * for the frame the CRTC scans out. An image's CRC is computed with the
 * module's own frame checksum (module/core/atomkms_crc.c, built unchanged), on
 * its pixels as the 0xXXRRGGBB lines the compositor core hashes: equal
 * values mean the image is, pixel for pixel, the frame atomkms composed.
 *
 * Usage:
 *   frame-check crc IMAGE          print IMAGE's frame CRC as crc/data does
 *   frame-check cmp IMAGE IMAGE    exit 0 if both have the same pixels
 *   frame-check live [-c CRTC] [-n N]
 *                                  print the live CRC of N frames (3) in a row
 *   frame-check match IMAGE [-c CRTC] [-n N]
 *                                  exit 0 if one of the next N live frames
 *                                  (default 10) has IMAGE's CRC
 *   frame-check count -t SECONDS [-p PID] [-c CRTC]
 *                                  frames and distinct live CRCs in a window,
 *                                  or until process PID ends
 *   frame-check drawn IMAGE RRGGBB
 *                                  exit 0 if at least 1000 pixels are not
 *                                  the background RRGGBB (a client drew)
 *   frame-check bars IMAGE X,Y,W,H,RRGGBB
 *                                  modetest's picture: SMPTE bars above an
 *                                  overlay of plain colour RRGGBB at X,Y
 *
 * IMAGE is a PNG file (any colour type; alpha ignored, as the CRC
 * ignores the X byte) or raw:WIDTHxHEIGHT:PITCH:FILE for an XRGB8888
 * dump (modetest -o). Exit status: 0 pass, 1 mismatch, 2 error.
 */
#include <errno.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "atomkms_crc.h"
#include "drmutil.h"

struct image {
	unsigned int width, height;
	uint32_t *px;		/* 0xXXRRGGBB, width * height */
};

static int load_png(const char *path, struct image *img)
{
	png_image pi = { .version = PNG_IMAGE_VERSION };

	if (!png_image_begin_read_from_file(&pi, path)) {
		fprintf(stderr, "frame-check: %s: %s\n", path, pi.message);
		return -1;
	}
	/* BGRA in memory is 0xAARRGGBB as a little-endian word. */
	pi.format = PNG_FORMAT_BGRA;
	img->width = pi.width;
	img->height = pi.height;
	img->px = malloc(PNG_IMAGE_SIZE(pi));
	if (!img->px ||
	    !png_image_finish_read(&pi, NULL, img->px, 0, NULL)) {
		fprintf(stderr, "frame-check: %s: %s\n", path,
			img->px ? pi.message : "out of memory");
		png_image_free(&pi);
		return -1;
	}
	return 0;
}

/* raw:WxH:PITCH:FILE, XRGB8888 little-endian lines PITCH bytes apart. */
static int load_raw(const char *spec, struct image *img)
{
	unsigned int w, h, pitch, y;
	int consumed = 0;
	FILE *f;
	int ret = -1;

	if (sscanf(spec, "raw:%ux%u:%u:%n", &w, &h, &pitch, &consumed) != 3 ||
	    !consumed || !w || !h || pitch < w * 4) {
		fprintf(stderr, "frame-check: bad raw spec %s\n", spec);
		return -1;
	}
	f = fopen(spec + consumed, "rb");
	if (!f) {
		fprintf(stderr, "frame-check: %s: %s\n", spec + consumed,
			strerror(errno));
		return -1;
	}
	img->width = w;
	img->height = h;
	img->px = malloc((size_t)w * h * 4);
	if (!img->px)
		goto out;
	for (y = 0; y < h; y++) {
		if (fseek(f, (long)y * pitch, SEEK_SET) ||
		    fread(img->px + (size_t)y * w, 4, w, f) != w) {
			fprintf(stderr, "frame-check: %s: short file at line %u\n",
				spec + consumed, y);
			goto out;
		}
	}
	ret = 0;
out:
	fclose(f);
	return ret;
}

static int load(const char *spec, struct image *img)
{
	return strncmp(spec, "raw:", 4) ? load_png(spec, img) :
					  load_raw(spec, img);
}

static uint64_t image_crc(const struct image *img)
{
	struct atomkms_crc c;
	unsigned int y;

	atomkms_crc_init(&c);
	for (y = 0; y < img->height; y++)
		atomkms_crc_line(&c, img->px + (size_t)y * img->width,
				 img->width);
	return atomkms_crc_final(&c);
}

static void print_crc(const char *what, uint64_t v)
{
	printf("%s 0x%08x 0x%08x\n", what, (uint32_t)(v >> 32), (uint32_t)v);
}

static int cmd_cmp(const char *a, const char *b)
{
	struct image ia, ib;
	unsigned int x, y;

	if (load(a, &ia) || load(b, &ib))
		return 2;
	if (ia.width != ib.width || ia.height != ib.height) {
		printf("differ: %ux%u against %ux%u\n", ia.width, ia.height,
		       ib.width, ib.height);
		return 1;
	}
	for (y = 0; y < ia.height; y++)
		for (x = 0; x < ia.width; x++) {
			uint32_t pa = ia.px[(size_t)y * ia.width + x] & 0xffffff;
			uint32_t pb = ib.px[(size_t)y * ib.width + x] & 0xffffff;

			if (pa != pb) {
				printf("differ: first at (%u,%u): %06x against %06x\n",
				       x, y, pa, pb);
				return 1;
			}
		}
	printf("identical: %ux%u\n", ia.width, ia.height);
	return 0;
}

struct live {
	int fd;
	struct crc_reader crc;
};

static int live_start(struct live *l, int crtc)
{
	int ret;

	l->fd = atomkms_open();
	if (l->fd < 0) {
		fprintf(stderr, "frame-check: no atomkms device\n");
		return -1;
	}
	/*
	 * The first opener of a device with no master becomes master: give
	 * it up, or the client under test (kmscube, modetest) cannot be.
	 */
	drmDropMaster(l->fd);
	ret = crc_reader_init(&l->crc, l->fd, crtc);
	if (!ret)
		ret = crc_reader_start(&l->crc);
	if (ret) {
		fprintf(stderr, "frame-check: CRC capture of crtc %d: %s\n",
			crtc, strerror(-ret));
		return -1;
	}
	return 0;
}

static void live_stop(struct live *l)
{
	crc_reader_stop(&l->crc);
	close(l->fd);
}

/* The first entry of a frame that began after now (not a queued one). */
static int live_first(struct live *l, int crtc, struct crc_entry *e)
{
	uint32_t now;
	int ret;

	ret = vblank_count(l->fd, crtc, &now);
	if (!ret)
		ret = crc_reader_next_after(&l->crc, now, e, 2000);
	if (ret)
		fprintf(stderr, "frame-check: no live CRC: %s\n", strerror(-ret));
	return ret;
}

static int cmd_live(int crtc, int n)
{
	struct crc_entry e, first;
	struct live l;
	int i, same = 1;

	if (live_start(&l, crtc) || live_first(&l, crtc, &first))
		return 2;
	print_crc("live", first.value);
	for (i = 1; i < n; i++) {
		if (crc_reader_next(&l.crc, &e, 2000)) {
			fprintf(stderr, "frame-check: live CRC stopped\n");
			return 2;
		}
		print_crc("live", e.value);
		same &= e.value == first.value;
	}
	live_stop(&l);
	return same ? 0 : 1;
}

static int cmd_match(const char *spec, int crtc, int n)
{
	struct crc_entry e;
	struct image img;
	struct live l;
	uint64_t want;
	int i;

	if (load(spec, &img))
		return 2;
	want = image_crc(&img);
	print_crc("image", want);
	if (live_start(&l, crtc) || live_first(&l, crtc, &e))
		return 2;
	for (i = 0; i < n; i++) {
		print_crc("live", e.value);
		if (e.value == want) {
			printf("match: frame %u of crtc %d is the image (%ux%u)\n",
			       e.frame, crtc, img.width, img.height);
			live_stop(&l);
			return 0;
		}
		if (i + 1 < n && crc_reader_next(&l.crc, &e, 2000))
			break;
	}
	live_stop(&l);
	printf("mismatch: no live frame of %d has the image's CRC\n", n);
	return 1;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Has process @pid ended? A zombie (not yet waited for) has. */
static bool ended(int pid)
{
	char path[32], buf[256], *p;
	FILE *f;
	bool gone;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return true;
	p = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
	gone = !p || p[1] != ' ' || p[2] == 'Z' || p[2] == 'X';
	fclose(f);
	return gone;
}

/*
 * Frames seen and how many distinct CRCs they had, over @secs seconds or
 * until process @pid (if not 0) ends.
 */
static int cmd_count(int crtc, double secs, int pid)
{
	unsigned int frames = 0, distinct = 0, cap = 1024, i;
	uint64_t *seen = malloc(cap * sizeof(*seen));
	double end = now_s() + secs;
	struct crc_entry e;
	struct live l;

	if (!seen || live_start(&l, crtc) || live_first(&l, crtc, &e))
		return 2;
	do {
		frames++;
		for (i = 0; i < distinct && seen[i] != e.value; i++)
			;
		if (i == distinct) {
			if (distinct == cap) {
				cap *= 2;
				seen = realloc(seen, cap * sizeof(*seen));
				if (!seen)
					return 2;
			}
			seen[distinct++] = e.value;
		}
	} while (now_s() < end && !(pid && ended(pid)) &&
		 !crc_reader_next(&l.crc, &e, 2000));
	live_stop(&l);
	printf("count: %u frames, %u distinct CRCs in %.1f s\n", frames,
	       distinct, now_s() - (end - secs));
	return 0;
}

/*
 * modetest's primary plane shows libdrm's SMPTE pattern, whose top two
 * thirds are seven bars of 75% colours, each a seventh of the width; its
 * overlay (-F ...,plain) is one plain colour. Check every pixel of the
 * overlay and of the bars' middle band outside it.
 */
static int cmd_bars(const char *spec, const char *rect)
{
	static const uint32_t bars[7] = {
		0xc0c0c0, 0xc0c000, 0x00c0c0, 0x00c000,
		0xc000c0, 0xc00000, 0x0000c0,
	};
	unsigned int ox, oy, ow, oh, x, y, bad = 0, checked = 0;
	struct image img;
	uint32_t colour;

	if (sscanf(rect, "%u,%u,%u,%u,%x", &ox, &oy, &ow, &oh, &colour) != 5) {
		fprintf(stderr, "frame-check: bad overlay %s\n", rect);
		return 2;
	}
	if (load(spec, &img))
		return 2;
	for (y = 0; y < img.height * 6 / 9; y++)
		for (x = 0; x < img.width; x++) {
			uint32_t p = img.px[(size_t)y * img.width + x] & 0xffffff;
			bool in = x >= ox && x < ox + ow && y >= oy && y < oy + oh;
			unsigned int bar = x * 7 / img.width;
			uint32_t want = in ? colour : bars[bar];

			/* Bar edges round differently; skip their columns. */
			if (!in && (x * 7 % img.width < 7 ||
				    (x + 1) * 7 / img.width != bar))
				continue;
			checked++;
			if (p != want && bad++ < 5)
				printf("bars: (%u,%u) is %06x, want %06x%s\n", x, y,
				       p, want, in ? " (overlay)" : "");
		}
	printf("bars: %u of %u pixels differ (%ux%u)\n", bad, checked,
	       img.width, img.height);
	return bad ? 1 : 0;
}

/* Did a client draw on the background @bg? */
static int cmd_drawn(const char *spec, const char *bg)
{
	unsigned long n = 0, i;
	struct image img;
	uint32_t colour;

	if (sscanf(bg, "%x", &colour) != 1 || load(spec, &img))
		return 2;
	for (i = 0; i < (unsigned long)img.width * img.height; i++)
		n += (img.px[i] & 0xffffff) != colour;
	printf("drawn: %lu pixels are not the background %06x\n", n, colour);
	return n >= 1000 ? 0 : 1;
}

static int usage(void)
{
	fprintf(stderr,
		"usage: frame-check crc IMAGE | cmp IMAGE IMAGE |\n"
		"       live [-c CRTC] [-n N] | match IMAGE [-c CRTC] [-n N] |\n"
		"       count -t SECONDS [-p PID] [-c CRTC] | drawn IMAGE RRGGBB |\n"
		"       bars IMAGE X,Y,W,H,RRGGBB\n");
	return 2;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";
	const char *arg[2] = { NULL, NULL };
	int crtc = 0, n = 0, na = 0, pid = 0, i;
	double secs = 0;
	struct image img;

	for (i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "-c") && i + 1 < argc)
			crtc = atoi(argv[++i]);
		else if (!strcmp(argv[i], "-n") && i + 1 < argc)
			n = atoi(argv[++i]);
		else if (!strcmp(argv[i], "-p") && i + 1 < argc)
			pid = atoi(argv[++i]);
		else if (!strcmp(argv[i], "-t") && i + 1 < argc)
			secs = atof(argv[++i]);
		else if (na < 2)
			arg[na++] = argv[i];
		else
			return usage();
	}
	if (!strcmp(cmd, "crc") && na == 1) {
		if (load(arg[0], &img))
			return 2;
		print_crc("image", image_crc(&img));
		return 0;
	}
	if (!strcmp(cmd, "cmp") && na == 2)
		return cmd_cmp(arg[0], arg[1]);
	if (!strcmp(cmd, "live") && na == 0)
		return cmd_live(crtc, n > 0 ? n : 3);
	if (!strcmp(cmd, "match") && na == 1)
		return cmd_match(arg[0], crtc, n > 0 ? n : 10);
	if (!strcmp(cmd, "count") && na == 0 && secs > 0)
		return cmd_count(crtc, secs, pid);
	if (!strcmp(cmd, "drawn") && na == 2)
		return cmd_drawn(arg[0], arg[1]);
	if (!strcmp(cmd, "bars") && na == 2)
		return cmd_bars(arg[0], arg[1]);
	return usage();
}
