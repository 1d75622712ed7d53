// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-tiles: a tiled monitor (module/atomkms_tile.c). With the tiles
 * module parameters (tiles_across=2 ...), the tiled connectors' TILE
 * property as the DRM core made it from the DisplayID block of their
 * EDIDs (one group, one enclosure, the grid, each tile's place and size),
 * the EDID's DisplayID extension; then every tile set to its mode in one
 * modeset, showing its part of one framebuffer, and 120 commits that flip
 * all tiles at once with events: every commit's events carry the same
 * timestamp and the same sequence step on every tile. Without tiles, no
 * connector has a TILE value. Then the same on a configfs device of two
 * 1280x1440 tiles (tile_group, tiles_across, tile_h_loc), with the errno
 * of bad tile writes and the refusal of impossible tile groups at enable.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <xf86drm.h>
#include <xf86drmMode.h>

#include "drmutil.h"
#include "tap.h"

#define MAX_TILES	8
#define FLIPS		120

struct tile {
	uint32_t conn;
	int group, one_box, nh, nv, hloc, vloc, w, h;
	struct kms_pipe pipe;
	drmModeModeInfo mode;
	unsigned int events, seq, last_seq;
	uint64_t us;
};

static struct tile tiles[MAX_TILES];
static int ntiles;

/* TILE of @conn, "group:one_box:nh:nv:hloc:vloc:w:h": 1, 0 if empty. */
static int read_tile(int fd, uint32_t conn, struct tile *t)
{
	drmModePropertyBlobPtr blob;
	uint64_t id;
	int n;

	if (prop_get(fd, conn, DRM_MODE_OBJECT_CONNECTOR, "TILE", &id))
		return -1;
	if (!id)
		return 0;
	blob = drmModeGetPropertyBlob(fd, (uint32_t)id);
	if (!blob)
		return -1;
	n = sscanf(blob->data, "%d:%d:%d:%d:%d:%d:%d:%d", &t->group,
		   &t->one_box, &t->nh, &t->nv, &t->hloc, &t->vloc, &t->w,
		   &t->h);
	drmModeFreePropertyBlob(blob);
	t->conn = conn;
	return n == 8 ? 1 : -1;
}

static void check_edid(int fd, const struct tile *t)
{
	drmModePropertyBlobPtr blob;
	const uint8_t *e, *d = NULL;
	uint64_t id;
	uint32_t i;

	if (prop_get(fd, t->conn, DRM_MODE_OBJECT_CONNECTOR, "EDID", &id) ||
	    !(blob = drmModeGetPropertyBlob(fd, (uint32_t)id))) {
		check(false, "tile: EDID property", "none");
		return;
	}
	e = blob->data;
	for (i = 1; (i + 1) * 128 <= blob->length; i++)
		if (e[i * 128] == 0x70)
			d = e + i * 128;
	/* The DisplayID section's data blocks: a tiled display one, 22 bytes. */
	for (i = 5; d && i + 3 <= 5u + d[2] && i + 3 + d[i + 2] <= 127; i += 3 + d[i + 2])
		if (d[i] == 0x12 && d[i + 2] == 22)
			break;
	check(blob->length == 384 && e[126] == 2 && d &&
	      i + 3 <= 5u + d[2] && d[i] == 0x12 && d[i + 3] == 0x80 &&
	      !memcmp(d + i + 16, "AKX", 3),
	      sf("connector %u: EDID with a DisplayID tiled-display block",
		 t->conn),
	      sf("%u bytes, %u extensions, DisplayID %s", blob->length,
		 e[126], d ? "found" : "missing"));
	drmModeFreePropertyBlob(blob);
}

static void flip_handler(int fd, unsigned int seq, unsigned int sec,
			 unsigned int usec, unsigned int crtc, void *data)
{
	int i;

	(void)fd;
	(void)data;
	for (i = 0; i < ntiles; i++) {
		if (tiles[i].pipe.crtc != crtc)
			continue;
		tiles[i].events++;
		tiles[i].last_seq = tiles[i].seq;
		tiles[i].seq = seq;
		tiles[i].us = (uint64_t)sec * 1000000 + usec;
	}
}

/* Each tile's primary shows its part of @fb, @fb as wide as the monitor. */
static void add_planes(struct areq *r, const struct dumb_fb *fb)
{
	int i;

	for (i = 0; i < ntiles; i++) {
		const struct tile *t = &tiles[i];
		uint32_t p = t->pipe.plane;

		areq_add(r, p, DRM_MODE_OBJECT_PLANE, "FB_ID", fb->fb_id);
		areq_add(r, p, DRM_MODE_OBJECT_PLANE, "CRTC_ID", t->pipe.crtc);
		areq_add(r, p, DRM_MODE_OBJECT_PLANE, "SRC_X",
			 (uint64_t)(t->hloc * t->w) << 16);
		areq_add(r, p, DRM_MODE_OBJECT_PLANE, "SRC_Y",
			 (uint64_t)(t->vloc * t->h) << 16);
		areq_add(r, p, DRM_MODE_OBJECT_PLANE, "SRC_W", (uint64_t)t->w << 16);
		areq_add(r, p, DRM_MODE_OBJECT_PLANE, "SRC_H", (uint64_t)t->h << 16);
		areq_add(r, p, DRM_MODE_OBJECT_PLANE, "CRTC_X", 0);
		areq_add(r, p, DRM_MODE_OBJECT_PLANE, "CRTC_Y", 0);
		areq_add(r, p, DRM_MODE_OBJECT_PLANE, "CRTC_W", t->w);
		areq_add(r, p, DRM_MODE_OBJECT_PLANE, "CRTC_H", t->h);
	}
}

/* Fill @fb with a colour per tile, shaded by @k so that flips differ. */
static void paint(struct dumb_fb *fb, int k)
{
	uint32_t x, y, tw = fb->width / (uint32_t)tiles[0].nh;

	for (y = 0; y < fb->height; y++)
		for (x = 0; x < fb->width; x++)
			fb->pixels[y * (fb->stride / 4) + x] =
				(x / tw) ? 0x000040 + (uint32_t)k * 0x10 :
					   0x400000 + (uint32_t)k * 0x1000;
}

static void run_flips(int fd)
{
	drmEventContext ev = { .version = 3, .page_flip_handler2 = flip_handler };
	struct dumb_fb fb[2];
	uint32_t mode_blob[MAX_TILES];
	unsigned int split = 0, step_bad = 0, commits = 0, skipped = 0;
	int64_t maxdiff = 0;
	struct areq *r = malloc(sizeof(*r));
	int i, k, ret;

	if (!r || dumb_fb_create(fd, (uint32_t)(tiles[0].w * tiles[0].nh),
				 (uint32_t)(tiles[0].h * tiles[0].nv), &fb[0]) ||
	    dumb_fb_create(fd, fb[0].width, fb[0].height, &fb[1])) {
		check(false, "tiles: framebuffers", strerror(errno));
		return;
	}
	paint(&fb[0], 0);
	paint(&fb[1], 1);

	kms_disable_all(fd);
	areq_init(r, fd);
	for (i = 0; i < ntiles; i++) {
		drmModeCreatePropertyBlob(fd, &tiles[i].mode,
					  sizeof(tiles[i].mode), &mode_blob[i]);
		areq_add(r, tiles[i].pipe.crtc, DRM_MODE_OBJECT_CRTC, "MODE_ID",
			 mode_blob[i]);
		areq_add(r, tiles[i].pipe.crtc, DRM_MODE_OBJECT_CRTC, "ACTIVE", 1);
		areq_add(r, tiles[i].conn, DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID",
			 tiles[i].pipe.crtc);
	}
	add_planes(r, &fb[0]);
	ret = areq_commit(r, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
	if (!check(!ret, "tiles: one modeset sets every tile's mode",
		   strerror(-ret)))
		goto out;

	for (k = 0; k < FLIPS; k++) {
		uint64_t us0 = 0;
		unsigned int step0 = 0;

		areq_init(r, fd);
		add_planes(r, &fb[(k + 1) % 2]);
		for (i = 0; i < ntiles; i++)
			tiles[i].events = 0;
		ret = areq_commit(r, DRM_MODE_ATOMIC_NONBLOCK |
				  DRM_MODE_PAGE_FLIP_EVENT, NULL);
		if (ret) {
			check(false, "tiles: flip commit", strerror(-ret));
			break;
		}
		commits++;
		for (;;) {
			int done = 1;

			for (i = 0; i < ntiles; i++)
				done &= tiles[i].events == 1;
			if (done)
				break;
			if (wait_event(fd, &ev, 1000) <= 0) {
				check(false, "tiles: every tile's event within 1 s",
				      sf("flip %d", k));
				goto out;
			}
		}
		for (i = 0; i < ntiles; i++) {
			unsigned int step = tiles[i].seq - tiles[i].last_seq;
			int64_t d;

			if (!i) {
				us0 = tiles[i].us;
				step0 = step;
				continue;
			}
			d = (int64_t)tiles[i].us - (int64_t)us0;
			if (d < 0)
				d = -d;
			if (d > maxdiff)
				maxdiff = d;
			split += d != 0;
			if (k > 0 && step != step0)
				step_bad++;
		}
		skipped += k > 0 && step0 != 1;
	}
	printf("# %u commits flipping %d tiles: %u with split timestamps (max %lld us apart), %u with unequal sequence steps, %u that skipped a vblank\n",
	       commits, ntiles, split, (long long)maxdiff, step_bad, skipped);
	check(commits == FLIPS && !split,
	      "tiles: each commit's events carry one timestamp on every tile",
	      sf("%u of %u split, up to %lld us", split, commits,
		 (long long)maxdiff));
	check(commits == FLIPS && !step_bad,
	      "tiles: each commit advances every tile's sequence alike",
	      sf("%u of %u differ", step_bad, commits));
out:
	kms_disable_all(fd);
	dumb_fb_destroy(fd, &fb[0]);
	dumb_fb_destroy(fd, &fb[1]);
	free(r);
}

/*
 * The checks on one card: its tiled connectors' TILE and EDID, then the
 * flips. Returns the number of tiles found; with none, checks that no
 * connector has a TILE value.
 */
static int test_card(int fd, const char *card)
{
	struct kms_pipe pipes[MAX_TILES];
	drmModeRes *res;
	int npipes, i, j, m, untiled = 0, bad = 0;

	ntiles = 0;
	memset(tiles, 0, sizeof(tiles));
	res = drmModeGetResources(fd);
	if (!check(res != NULL, sf("%s: resources", card), strerror(errno)))
		return 0;
	for (i = 0; i < res->count_connectors && ntiles < MAX_TILES; i++) {
		drmModeConnector *c = drmModeGetConnector(fd, res->connectors[i]);
		int ret;

		if (!c)
			continue;
		if (c->connector_type != DRM_MODE_CONNECTOR_WRITEBACK) {
			ret = read_tile(fd, c->connector_id, &tiles[ntiles]);
			bad += ret < 0;
			if (ret > 0)
				ntiles++;
			else
				untiled++;
		}
		drmModeFreeConnector(c);
	}
	drmModeFreeResources(res);
	check(!bad, sf("%s: TILE readable and well formed where set", card), "");
	if (!ntiles) {
		check(untiled > 0, sf("%s: no tiles, no connector has a TILE value",
				      card), "no connector");
		return 0;
	}

	printf("# %s: %d tiles: %d:%d:%d:%d:%d:%d:%d:%d ...\n", card, ntiles,
	       tiles[0].group, tiles[0].one_box, tiles[0].nh, tiles[0].nv,
	       tiles[0].hloc, tiles[0].vloc, tiles[0].w, tiles[0].h);
	for (i = 0, bad = 0; i < ntiles; i++) {
		const struct tile *t = &tiles[i];

		bad += t->group != tiles[0].group || t->one_box != 1 ||
		       t->nh != tiles[0].nh || t->nv != tiles[0].nv ||
		       t->w != tiles[0].w || t->h != tiles[0].h ||
		       t->hloc >= t->nh || t->vloc >= t->nv;
		for (j = 0; j < i; j++)
			bad += t->hloc == tiles[j].hloc &&
			       t->vloc == tiles[j].vloc;
		check_edid(fd, t);
	}
	check(!bad && ntiles == tiles[0].nh * tiles[0].nv,
	      sf("%s: TILE, one group, one enclosure, every place of the grid once",
		 card),
	      sf("%d tiles of %dx%d, %d bad", ntiles, tiles[0].nh,
		 tiles[0].nv, bad));

	/* A CRTC for each tile, and its mode of the tile's size. */
	npipes = kms_pipes_find(fd, pipes, MAX_TILES);
	for (i = 0, bad = 0; i < ntiles; i++) {
		drmModeConnector *c = drmModeGetConnector(fd, tiles[i].conn);
		int found = 0;

		for (j = 0; j < npipes; j++)
			if (pipes[j].conn == tiles[i].conn) {
				tiles[i].pipe = pipes[j];
				found = 1;
			}
		for (m = 0; c && m < c->count_modes && found < 2; m++)
			if (c->modes[m].hdisplay == tiles[i].w &&
			    c->modes[m].vdisplay == tiles[i].h) {
				tiles[i].mode = c->modes[m];
				found++;
			}
		bad += found != 2;
		drmModeFreeConnector(c);
	}
	if (check(!bad, sf("%s: a CRTC and a mode of the tile's size each", card),
		  sf("%d tiles without", bad)))
		run_flips(fd);
	return ntiles;
}

#define ROOT "/sys/kernel/config/atomkms"
#define P(fmt, ...) sf(ROOT "/" fmt, ##__VA_ARGS__)

/* Two 1280x1440 tiles of one 2560x1440 monitor, as configfs makes it. */
static const char *const dev_script[] = {
	"mkdir tl",
	"mkdir tl/crtcs/c0", "mkdir tl/crtcs/c1",
	"mkdir tl/planes/p0", "put tl/planes/p0/type 1",
	"ln tl/planes/p0/possible_crtcs tl/crtcs/c0",
	"mkdir tl/planes/p1", "put tl/planes/p1/type 1",
	"ln tl/planes/p1/possible_crtcs tl/crtcs/c1",
	"mkdir tl/encoders/e0", "ln tl/encoders/e0/possible_crtcs tl/crtcs/c0",
	"mkdir tl/encoders/e1", "ln tl/encoders/e1/possible_crtcs tl/crtcs/c1",
	"mkdir tl/connectors/n0", "put tl/connectors/n0/type DP",
	"put tl/connectors/n0/preferred_mode 1280x1440",
	"put tl/connectors/n0/tile_group 3", "put tl/connectors/n0/tiles_across 2",
	"ln tl/connectors/n0/possible_encoders tl/encoders/e0",
	"mkdir tl/connectors/n1", "put tl/connectors/n1/type DP",
	"put tl/connectors/n1/preferred_mode 1280x1440",
	"put tl/connectors/n1/tile_group 3", "put tl/connectors/n1/tiles_across 2",
	"ln tl/connectors/n1/possible_encoders tl/encoders/e1",
	NULL
};

static void expect_write(const char *attr, const char *val, int want)
{
	int ret = write_str(P("tl/connectors/n1/%s", attr), val);

	check(ret == -want, sf("configfs: %s \"%s\" answers %s", attr, val,
			       want ? strerror(want) : "success"),
	      strerror(-ret));
}

static void test_configfs(void)
{
	uint64_t before;
	char buf[16] = "";
	FILE *f;
	int fd;

	if (access("/sys/kernel/config", F_OK) == 0 && access(ROOT, F_OK) != 0)
		mount("none", "/sys/kernel/config", "configfs", 0, NULL);
	if (!check(access(ROOT, F_OK) == 0, "configfs has atomkms", ROOT " missing"))
		return;
	atomkms_cfs_remove(P("tl"));
	before = atomkms_card_mask();
	if (!check(!atomkms_cfs_build(ROOT, dev_script), "configfs: two tiles described", "see above"))
		goto out;
	f = fopen(P("tl/connectors/n0/tiles_down"), "r");
	check(f && fgets(buf, sizeof(buf), f) && !strcmp(buf, "1\n"),
	      "configfs: tiles_down reads 1 by default", buf);
	if (f)
		fclose(f);
	expect_write("tile_group", "256", ERANGE);
	expect_write("tile_group", "x", EINVAL);
	expect_write("tiles_across", "0", ERANGE);
	expect_write("tiles_down", "17", ERANGE);
	expect_write("tile_h_loc", "16", ERANGE);
	/*
	 * Refused at enable: both at column 0 (n0 is checked first, fixed-
	 * rate), then n1 with VRR (the default).
	 */
	check(!write_str(P("tl/connectors/n0/vrr"), "0") &&
	      write_str(P("tl/enabled"), "1") == -EINVAL,
	      "configfs: two tiles at one place refused at enable", "enabled");
	expect_write("tile_h_loc", "1", 0);
	check(write_str(P("tl/enabled"), "1") == -EINVAL,
	      "configfs: a tile with vrr 1 refused at enable", "enabled");
	check(!write_str(P("tl/connectors/n1/vrr"), "0") &&
	      !write_str(P("tl/enabled"), "1"),
	      "configfs: the tiled monitor enabled", "refused");
	expect_write("tile_group", "4", EBUSY);
	fd = atomkms_open_card(atomkms_card_mask() & ~before);
	if (check(fd >= 0, "configfs: its card", "missing")) {
		check(test_card(fd, "configfs card") == 2,
		      "configfs card: two tiles", "");
		close(fd);
	}
	check(!write_str(P("tl/enabled"), "0"), "configfs: disabled", "refused");
out:
	atomkms_cfs_remove(P("tl"));
	check(atomkms_card_mask() == before, "configfs: its card is gone",
	      "still there");
}

int main(void)
{
	int fd = atomkms_open();

	if (fd < 0)
		return 2;
	test_card(fd, "default card");
	close(fd);
	test_configfs();
	return tap_done("test-tiles");
}
