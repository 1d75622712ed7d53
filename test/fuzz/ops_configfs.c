// SPDX-License-Identifier: GPL-2.0-only
/*
 * configfs operations: each one makes a second atomkms device in
 * /sys/kernel/config/atomkms/, of a random shape (valid or not, with junk
 * values now and then, in every attribute, EDIDs among them), tries to
 * enable it, plugs and unplugs its connectors, writes the attributes that
 * apply live, and tries a change that an enabled device must refuse, then
 * disables and removes it. Self-contained, so that any subset of a run
 * replays (fuzz.h): the device is named after the operation.
 *
 * Checked as it goes:
 *   - every errno is one configfs or atomkms documents;
 *   - a device that enables has a card, which goes when it is disabled;
 *   - a change to an enabled device other than status answers EBUSY;
 *   - status writes on an enabled device succeed;
 *   - the attributes that apply live do not answer EBUSY there;
 *   - the device's directories all go away in the end.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <xf86drm.h>

#include "fuzz.h"

#define ROOT "/sys/kernel/config/atomkms"

/*
 * configfs's own errnos (ENOENT, EEXIST, ENOTDIR, EPERM on a link to the
 * wrong kind of item, ENOTEMPTY), atomkms's (EINVAL for a bad value or a
 * topology that does not validate, EBUSY for a change to an enabled
 * device, ENODEV for a probe that failed, ERANGE, ENOSPC for too many
 * objects, E2BIG, ENODATA for edid_enabled 1 without an EDID), and
 * ENOMEM. EFAULT: configfs's answer to a write of zero bytes
 * (fill_write_buffer() copied nothing).
 */
static bool cfs_errno_ok(int err)
{
	switch (err) {
	case 0: case ENOENT: case EEXIST: case ENOTDIR: case EPERM:
	case ENOTEMPTY: case EINVAL: case EBUSY: case ENODEV: case ERANGE:
	case ENOSPC: case E2BIG: case ENOMEM: case EFAULT: case ENODATA:
		return true;
	}
	return false;
}

struct cfs {
	struct opctx *o;
	char dev[64];
	int ncrtcs, nplanes, nencs, nconns;
};

static int cfs_check(struct cfs *d, const char *what, int ret)
{
	if (ret < 0 && !cfs_errno_ok(-ret))
		fuzz_fail(d->o->f, FAIL_ERRNO, d->o->idx, "configfs %s: errno %d (%s)",
			  what, -ret, strerror(-ret));
	if (d->o->f->verbose)
		fprintf(stderr, "  op %llu: configfs %s -> %d\n",
			(unsigned long long)d->o->idx, what, ret);
	return ret;
}

static int cfs_mkdir(struct cfs *d, const char *fmt, const char *name)
{
	char path[256], rel[128];

	snprintf(rel, sizeof(rel), fmt, name);
	snprintf(path, sizeof(path), ROOT "/%s/%s", d->dev, rel);
	return cfs_check(d, rel, mkdir(path, 0755) ? -errno : 0);
}

static int cfs_put(struct cfs *d, const char *rel, const char *val)
{
	char path[256], what[160];

	snprintf(path, sizeof(path), ROOT "/%s/%s", d->dev, rel);
	snprintf(what, sizeof(what), "%s = %s", rel, val);
	return cfs_check(d, what, write_str(path, val));
}

/* @dir/NAME -> @target, both relative to the device. */
static int cfs_ln(struct cfs *d, const char *dir, const char *target)
{
	const char *name = strrchr(target, '/');
	char t[256], l[256], what[160];

	snprintf(t, sizeof(t), ROOT "/%s/%s", d->dev, target);
	snprintf(l, sizeof(l), ROOT "/%s/%s/%s", d->dev, dir, name ? name + 1 : target);
	snprintf(what, sizeof(what), "ln %s -> %s", dir, target);
	return cfs_check(d, what, symlink(t, l) ? -errno : 0);
}

/* A value for an attribute: mostly right, sometimes junk. */
static const char *cfs_value(struct opctx *o, const char *good, char *buf,
			     size_t len)
{
	static const char *const junk[] = { "", "-1", "999999999999", "x",
					    "0x10", "1 2", "\n" };

	if (!chance(&o->r, 8))
		return good;
	if (chance(&o->r, 50))
		return junk[rnd_below(&o->r, sizeof(junk) / sizeof(junk[0]))];
	snprintf(buf, len, "%lld", (long long)(int64_t)rnd_weird(&o->r));
	return buf;
}

/*
 * The attributes that do not shape the topology, with values the README
 * documents for each (right and wrong ones: a bad rotation set, a bpc of
 * 9, a mode out of range), which cfs_value() turns into junk now and
 * then. Written before the device is enabled; those marked @live also
 * while it is, where the README says they apply at once.
 */
struct cfs_attr {
	const char *name;
	const char *const val[4];
	bool live;
};

static const struct cfs_attr cfs_device_attrs[] = {
	{ .name = "limits", .val = { "none", "soc", "laptop", "desktop" } },
	{ .name = "max_active_planes", .val = { "0", "1", "3", "64" } },
	{ .name = "num_plls", .val = { "0", "1", "2" } },
	{ .name = "bandwidth_mbps", .val = { "0", "500", "100000" } },
	{ .name = NULL }
};

static const struct cfs_attr cfs_crtc_attrs[] = {
	{ .name = "num_scalers", .val = { "0", "1", "2" } },
	{ .name = NULL }
};

static const struct cfs_attr cfs_plane_attrs[] = {
	{ .name = "supported_formats",
	  .val = { "-* +XR24 +AR24", "+*", "-NV12 -YUYV", "-*" } },
	{ .name = "supported_rotations",
	  .val = { "rotate-0", "0x3f", "rotate-0,reflect-x", "rotate-90" } },
	{ .name = "max_scale_factor", .val = { "1", "4", "16", "17" } },
	{ .name = "zpos_mutable", .val = { "0", "1" } },
	{ .name = "zpos_initial", .val = { "auto", "0", "3", "255" } },
	{ .name = "zpos_min", .val = { "auto", "0", "1" } },
	{ .name = "zpos_max", .val = { "auto", "2", "255" } },
	{ .name = NULL }
};

static const struct cfs_attr cfs_conn_attrs[] = {
	{ .name = "type", .val = { "HDMI-A", "DP", "eDP", "Writeback" } },
	{ .name = "edid_enabled", .val = { "0", "1" }, .live = true },
	{ .name = "preferred_mode",
	  .val = { "1920x1080", "1280x720@75", "640x480", "4096x4096" } },
	{ .name = "non_desktop", .val = { "0", "1" } },
	{ .name = "vrr", .val = { "0", "1" } },
	{ .name = "link_status", .val = { "good", "bad", "fine" },
	  .live = true },
	{ .name = "hdcp", .val = { "none", "1.4", "2.2" } },
	{ .name = "hdcp_delay_ms", .val = { "1", "100", "10000", "0" },
	  .live = true },
	{ .name = "bpc", .val = { "8", "10", "16", "9" } },
	{ .name = "hdr", .val = { "0", "1" } },
	{ .name = "tile_group", .val = { "0", "1", "256" } },
	{ .name = "tiles_across", .val = { "1", "2" } },
	{ .name = "tiles_down", .val = { "1", "2" } },
	{ .name = "tile_h_loc", .val = { "0", "1" } },
	{ .name = "tile_v_loc", .val = { "0", "1" } },
	{ .name = NULL }
};

/*
 * Each of @attrs of object @obj ("" for the device itself) at @pct
 * percent; with @live, only the live ones, and each must answer
 * something other than EBUSY.
 */
static void cfs_attrs(struct cfs *d, const char *obj,
		      const struct cfs_attr *attrs, unsigned int pct,
		      bool live)
{
	struct opctx *o = d->o;
	char rel[96], buf[32];
	const struct cfs_attr *a;
	unsigned int nv;
	int ret;

	for (a = attrs; a->name; a++) {
		if ((live && !a->live) || !chance(&o->r, pct))
			continue;
		for (nv = 0; nv < 4 && a->val[nv]; nv++)
			;
		snprintf(rel, sizeof(rel), "%s%s%s", obj, *obj ? "/" : "",
			 a->name);
		ret = cfs_put(d, rel, cfs_value(o, a->val[rnd_below(&o->r, nv)],
						buf, sizeof(buf)));
		if (live && ret == -EBUSY)
			fuzz_fail(o->f, FAIL_CONFIGFS, o->idx,
				  "configfs %s on an enabled device: EBUSY, though it applies live",
				  rel);
	}
}

/*
 * An EDID for connector @conn: a lone newline (forget it), or 128 or 256
 * bytes with a right header and random bytes after it, whose checksum or
 * extension count is wrong nearly always (EINVAL).
 */
static void cfs_edid(struct cfs *d, const char *conn)
{
	static const unsigned char hdr[8] = { 0, 0xff, 0xff, 0xff, 0xff,
					      0xff, 0xff, 0 };
	struct opctx *o = d->o;
	unsigned char e[256];
	char path[256], what[160];
	size_t n = chance(&o->r, 50) ? 128 : 256, i;
	int fd, ret;

	snprintf(path, sizeof(path), ROOT "/%s/%s/edid", d->dev, conn);
	if (chance(&o->r, 20)) {
		snprintf(what, sizeof(what), "%s/edid = newline", conn);
		cfs_check(d, what, write_str(path, "\n"));
		return;
	}
	memcpy(e, hdr, sizeof(hdr));
	for (i = sizeof(hdr); i < n; i++)
		e[i] = (unsigned char)rnd_below(&o->r, 256);
	fd = open(path, O_WRONLY);
	if (fd < 0) {
		ret = -errno;
	} else {
		ret = write(fd, e, n) < 0 ? -errno : 0;
		close(fd);
	}
	snprintf(what, sizeof(what), "%s/edid = %zu random bytes", conn, n);
	cfs_check(d, what, ret);
}

static void cfs_build(struct cfs *d)
{
	struct opctx *o = d->o;
	char name[16], rel[96], tgt[64], buf[32], val[8];
	int i;

	d->ncrtcs = chance(&o->r, 5) ? 0 : (int)rnd_range(&o->r, 1, 2);
	for (i = 0; i < d->ncrtcs; i++) {
		snprintf(name, sizeof(name), "c%d", i);
		cfs_mkdir(d, "crtcs/%s", name);
		if (chance(&o->r, 30)) {
			snprintf(rel, sizeof(rel), "crtcs/%s/refresh", name);
			cfs_put(d, rel, cfs_value(o, chance(&o->r, 50) ? "75" : "30",
						  buf, sizeof(buf)));
		}
		if (chance(&o->r, 30)) {
			snprintf(rel, sizeof(rel), "crtcs/%s/writeback", name);
			cfs_put(d, rel, cfs_value(o, "1", buf, sizeof(buf)));
		}
		snprintf(rel, sizeof(rel), "crtcs/%s", name);
		cfs_attrs(d, rel, cfs_crtc_attrs, 10, false);
	}
	cfs_attrs(d, "", cfs_device_attrs, 10, false);
	/* A primary per CRTC, sometimes an overlay or a cursor, or none. */
	for (i = 0; i < d->ncrtcs * 2; i++) {
		int type = i < d->ncrtcs ? 1 : (int)rnd_below(&o->r, 3) == 1 ? 0 : 2;

		if (i >= d->ncrtcs && chance(&o->r, 50))
			continue;
		if (chance(&o->r, 4))
			continue;
		snprintf(name, sizeof(name), "p%d", d->nplanes++);
		cfs_mkdir(d, "planes/%s", name);
		snprintf(rel, sizeof(rel), "planes/%s/type", name);
		snprintf(val, sizeof(val), "%d", type);
		cfs_put(d, rel, cfs_value(o, val, buf, sizeof(buf)));
		snprintf(rel, sizeof(rel), "planes/%s", name);
		cfs_attrs(d, rel, cfs_plane_attrs, 10, false);
		snprintf(rel, sizeof(rel), "planes/%s/possible_crtcs", name);
		snprintf(tgt, sizeof(tgt), chance(&o->r, 4) ? "encoders/e%d" : "crtcs/c%d",
			 i % (d->ncrtcs ? d->ncrtcs : 1));
		cfs_ln(d, rel, tgt);
	}
	for (i = 0; i < d->ncrtcs; i++) {
		if (chance(&o->r, 4))
			continue;
		snprintf(name, sizeof(name), "e%d", i);
		cfs_mkdir(d, "encoders/%s", name);
		snprintf(rel, sizeof(rel), "encoders/%s/possible_crtcs", name);
		snprintf(tgt, sizeof(tgt), "crtcs/c%d", i);
		cfs_ln(d, rel, tgt);
		d->nencs++;
	}
	for (i = 0; i < d->ncrtcs; i++) {
		if (chance(&o->r, 4))
			continue;
		snprintf(name, sizeof(name), "n%d", d->nconns++);
		cfs_mkdir(d, "connectors/%s", name);
		snprintf(rel, sizeof(rel), "connectors/%s/possible_encoders", name);
		snprintf(tgt, sizeof(tgt), chance(&o->r, 4) ? "planes/p%d" : "encoders/e%d", i);
		cfs_ln(d, rel, tgt);
		if (chance(&o->r, 30)) {
			snprintf(rel, sizeof(rel), "connectors/%s/status", name);
			cfs_put(d, rel, cfs_value(o, chance(&o->r, 50) ? "1" : "2",
						  buf, sizeof(buf)));
		}
		snprintf(rel, sizeof(rel), "connectors/%s", name);
		if (chance(&o->r, 10))
			cfs_edid(d, rel);
		cfs_attrs(d, rel, cfs_conn_attrs, 10, false);
	}
}

/* While enabled: plug and unplug, then a change it must refuse. */
static void cfs_while_enabled(struct cfs *d)
{
	struct opctx *o = d->o;
	char rel[96];
	int i, n, ret;

	for (n = rnd_range(&o->r, 0, 4); n > 0 && d->nconns; n--) {
		snprintf(rel, sizeof(rel), "connectors/n%d/status",
			 (int)rnd_below(&o->r, d->nconns));
		ret = cfs_put(d, rel, chance(&o->r, 50) ? "1" : "2");
		/* A connector dropped by cfs_build() is not there (ENOENT). */
		if (ret && ret != -ENOENT)
			fuzz_fail(o->f, FAIL_CONFIGFS, o->idx,
				  "configfs %s on an enabled device: %s", rel,
				  strerror(-ret));
	}
	for (n = rnd_range(&o->r, 0, 2); n > 0 && d->nconns; n--) {
		snprintf(rel, sizeof(rel), "connectors/n%d",
			 (int)rnd_below(&o->r, d->nconns));
		if (chance(&o->r, 20))
			cfs_edid(d, rel);
		cfs_attrs(d, rel, cfs_conn_attrs, 40, true);
	}
	i = (int)rnd_below(&o->r, 3);
	ret = i == 0 ? cfs_mkdir(d, "crtcs/%s", "late") :
	      i == 1 ? cfs_put(d, "crtcs/c0/refresh", "50") :
		       cfs_mkdir(d, "planes/%s", "late");
	if (ret != -EBUSY && !(i == 1 && ret == -ENOENT))
		fuzz_fail(o->f, FAIL_CONFIGFS, o->idx,
			  "configfs: a change to an enabled device gave %d, not EBUSY",
			  ret);
}

/* Links, then objects, then the device: nothing may stay. */
static void cfs_teardown(struct cfs *d)
{
	char dir[256];
	int ret;

	snprintf(dir, sizeof(dir), ROOT "/%s", d->dev);
	ret = atomkms_cfs_remove(dir);
	if (ret)
		fuzz_fail(d->o->f, FAIL_CONFIGFS, d->o->idx, "configfs: %s stays: %s",
			  dir, strerror(-ret));
}

void op_configfs(struct opctx *o)
{
	static int mounted;
	struct cfs d = { .o = o };
	uint64_t before, during, after;
	char path[256];
	int ret;

	if (access(ROOT, F_OK)) {
		if (mounted++ || mount("none", "/sys/kernel/config", "configfs", 0, NULL) ||
		    access(ROOT, F_OK))
			return;		/* no atomkms configfs: nothing to fuzz */
	}
	snprintf(d.dev, sizeof(d.dev), "fz%llu", (unsigned long long)o->idx);
	snprintf(path, sizeof(path), ROOT "/%s", d.dev);
	if (cfs_check(&d, "mkdir device", mkdir(path, 0755) ? -errno : 0))
		return;
	cfs_build(&d);

	before = atomkms_card_mask();
	ret = cfs_put(&d, "enabled", chance(&o->r, 95) ? "1" : "yes");
	STAT(o->f, ST_CONFIGFS);
	if (!ret) {
		STAT(o->f, ST_CONFIGFS_ENABLED);
		during = atomkms_card_mask();
		if (!(during & ~before))
			fuzz_fail(o->f, FAIL_CONFIGFS, o->idx,
				  "configfs: device %s enabled, but no new card", d.dev);
		cfs_while_enabled(&d);
		cfs_check(&d, "disable", cfs_put(&d, "enabled", "0"));
		after = atomkms_card_mask();
		if (after & ~before)
			fuzz_fail(o->f, FAIL_CONFIGFS, o->idx,
				  "configfs: device %s disabled, but its card stays", d.dev);
	}
	cfs_teardown(&d);
}
