// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-configfs: devices made at runtime in /sys/kernel/config/atomkms/
 * (module/atomkms_configfs.c). It builds a two-CRTC device the way a vkms
 * script would, checks every bad write gets its errno, enables it and
 * finds the new card with the described planes, CRTCs and connectors,
 * plugs and unplugs a monitor (the hotplug uevent, the connector's status
 * and modes), shows a frame on it, runs a second device beside it,
 * disables a device under an open client and enables it again, then runs
 * a seeded random sequence of configfs operations and removes it all.
 * Connectors' own attributes (module/atomkms_configfs_connector.c): their
 * type, the errno of every bad EDID, preferred mode and link status, an
 * EDID written to an enabled device (its mode preferred, its size, a
 * uevent), link_status bad (the property BAD, a uevent), hdcp and
 * hdcp_delay_ms (their errnos; the properties and debugfs file they give). Planes'
 * capabilities (module/atomkms_configfs_plane.c): formats, rotations,
 * scaling and zpos, written, refused, shown, and as a client sees and
 * meets them (IN_FORMATS, rotation values, TEST_ONLY refusals, the CRC
 * of a primary above an overlay). A device unbound and bound again
 * through sysfs comes back with its shape, statuses and written EDIDs.
 *
 * Usage: test-configfs [--seed N] [--ops N]
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <drm_fourcc.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include "tap.h"
#include "../../userspace/drmutil.h"

#define ROOT "/sys/kernel/config/atomkms"

/* ROOT/fmt..., in one of tap.h's sf() buffers. */
#define P(fmt, ...) sf(ROOT "/" fmt, ##__VA_ARGS__)

static int mk(const char *path)
{
	return mkdir(path, 0755) ? -errno : 0;
}

static int rm(const char *path)
{
	return rmdir(path) ? -errno : 0;
}

/* Link @dir/NAME -> ROOT/@target, NAME the target's last component. */
static int ln(const char *dir, const char *target)
{
	const char *name = strrchr(target, '/');
	char t[512], l[512];

	snprintf(t, sizeof(t), "%s/%s", ROOT, target);
	snprintf(l, sizeof(l), "%s/%s/%s", ROOT, dir, name ? name + 1 : target);
	return symlink(t, l) ? -errno : 0;
}

static int unln(const char *dir, const char *name)
{
	char l[512];

	snprintf(l, sizeof(l), "%s/%s/%s", ROOT, dir, name);
	return unlink(l) ? -errno : 0;
}

/* Write @len bytes in one write(2); -errno, or -EIO if short. */
static int write_buf(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret = 0;
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, buf, len);
	if (n < 0)
		ret = -errno;
	else if ((size_t)n != len)
		ret = -EIO;
	close(fd);
	return ret;
}

/* Read up to @size bytes of @path; their number, or -errno. */
static int read_buf(const char *path, void *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, size);
	close(fd);
	return n < 0 ? -errno : (int)n;
}

/* @path's text without its newline, in an sf() buffer. */
static const char *read_line(const char *path)
{
	char buf[256];
	int n = read_buf(path, buf, sizeof(buf) - 1);

	if (n < 0)
		return sf("(%s)", strerror(-n));
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	return sf("%s", buf);
}

static const char *err(int e)
{
	return e ? strerror(-e) : "success";
}

static void want(int got, int expected, const char *what)
{
	check(got == expected, what, sf("%s, want %s", err(got), err(expected)));
}

/* Make device @dev from a script of "mkdir P", "ln DIR TARGET", "put P V". */
static int build(const char *const *script)
{
	return atomkms_cfs_build(ROOT, script);
}

/* Undo build(): links, then objects, then the device. */
static void teardown(const char *dev)
{
	atomkms_cfs_remove(P("%s", dev));
}

static const char *const two_crtcs[] = {
	"mkdir d1",
	"mkdir d1/crtcs/c0", "put d1/crtcs/c0/refresh 75",
	"mkdir d1/crtcs/c1", "put d1/crtcs/c1/writeback 1",
	"mkdir d1/planes/p0", "put d1/planes/p0/type 1",
	"ln d1/planes/p0/possible_crtcs d1/crtcs/c0",
	"mkdir d1/planes/p1", "put d1/planes/p1/type 1",
	"ln d1/planes/p1/possible_crtcs d1/crtcs/c1",
	"mkdir d1/planes/p2", "put d1/planes/p2/type 0",
	"ln d1/planes/p2/possible_crtcs d1/crtcs/c0",
	"ln d1/planes/p2/possible_crtcs d1/crtcs/c1",
	"mkdir d1/planes/p3", "put d1/planes/p3/type 2",
	"ln d1/planes/p3/possible_crtcs d1/crtcs/c0",
	"mkdir d1/encoders/e0", "ln d1/encoders/e0/possible_crtcs d1/crtcs/c0",
	"mkdir d1/encoders/e1", "ln d1/encoders/e1/possible_crtcs d1/crtcs/c1",
	"mkdir d1/connectors/n0",
	"ln d1/connectors/n0/possible_encoders d1/encoders/e0",
	"mkdir d1/connectors/n1", "put d1/connectors/n1/status 2",
	"ln d1/connectors/n1/possible_encoders d1/encoders/e1",
	NULL
};

static const char *const one_crtc[] = {
	"mkdir d2", "mkdir d2/crtcs/c", "mkdir d2/planes/p",
	"put d2/planes/p/type 1", "ln d2/planes/p/possible_crtcs d2/crtcs/c",
	"mkdir d2/encoders/e", "ln d2/encoders/e/possible_crtcs d2/crtcs/c",
	"mkdir d2/connectors/n",
	"ln d2/connectors/n/possible_encoders d2/encoders/e",
	NULL
};

static double hotplug_latency(int s, uint32_t conn, double t0);

/*
 * An EDID 1.4 of a monitor "test-WxH", @w x @h at 60 Hz with CVT reduced
 * blanking as its one Detailed Timing (so its one mode, and preferred),
 * @cm_w x @cm_h cm, 8 bpc; with @ext, 10 bpc, a continuous refresh range
 * of 48 to 75 Hz (VRR), and an empty CTA-861 extension block after it.
 * Return: its length.
 */
static int make_edid(uint8_t *e, unsigned int w, unsigned int h,
		     unsigned int cm_w, unsigned int cm_h, bool ext)
{
	static const uint8_t header[8] = { 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0 };
	unsigned int hb = 160, vb = 41, htot = w + hb, vtot = h + vb;
	unsigned int clk = (htot * vtot * 60 + 5000) / 10000; /* 10 kHz */
	uint8_t *d = e + 54, sum;
	char name[16];
	int b, i;

	memset(e, 0, ext ? 256 : 128);
	memcpy(e, header, 8);
	e[8] = ((('T' - '@') << 2) | (('S' - '@') >> 3));
	e[9] = (uint8_t)((('S' - '@') << 5) | ('T' - '@'));
	e[10] = (uint8_t)w;
	e[12] = 1;
	e[16] = 1;
	e[17] = 34;
	e[18] = 1;
	e[19] = 4;
	e[20] = 0xa5;		/* digital, 8 bpc, DisplayPort */
	e[21] = (uint8_t)cm_w;
	e[22] = (uint8_t)cm_h;
	e[23] = 120;
	e[24] = 0x06;		/* sRGB, preferred timing native */
	for (i = 38; i < 54; i++)
		e[i] = 1;	/* no standard timings */
	d[0] = clk & 0xff;
	d[1] = clk >> 8;
	d[2] = w & 0xff;
	d[3] = hb & 0xff;
	d[4] = ((w >> 8) << 4) | (hb >> 8);
	d[5] = h & 0xff;
	d[6] = vb & 0xff;
	d[7] = ((h >> 8) << 4) | (vb >> 8);
	d[8] = 48;		/* hsync offset, width */
	d[9] = 32;
	d[10] = (3 << 4) | 5;	/* vsync offset, width */
	d[12] = (cm_w * 10) & 0xff;
	d[13] = (cm_h * 10) & 0xff;
	d[14] = (((cm_w * 10) >> 8) << 4) | ((cm_h * 10) >> 8);
	d[17] = 0x1a;		/* digital separate sync, +hsync */
	d = e + 72;		/* the monitor's name */
	d[3] = 0xfc;
	snprintf(name, sizeof(name), "test-%ux%u", w, h);
	memset(d + 5, ' ', 13);
	memcpy(d + 5, name, strlen(name) < 12 ? strlen(name) : 12);
	d[5 + (strlen(name) < 12 ? strlen(name) : 12)] = '\n';
	e[90 + 3] = 0x10;	/* dummy descriptors */
	e[108 + 3] = 0x10;
	if (ext) {
		e[20] = 0xb5;	/* 10 bpc */
		e[24] |= 0x01;	/* continuous frequency */
		d = e + 90;	/* range limits only: 48-75 Hz, 30-160 kHz */
		d[3] = 0xfd;
		d[5] = 48;
		d[6] = 75;
		d[7] = 30;
		d[8] = 160;
		d[9] = (clk + 999) / 1000;
		d[10] = 0x01;
		d[11] = 0x0a;
		memset(d + 12, ' ', 6);
	}
	e[126] = ext;
	if (ext) {
		e[128] = 0x02;	/* CTA-861, revision 3, no data blocks */
		e[129] = 3;
		e[130] = 4;
	}
	for (b = 0; b < (ext ? 2 : 1); b++) {
		sum = 0;
		for (i = 0; i < 127; i++)
			sum += e[b * 128 + i];
		e[b * 128 + 127] = (uint8_t)(0x100 - sum);
	}
	return ext ? 256 : 128;
}

/* Writes refused on a disabled device: their errno. */
static void test_connector_bad_writes(void)
{
	const char *n0 = "d1/connectors/n0";
	uint8_t e[4200];
	int len;

	want(write_str(P("%s/type", n0), "Bogus"), -EINVAL, "type: an unknown name");
	want(write_str(P("%s/type", n0), "Writeback"), -EINVAL, "type: Writeback");
	want(write_str(P("%s/type", n0), "Unknown"), -EINVAL, "type: Unknown");
	want(write_str(P("%s/type", n0), "hdmi-a"), -EINVAL, "type: names are DRM's, case and all");
	check(!strcmp(read_line(P("%s/type", n0)), "Virtual"), "type: Virtual by default",
	      read_line(P("%s/type", n0)));
	want(write_str(P("%s/type", n0), "HDMI-A"), 0, "type: HDMI-A");
	check(!strcmp(read_line(P("%s/type", n0)), "HDMI-A"), "type: reads HDMI-A",
	      read_line(P("%s/type", n0)));
	want(write_str(P("d1/connectors/n1/type"), "DP"), 0, "type: DP on the other");

	len = make_edid(e, 2560, 1440, 60, 34, true);
	want(write_buf(P("%s/edid", n0), e, 128), -EINVAL,
	     "edid: truncated (base block of two)");
	want(write_buf(P("%s/edid", n0), e, 100), -EINVAL, "edid: 100 bytes");
	e[60] ^= 1;
	want(write_buf(P("%s/edid", n0), e, len), -EINVAL, "edid: bad checksum");
	e[60] ^= 1;
	e[0] = 0x42;
	want(write_buf(P("%s/edid", n0), e, len), -EINVAL, "edid: bad header");
	e[0] = 0;
	memset(e + len, 0, sizeof(e) - len);
	want(write_buf(P("%s/edid", n0), e, 4097), -EINVAL, "edid: 4097 bytes");
	want(write_buf(P("%s/edid", n0), e, 384), -EINVAL,
	     "edid: a block more than byte 126 counts");
	check(read_buf(P("%s/edid", n0), e + 256, 256) == 0, "edid: nothing stored",
	      "bytes stored");
	want(write_str(P("%s/edid_enabled", n0), "1"), -ENODATA,
	     "edid_enabled 1 with no EDID written");
	want(write_str(P("%s/edid_enabled", n0), "maybe"), -EINVAL,
	     "edid_enabled: not a boolean");

	want(write_str(P("%s/preferred_mode", n0), "big"), -EINVAL, "preferred_mode: a word");
	want(write_str(P("%s/preferred_mode", n0), "320x200"), -EINVAL,
	     "preferred_mode: below 640x480");
	want(write_str(P("%s/preferred_mode", n0), "4096x2160"), -EINVAL,
	     "preferred_mode: wider than a DTD holds");
	want(write_str(P("%s/preferred_mode", n0), "4095x4095@60"), -EINVAL,
	     "preferred_mode: a clock above a DTD's 655.35 MHz even at 60 Hz");
	want(write_str(P("%s/preferred_mode", n0), "1920x1080@1000"), -EINVAL,
	     "preferred_mode: a clock above the CRTCs' 3 GHz");
	want(write_str(P("%s/preferred_mode", n0), "1280x720@0"), -EINVAL,
	     "preferred_mode: 0 Hz");
	want(write_str(P("%s/preferred_mode", n0), "1280x720@60x"), -EINVAL,
	     "preferred_mode: trailing bytes");
	check(!strcmp(read_line(P("%s/preferred_mode", n0)), "1920x1080"),
	      "preferred_mode: 1920x1080 by default", read_line(P("%s/preferred_mode", n0)));
	want(write_str(P("d1/connectors/n1/preferred_mode"), "2880x1800@120"), 0,
	     "preferred_mode: 2880x1800@120 on the other (695 MHz: the EDID says 60 Hz)");
	check(!strcmp(read_line(P("d1/connectors/n1/preferred_mode")), "2880x1800@120"),
	      "preferred_mode: reads back", read_line(P("d1/connectors/n1/preferred_mode")));
	want(write_str(P("%s/non_desktop", n0), "2"), -EINVAL, "non_desktop 2");
	want(write_str(P("d1/connectors/n1/non_desktop"), "1"), 0, "non_desktop 1 on the other");
	check(!strcmp(read_line(P("%s/vrr", n0)), "1"), "vrr: 1 by default",
	      read_line(P("%s/vrr", n0)));
	want(write_str(P("%s/vrr", n0), "2"), -EINVAL, "vrr 2");
	want(write_str(P("d1/connectors/n1/vrr"), "0"), 0, "vrr 0 on the other");
	check(!strcmp(read_line(P("d1/connectors/n1/vrr")), "0"), "vrr: reads back 0",
	      read_line(P("d1/connectors/n1/vrr")));
	check(!strcmp(read_line(P("%s/bpc", n0)), "10"), "bpc: 10 by default",
	      read_line(P("%s/bpc", n0)));
	want(write_str(P("%s/bpc", n0), "9"), -ERANGE, "bpc 9");
	want(write_str(P("%s/bpc", n0), "6"), -ERANGE, "bpc 6");
	want(write_str(P("%s/bpc", n0), "18"), -ERANGE, "bpc 18");
	want(write_str(P("%s/bpc", n0), "ten"), -EINVAL, "bpc ten");
	want(write_str(P("d1/connectors/n1/bpc"), "8"), 0, "bpc 8 on the other");
	check(!strcmp(read_line(P("d1/connectors/n1/bpc")), "8"), "bpc: reads back 8",
	      read_line(P("d1/connectors/n1/bpc")));
	want(write_str(P("%s/link_status", n0), "fine"), -EINVAL, "link_status fine");
	check(!strcmp(read_line(P("%s/link_status", n0)), "good"), "link_status good at first",
	      read_line(P("%s/link_status", n0)));

	check(!strcmp(read_line(P("%s/hdcp", n0)), "none"), "hdcp: none by default",
	      read_line(P("%s/hdcp", n0)));
	want(write_str(P("%s/hdcp", n0), "2.3"), -EINVAL, "hdcp 2.3");
	want(write_str(P("%s/hdcp", n0), "yes"), -EINVAL, "hdcp yes");
	want(write_str(P("%s/hdcp", n0), "2.2"), 0, "hdcp 2.2");
	check(!strcmp(read_line(P("%s/hdcp", n0)), "2.2"), "hdcp: reads 2.2",
	      read_line(P("%s/hdcp", n0)));
	check(!strcmp(read_line(P("%s/hdcp_delay_ms", n0)), "100"),
	      "hdcp_delay_ms: 100 by default", read_line(P("%s/hdcp_delay_ms", n0)));
	want(write_str(P("%s/hdcp_delay_ms", n0), "0"), -ERANGE, "hdcp_delay_ms 0");
	want(write_str(P("%s/hdcp_delay_ms", n0), "10001"), -ERANGE, "hdcp_delay_ms 10001");
	want(write_str(P("%s/hdcp_delay_ms", n0), "soon"), -EINVAL, "hdcp_delay_ms soon");
	want(write_str(P("%s/hdcp_delay_ms", n0), "250"), 0, "hdcp_delay_ms 250");
	check(!strcmp(read_line(P("%s/hdcp_delay_ms", n0)), "250"),
	      "hdcp_delay_ms: reads 250", read_line(P("%s/hdcp_delay_ms", n0)));
}

/* The connector with id @conn's property @name, or -1. */
static long long conn_prop(int fd, uint32_t conn, const char *name)
{
	drmModeObjectProperties *props =
		drmModeObjectGetProperties(fd, conn, DRM_MODE_OBJECT_CONNECTOR);
	long long v = -1;
	uint32_t i;

	for (i = 0; props && i < props->count_props; i++) {
		drmModePropertyRes *p = drmModeGetProperty(fd, props->props[i]);

		if (p && !strcmp(p->name, name))
			v = (long long)props->prop_values[i];
		drmModeFreeProperty(p);
	}
	drmModeFreeObjectProperties(props);
	return v;
}

/* Whether connector @conn's EDID property holds @len bytes of @e. */
static bool conn_edid_is(int fd, uint32_t conn, const uint8_t *e, int len)
{
	long long id = conn_prop(fd, conn, "EDID");
	drmModePropertyBlobRes *b = id > 0 ? drmModeGetPropertyBlob(fd, id) : NULL;
	bool ok = b && (int)b->length == len && !memcmp(b->data, e, len);

	drmModeFreePropertyBlob(b);
	return ok;
}

/*
 * Connector @name's debugfs file @file on the card open as @fd (debugfs
 * mounted if need be), its text in an sf() buffer.
 */
static const char *conn_debugfs(int fd, const char *name, const char *file)
{
	char buf[256];
	struct stat st;
	int n, i;

	if (access("/sys/kernel/debug/dri", F_OK))
		mount("none", "/sys/kernel/debug", "debugfs", 0, NULL);
	if (fstat(fd, &st))
		return "(no card)";
	n = read_buf(sf("/sys/kernel/debug/dri/%u/%s/%s", minor(st.st_rdev),
			name, file), buf, sizeof(buf) - 1);
	if (n < 0)
		return sf("(%s)", strerror(-n));
	for (i = 0; i < n; i++)
		if (buf[i] == '\n')
			buf[i] = ' ';
	buf[n] = 0;
	return sf("%s", buf);
}

/* Connector @conn's first mode, size and mode count, as text. */
static const char *conn_desc(drmModeConnector *c)
{
	if (!c)
		return "no connector";
	if (!c->count_modes)
		return sf("no modes, %ux%u mm", c->mmWidth, c->mmHeight);
	return sf("%dx%d@%d%s first of %d, %ux%u mm", c->modes[0].hdisplay,
		  c->modes[0].vdisplay, c->modes[0].vrefresh,
		  c->modes[0].type & DRM_MODE_TYPE_PREFERRED ? " preferred" : "",
		  c->count_modes, c->mmWidth, c->mmHeight);
}

static bool conn_first_is(drmModeConnector *c, int w, int h, unsigned int mm_w,
			  unsigned int mm_h)
{
	return c && c->count_modes && c->modes[0].hdisplay == w &&
	       c->modes[0].vdisplay == h &&
	       (c->modes[0].type & DRM_MODE_TYPE_PREFERRED) &&
	       c->mmWidth == mm_w && c->mmHeight == mm_h;
}

/*
 * On enabled d1: connector types as clients see them, EDIDs written and
 * switched while it runs (each a uevent), link status bad and good.
 */
static void test_connector_live(int fd)
{
	drmModeRes *res = drmModeGetResources(fd);
	const char *n0 = "d1/connectors/n0";
	drmModeConnector *c = NULL, *c1 = NULL;
	drmModeEncoder *enc = NULL;
	uint8_t e[256], e2[256], back[512];
	char name[32] = "";
	int s = uevent_open(), len, len2;
	uint32_t conn;
	double t0, lat;

	if (!check(res && res->count_connectors == 2 && s >= 0,
		   "connectors and a uevent socket", "missing"))
		goto out;
	conn = res->connectors[0];
	c = drmModeGetConnectorCurrent(fd, conn);
	c1 = drmModeGetConnectorCurrent(fd, res->connectors[1]);
	enc = c && c->count_encoders ? drmModeGetEncoder(fd, c->encoders[0]) : NULL;
	check(c && c->connector_type == DRM_MODE_CONNECTOR_HDMIA,
	      "type HDMI-A: GETCONNECTOR says HDMI-A", sf("%d", c ? (int)c->connector_type : -1));
	check(conn_prop(fd, conn, "HDR_OUTPUT_METADATA") >= 0 &&
	      conn_prop(fd, conn, "non-desktop") == 0,
	      "HDMI-A: HDR_OUTPUT_METADATA, and not a headset", "missing");
	check(enc && enc->encoder_type == DRM_MODE_ENCODER_TMDS,
	      "type HDMI-A: a TMDS encoder", sf("%d", enc ? (int)enc->encoder_type : -1));
	check(c1 && c1->connector_type == DRM_MODE_CONNECTOR_DisplayPort,
	      "type DP: GETCONNECTOR says DP", sf("%d", c1 ? (int)c1->connector_type : -1));
	check(conn_first_is(c, 1920, 1080, 510, 290) && c->modes[0].vrefresh == 75,
	      "before any EDID: the generated 1920x1080@75 preferred, 510x290 mm",
	      conn_desc(c));
	drmModeFreeConnector(c);

	want(write_str(P("%s/type", n0), "DP"), -EBUSY, "enabled: type");
	want(write_str(P("%s/preferred_mode", n0), "1280x720"), -EBUSY,
	     "enabled: preferred_mode");
	want(write_str(P("%s/non_desktop", n0), "1"), -EBUSY, "enabled: non_desktop");
	want(write_str(P("%s/vrr", n0), "0"), -EBUSY, "enabled: vrr");
	want(write_str(P("%s/bpc", n0), "12"), -EBUSY, "enabled: bpc");
	want(write_str(P("%s/hdcp", n0), "1.4"), -EBUSY, "enabled: hdcp");
	check(conn_prop(fd, conn, "Content Protection") == 0 &&
	      conn_prop(fd, conn, "HDCP Content Type") == 0 &&
	      conn_prop(fd, res->connectors[1], "Content Protection") == -1,
	      "hdcp 2.2: Content Protection and HDCP Content Type, on that connector only",
	      "missing or elsewhere");
	c = drmModeGetConnectorCurrent(fd, conn);
	snprintf(name, sizeof(name), "HDMI-A-%u", c ? c->connector_type_id : 0);
	drmModeFreeConnector(c);
	check(!strcmp(conn_debugfs(fd, name, "hdcp_sink_capability"), "HDCP1.4 HDCP2.2 "),
	      "hdcp 2.2: debugfs hdcp_sink_capability",
	      conn_debugfs(fd, name, "hdcp_sink_capability"));
	check(!strcmp(conn_debugfs(fd, name, "output_bpc"), "Maximum: 10 ") &&
	      conn_prop(fd, conn, "max bpc") == 8,
	      "bpc 10 (default): debugfs output_bpc Maximum 10 from the EDID, max bpc 8 until asked",
	      sf("%s, max bpc %lld", conn_debugfs(fd, name, "output_bpc"),
		 conn_prop(fd, conn, "max bpc")));
	want(write_str(P("%s/hdcp_delay_ms", n0), "120"), 0, "enabled: hdcp_delay_ms is live");

	/* Stored, not yet in use. */
	len = make_edid(e, 2560, 1440, 60, 34, false);
	want(write_buf(P("%s/edid", n0), e, len), 0, "edid: 128 bytes written, enabled");
	check(read_buf(P("%s/edid", n0), back, sizeof(back)) == len &&
	      !memcmp(back, e, len), "edid: reads back the bytes written", "differs");
	c = drmModeGetConnectorCurrent(fd, conn);
	check(conn_first_is(c, 1920, 1080, 510, 290),
	      "edid_enabled 0: still the generated EDID", conn_desc(c));
	drmModeFreeConnector(c);

	t0 = mono_now();
	want(write_str(P("%s/edid_enabled", n0), "1"), 0, "edid_enabled 1 on an enabled device");
	lat = hotplug_latency(s, conn, t0);
	check(lat >= 0, "edid_enabled 1: a HOTPLUG uevent naming the connector", "none in 3 s");
	printf("# EDID switch latency, write to uevent: %.2f ms\n", lat * 1e3);
	c = drmModeGetConnectorCurrent(fd, conn);
	check(conn_first_is(c, 2560, 1440, 600, 340) && c->count_modes == 1,
	      "the written EDID: its 2560x1440 alone, preferred, 600x340 mm",
	      conn_desc(c));
	check(conn_edid_is(fd, conn, e, len), "the EDID property is the bytes written",
	      "differs");
	check(conn_prop(fd, conn, "vrr_capable") == 0,
	      "an EDID without a range: not vrr_capable",
	      sf("%lld", conn_prop(fd, conn, "vrr_capable")));
	snprintf(name, sizeof(name), "HDMI-A-%u", c ? c->connector_type_id : 0);
	check(strstr(conn_debugfs(fd, name, "output_bpc"), "Maximum: 8"),
	      "debugfs output_bpc: the EDID's 8 bpc", conn_debugfs(fd, name, "output_bpc"));
	drmModeFreeConnector(c);

	/* A bad EDID on the running device changes nothing. */
	e[100] ^= 0x55;
	want(write_buf(P("%s/edid", n0), e, len), -EINVAL, "enabled: a bad checksum");
	e[100] ^= 0x55;
	len2 = make_edid(e2, 3440, 1440, 80, 33, true);
	want(write_buf(P("%s/edid", n0), e2, 128), -EINVAL, "enabled: a truncated EDID");
	c = drmModeGetConnectorCurrent(fd, conn);
	check(conn_first_is(c, 2560, 1440, 600, 340), "refused EDIDs left it alone",
	      conn_desc(c));
	drmModeFreeConnector(c);

	/* Another monitor swapped in: two blocks. */
	t0 = mono_now();
	want(write_buf(P("%s/edid", n0), e2, len2), 0, "edid: a 256-byte EDID while in use");
	check(hotplug_latency(s, conn, t0) >= 0, "a new EDID: a HOTPLUG uevent", "none in 3 s");
	c = drmModeGetConnectorCurrent(fd, conn);
	check(conn_first_is(c, 3440, 1440, 800, 330), "the new EDID: 3440x1440, 800x330 mm",
	      conn_desc(c));
	check(conn_edid_is(fd, conn, e2, len2), "the EDID property follows", "differs");
	check(!strcmp(conn_debugfs(fd, name, "vrr_range"), "Min: 48 Max: 75 ") &&
	      conn_prop(fd, conn, "vrr_capable") == 1,
	      "the new EDID's range: debugfs vrr_range 48-75 Hz, vrr_capable",
	      sf("%s, vrr_capable %lld", conn_debugfs(fd, name, "vrr_range"),
		 conn_prop(fd, conn, "vrr_capable")));
	check(strstr(conn_debugfs(fd, name, "output_bpc"), "Maximum: 10"),
	      "debugfs output_bpc: the new EDID's 10 bpc", conn_debugfs(fd, name, "output_bpc"));
	drmModeFreeConnector(c);

	t0 = mono_now();
	want(write_str(P("%s/edid_enabled", n0), "0"), 0, "edid_enabled 0");
	check(hotplug_latency(s, conn, t0) >= 0, "edid_enabled 0: a HOTPLUG uevent",
	      "none in 3 s");
	c = drmModeGetConnectorCurrent(fd, conn);
	check(conn_first_is(c, 1920, 1080, 510, 290), "edid_enabled 0: generated again",
	      conn_desc(c));
	drmModeFreeConnector(c);

	/* A failed link. */
	check(conn_prop(fd, conn, "link-status") == DRM_MODE_LINK_STATUS_GOOD,
	      "link-status GOOD at first", sf("%lld", conn_prop(fd, conn, "link-status")));
	t0 = mono_now();
	want(write_str(P("%s/link_status", n0), "bad"), 0, "link_status bad");
	lat = hotplug_latency(s, conn, t0);
	check(lat >= 0, "link_status bad: a HOTPLUG uevent", "none in 3 s");
	check(conn_prop(fd, conn, "link-status") == DRM_MODE_LINK_STATUS_BAD,
	      "link-status reads BAD", sf("%lld", conn_prop(fd, conn, "link-status")));
	check(!strcmp(read_line(P("%s/link_status", n0)), "bad"), "link_status reads bad",
	      read_line(P("%s/link_status", n0)));
	want(write_str(P("%s/link_status", n0), "good"), 0, "link_status good");
	check(conn_prop(fd, conn, "link-status") == DRM_MODE_LINK_STATUS_GOOD,
	      "link-status GOOD again", sf("%lld", conn_prop(fd, conn, "link-status")));
out:
	drmModeFreeEncoder(enc);
	drmModeFreeConnector(c1);
	drmModeFreeResources(res);
	if (s >= 0)
		close(s);
}

static void test_bad_writes(void)
{
	want(mk(P("atomkms")), -EINVAL, "the default device's name is taken");
	want(write_str(P("d1/planes/p0/type"), "3"), -EINVAL, "plane type 3");
	want(write_str(P("d1/planes/p0/type"), "primary"), -EINVAL, "plane type as a word");
	want(write_str(P("d1/connectors/n0/status"), "0"), -EINVAL, "status 0");
	want(write_str(P("d1/connectors/n0/status"), "3"), -EINVAL, "status 3 (unknown)");
	want(write_str(P("d1/crtcs/c0/refresh"), "0"), -EINVAL, "refresh 0 Hz");
	want(write_str(P("d1/crtcs/c0/refresh"), "1001"), -EINVAL, "refresh 1001 Hz");
	want(write_str(P("d1/crtcs/c0/writeback"), "2"), -EINVAL, "writeback 2");
	want(write_str(P("d1/enabled"), "maybe"), -EINVAL, "enabled maybe");
	want(ln("d1/planes/p0/possible_crtcs", "d1/encoders/e0"), -EINVAL,
	     "a plane's possible CRTC is an encoder");
	want(ln("d1/connectors/n0/possible_encoders", "d1/crtcs/c0"), -EINVAL,
	     "a connector's possible encoder is a CRTC");
	want(mk(P("d1/bogus")), -EPERM, "no such group");

	/* CRTC 1 without a primary plane: refused, then put right. */
	write_str(P("d1/planes/p1/type"), "0");
	want(write_str(P("d1/enabled"), "1"), -EINVAL,
	     "enabled with a CRTC that has no primary plane");
	write_str(P("d1/planes/p1/type"), "1");
	ln("d1/connectors/n0/possible_encoders", "d1/encoders/e1");
	want(write_str(P("d1/enabled"), "1"), -EINVAL,
	     "enabled with a connector on two encoders");
	unln("d1/connectors/n0/possible_encoders", "e1");
	test_connector_bad_writes();
}

/* The device's shape, as a client sees it. */
static void test_shape(int fd)
{
	drmModeRes *res = drmModeGetResources(fd);
	drmModePlaneRes *pres = drmModeGetPlaneResources(fd);
	drmModeConnector *c0 = NULL, *c1 = NULL;

	check(res && res->count_crtcs == 2 && res->count_connectors == 2 &&
	      res->count_encoders == 3,
	      "2 CRTCs, 3 encoders (one writeback), 2 connectors (writeback hidden)",
	      sf("%d, %d, %d", res ? res->count_crtcs : -1,
		 res ? res->count_encoders : -1,
		 res ? res->count_connectors : -1));
	check(pres && pres->count_planes == 4, "4 planes",
	      sf("%d", pres ? (int)pres->count_planes : -1));
	if (res && res->count_connectors == 2) {
		c0 = drmModeGetConnector(fd, res->connectors[0]);
		c1 = drmModeGetConnector(fd, res->connectors[1]);
	}
	check(c0 && c0->connection == DRM_MODE_CONNECTED && c0->count_modes &&
	      c0->modes[0].hdisplay == 1920 && c0->modes[0].vrefresh == 75,
	      "connector 0: connected, 1920x1080 at CRTC 0's 75 Hz first",
	      c0 && c0->count_modes ? sf("%dx%d@%d", c0->modes[0].hdisplay,
					  c0->modes[0].vdisplay,
					  c0->modes[0].vrefresh) : "no modes");
	check(c1 && c1->connection == DRM_MODE_DISCONNECTED,
	      "connector 1: disconnected (status 2)",
	      sf("%d", c1 ? (int)c1->connection : -1));
	drmModeFreeConnector(c0);
	drmModeFreeConnector(c1);
	drmModeFreePlaneResources(pres);
	drmModeFreeResources(res);
}

/* Wait up to 3 s for a drm HOTPLUG=1 uevent naming @conn; its latency. */
static double hotplug_latency(int s, uint32_t conn, double t0)
{
	double t = uevent_wait_drm(s, conn, 0, 3000);

	return t < 0 ? -1 : t - t0;
}

static void test_hotplug(int fd)
{
	drmModeRes *res = drmModeGetResources(fd);
	drmModeConnector *c;
	uint32_t conn;
	double t0, lat;
	int s = uevent_open(), i, preferred;

	check(s >= 0, "a uevent socket", strerror(errno));
	if (!res || res->count_connectors < 2 || s < 0)
		goto out;
	conn = res->connectors[1];

	t0 = mono_now();
	want(write_str(P("d1/connectors/n1/status"), "1"), 0, "plug: status 1 on an enabled device");
	lat = hotplug_latency(s, conn, t0);
	check(lat >= 0, "plug: a drm HOTPLUG uevent naming the connector",
	      "none in 3 s");
	printf("# hotplug latency, write to uevent: %.2f ms\n", lat * 1e3);
	c = drmModeGetConnectorCurrent(fd, conn);
	check(c && c->connection == DRM_MODE_CONNECTED && c->count_modes > 0,
	      "plug: connected with modes, without a probe",
	      sf("connection %d, %d modes", c ? (int)c->connection : -1,
		 c ? c->count_modes : -1));
	for (i = 0, preferred = 0; c && i < c->count_modes; i++)
		preferred += !!(c->modes[i].type & DRM_MODE_TYPE_PREFERRED);
	check(c && c->count_modes && c->modes[0].hdisplay == 2880 &&
	      c->modes[0].vdisplay == 1800 && c->modes[0].vrefresh == 120 &&
	      (c->modes[0].type & DRM_MODE_TYPE_PREFERRED) && preferred == 1,
	      "plug: preferred_mode 2880x1800@120 first, the one preferred mode",
	      sf("%s, %d preferred", conn_desc(c), preferred));
	check(conn_prop(fd, conn, "EDID") > 0, "plug: 2880x1800@120 has an EDID", "none");
	check(conn_prop(fd, conn, "non-desktop") == 1, "plug: non_desktop 1, a headset",
	      sf("%lld", conn_prop(fd, conn, "non-desktop")));
	check(conn_prop(fd, conn, "vrr_capable") == 0, "plug: vrr 0, not vrr_capable",
	      sf("%lld", conn_prop(fd, conn, "vrr_capable")));
	{
		char name[64];

		snprintf(name, sizeof(name), "%s-%u",
			 c ? drmModeGetConnectorTypeName(c->connector_type) : "",
			 c ? c->connector_type_id : 0);
		check(!strcmp(conn_debugfs(fd, name, "output_bpc"), "Maximum: 8 "),
		      "plug: bpc 8, debugfs output_bpc Maximum 8 from the EDID",
		      sf("%s: %s", name, conn_debugfs(fd, name, "output_bpc")));
	}
	check(conn_prop(fd, res->connectors[0], "vrr_capable") == 1,
	      "the first connector (vrr 1) is vrr_capable",
	      sf("%lld", conn_prop(fd, res->connectors[0], "vrr_capable")));
	drmModeFreeConnector(c);

	t0 = mono_now();
	want(write_str(P("d1/connectors/n1/status"), "2"), 0, "unplug: status 2");
	lat = hotplug_latency(s, conn, t0);
	check(lat >= 0, "unplug: a drm HOTPLUG uevent naming the connector",
	      "none in 3 s");
	c = drmModeGetConnectorCurrent(fd, conn);
	check(c && c->connection == DRM_MODE_DISCONNECTED,
	      "unplug: disconnected", sf("%d", c ? (int)c->connection : -1));
	drmModeFreeConnector(c);
out:
	if (s >= 0)
		close(s);
	drmModeFreeResources(res);
}

/* A mode set on the first connected connector, and one flip's event. */
static bool show_frame(int fd)
{
	struct kms_pipe p;
	struct dumb_fb fb;
	struct areq r;
	uint32_t blob;
	drmEventContext ev = { .version = 2 };
	bool ok;

	if (kms_pipe_find(fd, &p) || dumb_fb_create(fd, p.mode.hdisplay,
						    p.mode.vdisplay, &fb))
		return false;
	if (drmModeCreatePropertyBlob(fd, &p.mode, sizeof(p.mode), &blob)) {
		dumb_fb_destroy(fd, &fb);
		return false;
	}
	areq_init(&r, fd);
	areq_modeset(&r, &p, blob, &fb);
	ok = !areq_commit(&r, DRM_MODE_ATOMIC_ALLOW_MODESET |
			  DRM_MODE_PAGE_FLIP_EVENT, NULL) &&
	     wait_event(fd, &ev, 1000) == 1;
	areq_fini(&r);
	areq_init(&r, fd);
	areq_disable(&r, &p);
	areq_commit(&r, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
	areq_fini(&r);
	drmModeDestroyPropertyBlob(fd, blob);
	dumb_fb_destroy(fd, &fb);
	return ok;
}

/*
 * Planes' capabilities (module/atomkms_configfs_plane.c): a primary made
 * mutable and an overlay of two formats, two rotations, no scaling, its
 * zpos from 0. Every bad write's errno, the values shown back, the
 * refusals at enable, EBUSY while enabled; then what a client sees
 * (IN_FORMATS, the rotation property's values, the zpos ranges), what
 * TEST_ONLY refuses, and, by the CRTC's CRC, the primary above the
 * overlay hiding it.
 */
static const char *const caps_dev[] = {
	"mkdir d4", "mkdir d4/crtcs/c",
	"mkdir d4/planes/p", "put d4/planes/p/type 1",
	"ln d4/planes/p/possible_crtcs d4/crtcs/c",
	"put d4/planes/p/zpos_mutable 1",
	"mkdir d4/planes/o", "ln d4/planes/o/possible_crtcs d4/crtcs/c",
	"put d4/planes/o/supported_formats -*",
	"put d4/planes/o/supported_formats +AR24",
	"put d4/planes/o/supported_formats +XR24",
	"put d4/planes/o/supported_rotations rotate-180,rotate-0",
	"put d4/planes/o/max_scale_factor 1",
	"put d4/planes/o/zpos_min 0",
	"mkdir d4/encoders/e", "ln d4/encoders/e/possible_crtcs d4/crtcs/c",
	"mkdir d4/connectors/n",
	"ln d4/connectors/n/possible_encoders d4/encoders/e",
	NULL
};

/* The whole text of attribute @path, in an sf() buffer. */
static const char *read_all(const char *path)
{
	char buf[256];
	int n = read_buf(path, buf, sizeof(buf) - 1);

	if (n < 0)
		return sf("(%s)", strerror(-n));
	buf[n] = 0;
	return sf("%s", buf);
}

static void test_plane_attrs_disabled(void)
{
	static const char *const attrs[] = { "type", "supported_formats",
		"supported_rotations", "max_scale_factor", "zpos_mutable",
		"zpos_initial", "zpos_min", "zpos_max" };
	const char *f = read_all(P("d4/planes/p/supported_formats"));
	unsigned int i, lines = 0;

	for (i = 0; f[i]; i++)
		lines += f[i] == '\n';
	check(lines == 35 && !strncmp(f, "XR24\nAR24\n", 10),
	      "a primary's supported_formats: the compositor's 35, one a line",
	      sf("%u lines", lines));
	check(!strcmp(read_all(P("d4/planes/o/supported_formats")), "XR24\nAR24\n"),
	      "-*, +AR24, +XR24: shown XR24 AR24 (table order)",
	      read_all(P("d4/planes/o/supported_formats")));
	want(write_str(P("d4/planes/o/supported_formats"), "-* +AR24,+XR24 -AR24"), 0,
	     "supported_formats: several tokens in one write");
	check(!strcmp(read_all(P("d4/planes/o/supported_formats")), "XR24\n"),
	      "... applied in order", read_all(P("d4/planes/o/supported_formats")));
	want(write_str(P("d4/planes/o/supported_formats"), "+AR24"), 0, "+AR24 again");
	want(write_str(P("d4/planes/o/supported_formats"), "+XR25"), -EINVAL,
	     "supported_formats +XR25 (no such format)");
	want(write_str(P("d4/planes/o/supported_formats"), "XR24"), -EINVAL,
	     "supported_formats XR24 (no sign)");
	want(write_str(P("d4/planes/o/supported_formats"), "+C8"), -EINVAL,
	     "supported_formats +C8 (not the compositor's)");
	check(!strcmp(read_all(P("d4/planes/o/supported_rotations")),
		      "rotate-0 rotate-180\n"), "supported_rotations shown by name",
	      read_all(P("d4/planes/o/supported_rotations")));
	check(!strcmp(read_all(P("d4/planes/p/supported_rotations")),
		      "rotate-0 rotate-90 rotate-180 rotate-270 reflect-x reflect-y\n"),
	      "a primary's rotations: all six", read_all(P("d4/planes/p/supported_rotations")));
	want(write_str(P("d4/planes/p/supported_rotations"), "0x3f"), 0,
	     "supported_rotations 0x3f (DRM's bitmask)");
	want(write_str(P("d4/planes/o/supported_rotations"), "rotate-90"), -EINVAL,
	     "supported_rotations rotate-90 alone (no rotate-0)");
	want(write_str(P("d4/planes/o/supported_rotations"), "0x40"), -EINVAL,
	     "supported_rotations 0x40");
	want(write_str(P("d4/planes/o/supported_rotations"), "rotate-45"), -EINVAL,
	     "supported_rotations rotate-45");
	check(!strcmp(read_line(P("d4/planes/o/max_scale_factor")), "1") &&
	      !strcmp(read_line(P("d4/planes/p/max_scale_factor")), "4"),
	      "max_scale_factor: 1 written, 4 by default",
	      read_line(P("d4/planes/p/max_scale_factor")));
	want(write_str(P("d4/planes/o/max_scale_factor"), "0"), -EINVAL, "max_scale_factor 0");
	want(write_str(P("d4/planes/o/max_scale_factor"), "17"), -EINVAL, "max_scale_factor 17");
	check(!strcmp(read_line(P("d4/planes/p/zpos_mutable")), "1") &&
	      !strcmp(read_line(P("d4/planes/o/zpos_mutable")), "1") &&
	      !strcmp(read_line(P("d4/planes/o/zpos_initial")), "auto") &&
	      !strcmp(read_line(P("d4/planes/o/zpos_min")), "0"),
	      "zpos_mutable 1 and 1, zpos_initial auto, zpos_min 0",
	      read_line(P("d4/planes/o/zpos_initial")));
	want(write_str(P("d4/planes/o/zpos_mutable"), "maybe"), -EINVAL, "zpos_mutable maybe");
	want(write_str(P("d4/planes/o/zpos_initial"), "256"), -EINVAL, "zpos_initial 256");
	want(write_str(P("d4/planes/o/zpos_max"), "-1"), -EINVAL, "zpos_max -1");
	want(write_str(P("d4/planes/o/zpos_initial"), "1"), 0, "zpos_initial 1");
	want(write_str(P("d4/planes/o/zpos_initial"), "auto"), 0, "zpos_initial auto");

	/* What only the whole plane breaks: refused when enabled. */
	write_str(P("d4/planes/o/supported_formats"), "-*");
	want(write_str(P("d4/enabled"), "1"), -EINVAL, "enabled with a plane of no format");
	write_str(P("d4/planes/o/supported_formats"), "+XR24 +AR24");
	write_str(P("d4/planes/o/zpos_min"), "2");
	want(write_str(P("d4/enabled"), "1"), -EINVAL,
	     "enabled with zpos_min 2 above zpos_max (auto: 1)");
	write_str(P("d4/planes/o/zpos_min"), "0");
	write_str(P("d4/planes/p/type"), "2");
	want(write_str(P("d4/enabled"), "1"), -EINVAL, "enabled with no primary");
	write_str(P("d4/planes/p/type"), "1");

	want(write_str(P("d4/enabled"), "1"), 0, "the capabilities device enabled");
	for (i = 0; i < ARRAY_SIZE(attrs); i++)
		want(write_str(P("d4/planes/o/%s", attrs[i]), "1"), -EBUSY,
		     sf("enabled: a plane's %s", attrs[i]));
}

/* Plane @plane's property @name, or NULL. */
static drmModePropertyRes *plane_prop(int fd, uint32_t plane, const char *name)
{
	drmModeObjectProperties *props =
		drmModeObjectGetProperties(fd, plane, DRM_MODE_OBJECT_PLANE);
	drmModePropertyRes *found = NULL;
	uint32_t i;

	for (i = 0; props && i < props->count_props && !found; i++) {
		drmModePropertyRes *pr = drmModeGetProperty(fd, props->props[i]);

		if (pr && !strcmp(pr->name, name))
			found = pr;
		else
			drmModeFreeProperty(pr);
	}
	drmModeFreeObjectProperties(props);
	return found;
}

/* The fourccs of @plane's IN_FORMATS blob, "XR24 AR24", in an sf() buffer. */
static const char *in_formats(int fd, uint32_t plane)
{
	struct drm_format_modifier_blob *h;
	drmModePropertyBlobRes *b;
	char out[256] = "";
	uint64_t id = 0;
	uint32_t i, *f;

	if (prop_get(fd, plane, DRM_MODE_OBJECT_PLANE, "IN_FORMATS", &id))
		return "(none)";
	b = drmModeGetPropertyBlob(fd, (uint32_t)id);
	if (!b)
		return "(no blob)";
	h = b->data;
	f = (uint32_t *)((char *)b->data + h->formats_offset);
	for (i = 0; i < h->count_formats && strlen(out) < 200; i++)
		snprintf(out + strlen(out), sizeof(out) - strlen(out), "%s%s",
			 i ? " " : "", fourcc_str(f[i]));
	drmModeFreePropertyBlob(b);
	return sf("%s", out);
}

/* The CRC of the frame the CRTC shows now; 0 if none came. */
static uint64_t frame_crc(int fd, int crtc_idx)
{
	struct crc_reader c;
	struct crc_entry e = { 0 };

	if (crc_reader_init(&c, fd, crtc_idx) || crc_reader_start(&c))
		return 0;
	if (crc_reader_next(&c, &e, 2000))
		e.value = 0;
	crc_reader_stop(&c);
	return e.value;
}

static void fill_fb(struct dumb_fb *fb, uint32_t xrgb)
{
	uint32_t i;

	for (i = 0; i < fb->stride / 4 * fb->height; i++)
		fb->pixels[i] = xrgb;
}

static void test_plane_caps_live(int fd)
{
	drmModePlaneRes *pres = drmModeGetPlaneResources(fd);
	uint32_t primary = 0, overlay = 0, i, blob = 0;
	drmModePropertyRes *rot, *zp, *zo;
	struct dumb_fb pfb = { 0 }, ofb = { 0 }, sfb = { 0 };
	struct fmt_fb rgb565 = { 0 };
	uint64_t crc_over, crc_alone, crc_under, z = 9;
	struct kms_pipe pipe;
	drmModePlane *pl;
	struct areq r;
	int ret;

	for (i = 0; pres && i < pres->count_planes; i++) {
		if (plane_type(fd, pres->planes[i]) == DRM_PLANE_TYPE_PRIMARY)
			primary = pres->planes[i];
		else if (plane_type(fd, pres->planes[i]) == DRM_PLANE_TYPE_OVERLAY)
			overlay = pres->planes[i];
	}
	drmModeFreePlaneResources(pres);
	if (!check(primary && overlay, "the new card: a primary and an overlay", "missing"))
		return;
	pl = drmModeGetPlane(fd, overlay);
	check(pl && pl->count_formats == 2 && pl->formats[0] == DRM_FORMAT_XRGB8888 &&
	      pl->formats[1] == DRM_FORMAT_ARGB8888,
	      "the overlay's GETPLANE formats: XR24 AR24",
	      sf("%u", pl ? pl->count_formats : 0));
	drmModeFreePlane(pl);
	check(!strcmp(in_formats(fd, overlay), "XR24 AR24"), "the overlay's IN_FORMATS: XR24 AR24",
	      in_formats(fd, overlay));
	pl = drmModeGetPlane(fd, primary);
	check(pl && pl->count_formats == 35, "the primary's formats: 35",
	      sf("%u", pl ? pl->count_formats : 0));
	drmModeFreePlane(pl);
	rot = plane_prop(fd, overlay, "rotation");
	check(rot && rot->count_enums == 2 && !strcmp(rot->enums[0].name, "rotate-0") &&
	      !strcmp(rot->enums[1].name, "rotate-180"),
	      "the overlay's rotation property: rotate-0 and rotate-180 alone",
	      sf("%d values", rot ? rot->count_enums : -1));
	drmModeFreeProperty(rot);
	zp = plane_prop(fd, primary, "zpos");
	zo = plane_prop(fd, overlay, "zpos");
	check(zp && !(zp->flags & DRM_MODE_PROP_IMMUTABLE) && zp->count_values == 2 &&
	      zp->values[0] == 0 && zp->values[1] == 2,
	      "the primary's zpos: mutable, 0 to 2 (the stack and the cursor's place)",
	      zp ? sf("flags 0x%x, %llu-%llu", zp->flags,
		      (unsigned long long)zp->values[0],
		      (unsigned long long)zp->values[zp->count_values - 1]) : "none");
	check(zo && !(zo->flags & DRM_MODE_PROP_IMMUTABLE) && zo->count_values == 2 &&
	      zo->values[0] == 0 && zo->values[1] == 1, "the overlay's zpos: mutable, 0 to 1",
	      "other");
	drmModeFreeProperty(zp);
	drmModeFreeProperty(zo);

	if (!check(!kms_pipe_find(fd, &pipe) &&
		   !dumb_fb_create(fd, pipe.mode.hdisplay, pipe.mode.vdisplay, &pfb) &&
		   !dumb_fb_create(fd, 256, 256, &ofb) &&
		   !dumb_fb_create(fd, 64, 64, &sfb) &&
		   !fmt_fb_create(fd, 256, 256, DRM_FORMAT_RGB565, &rgb565) &&
		   !drmModeCreatePropertyBlob(fd, &pipe.mode, sizeof(pipe.mode), &blob),
		   "framebuffers for the capabilities checks", "failed"))
		goto out;
	fill_fb(&pfb, 0xff0000);
	fill_fb(&ofb, 0x00ff00);
	areq_init(&r, fd);
	areq_modeset(&r, &pipe, blob, &pfb);
	want(areq_commit(&r, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL), 0, "a mode set, the primary red");
	areq_fini(&r);

#define TRY(what, want_err, ...) do {						\
	areq_init(&r, fd);							\
	__VA_ARGS__;								\
	want(areq_commit(&r, DRM_MODE_ATOMIC_TEST_ONLY, NULL), want_err, what);	\
	areq_fini(&r);								\
} while (0)
	TRY("TEST_ONLY: an RGB565 framebuffer on the overlay (not its format)", -EINVAL,
	    areq_plane(&r, overlay, pipe.crtc, rgb565.fb_id, 256, 256, 0, 0));
	TRY("TEST_ONLY: an RGB565 framebuffer on the primary", 0,
	    areq_plane(&r, primary, pipe.crtc, rgb565.fb_id, 256, 256, 0, 0));
	TRY("TEST_ONLY: the overlay at rotate-90 (not offered)", -EINVAL,
	    areq_plane(&r, overlay, pipe.crtc, ofb.fb_id, 256, 256, 0, 0);
	    areq_add(&r, overlay, DRM_MODE_OBJECT_PLANE, "rotation", DRM_MODE_ROTATE_90));
	TRY("TEST_ONLY: the overlay at rotate-180", 0,
	    areq_plane(&r, overlay, pipe.crtc, ofb.fb_id, 256, 256, 0, 0);
	    areq_add(&r, overlay, DRM_MODE_OBJECT_PLANE, "rotation", DRM_MODE_ROTATE_180));
	TRY("TEST_ONLY: the overlay scaled 64 to 128 (max_scale_factor 1)", -ERANGE,
	    areq_plane(&r, overlay, pipe.crtc, sfb.fb_id, 64, 64, 0, 0);
	    areq_add(&r, overlay, DRM_MODE_OBJECT_PLANE, "CRTC_W", 128);
	    areq_add(&r, overlay, DRM_MODE_OBJECT_PLANE, "CRTC_H", 128));
	TRY("TEST_ONLY: the primary scaled 64 to 128 (factor 4)", 0,
	    areq_plane(&r, primary, pipe.crtc, sfb.fb_id, 64, 64, 0, 0);
	    areq_add(&r, primary, DRM_MODE_OBJECT_PLANE, "CRTC_W", 128);
	    areq_add(&r, primary, DRM_MODE_OBJECT_PLANE, "CRTC_H", 128));
#undef TRY

	/* The order by CRC: overlay on top, primary alone, primary on top. */
	areq_init(&r, fd);
	areq_plane(&r, overlay, pipe.crtc, ofb.fb_id, 256, 256, 100, 100);
	areq_add(&r, primary, DRM_MODE_OBJECT_PLANE, "zpos", 0);
	areq_add(&r, overlay, DRM_MODE_OBJECT_PLANE, "zpos", 1);
	ret = areq_commit(&r, 0, NULL);
	areq_fini(&r);
	crc_over = frame_crc(fd, pipe.crtc_idx);
	areq_init(&r, fd);
	areq_add(&r, overlay, DRM_MODE_OBJECT_PLANE, "FB_ID", 0);
	areq_add(&r, overlay, DRM_MODE_OBJECT_PLANE, "CRTC_ID", 0);
	ret = ret ? ret : areq_commit(&r, 0, NULL);
	areq_fini(&r);
	crc_alone = frame_crc(fd, pipe.crtc_idx);
	areq_init(&r, fd);
	areq_plane(&r, overlay, pipe.crtc, ofb.fb_id, 256, 256, 100, 100);
	areq_add(&r, primary, DRM_MODE_OBJECT_PLANE, "zpos", 1);
	areq_add(&r, overlay, DRM_MODE_OBJECT_PLANE, "zpos", 0);
	ret = ret ? ret : areq_commit(&r, 0, NULL);
	areq_fini(&r);
	crc_under = frame_crc(fd, pipe.crtc_idx);
	prop_get(fd, primary, DRM_MODE_OBJECT_PLANE, "zpos", &z);
	want(ret, 0, "commits: overlay over, overlay off, primary over the overlay");
	check(z == 1, "the primary's zpos reads back 1", sf("%llu", (unsigned long long)z));
	check(crc_over && crc_alone && crc_over != crc_alone,
	      "the overlay on top shows in the CRC",
	      sf("%016llx, alone %016llx", (unsigned long long)crc_over,
		 (unsigned long long)crc_alone));
	check(crc_under == crc_alone,
	      "the primary above the overlay hides it: the CRC of the primary alone",
	      sf("%016llx, alone %016llx", (unsigned long long)crc_under,
		 (unsigned long long)crc_alone));
	areq_init(&r, fd);
	areq_disable(&r, &pipe);
	areq_add(&r, overlay, DRM_MODE_OBJECT_PLANE, "FB_ID", 0);
	areq_add(&r, overlay, DRM_MODE_OBJECT_PLANE, "CRTC_ID", 0);
	areq_commit(&r, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
	areq_fini(&r);
out:
	if (blob)
		drmModeDestroyPropertyBlob(fd, blob);
	if (rgb565.fb_id)
		fmt_fb_destroy(fd, &rgb565);
	if (sfb.fb_id)
		dumb_fb_destroy(fd, &sfb);
	if (ofb.fb_id)
		dumb_fb_destroy(fd, &ofb);
	if (pfb.fb_id)
		dumb_fb_destroy(fd, &pfb);
}

static void test_plane_caps(uint64_t before)
{
	int fd;

	if (!check(!build(caps_dev), "a device with planes' capabilities described",
		   "see above"))
		return;
	test_plane_attrs_disabled();
	fd = atomkms_open_card(atomkms_card_mask() & ~before);
	if (check(fd >= 0, "its card", "none")) {
		test_plane_caps_live(fd);
		close(fd);
	}
	teardown("d4");
	check(access(P("d4"), F_OK) && atomkms_card_mask() == before,
	      "the capabilities device removed", "something is left");
}


static const char *const rebind_dev[] = {
	"mkdir d5",
	"mkdir d5/crtcs/c0", "mkdir d5/crtcs/c1",
	"mkdir d5/planes/p0", "put d5/planes/p0/type 1",
	"ln d5/planes/p0/possible_crtcs d5/crtcs/c0",
	"mkdir d5/planes/p1", "put d5/planes/p1/type 1",
	"ln d5/planes/p1/possible_crtcs d5/crtcs/c1",
	"mkdir d5/encoders/e0", "ln d5/encoders/e0/possible_crtcs d5/crtcs/c0",
	"mkdir d5/encoders/e1", "ln d5/encoders/e1/possible_crtcs d5/crtcs/c1",
	"mkdir d5/connectors/n0", "put d5/connectors/n0/type HDMI-A",
	"ln d5/connectors/n0/possible_encoders d5/encoders/e0",
	"mkdir d5/connectors/n1", "put d5/connectors/n1/type DP",
	"put d5/connectors/n1/status 2",
	"ln d5/connectors/n1/possible_encoders d5/encoders/e1",
	NULL
};

#define PLATFORM_DRIVER "/sys/bus/platform/drivers/atomkms"

/* The platform device of the one card in @mask ("atomkms.N.auto"), or "". */
static const char *card_platform_device(uint64_t mask)
{
	char link[256], *base;
	ssize_t n;
	int i;

	for (i = 0; i < 64 && !(mask & (1ULL << i)); i++)
		;
	if (i == 64 || (mask & ~(1ULL << i)))
		return "";
	n = readlink(sf("/sys/class/drm/card%d/device", i), link, sizeof(link) - 1);
	if (n < 0)
		return "";
	link[n] = 0;
	base = strrchr(link, '/');
	return sf("%s", base ? base + 1 : link);
}

/*
 * What a client sees of d5's card: both connectors' type, status, first
 * mode and size, and EDID property (as text, in an sf() buffer).
 */
static const char *rebind_view(int fd, const uint8_t *e0, int len0,
			       const uint8_t *e1, int len1)
{
	drmModeRes *res = drmModeGetResources(fd);
	drmModeConnector *c[2] = { NULL, NULL };
	const char *v;
	int i;

	if (!res || res->count_connectors != 2 || res->count_crtcs != 2) {
		v = sf("%d CRTCs, %d connectors", res ? res->count_crtcs : -1,
		       res ? res->count_connectors : -1);
		drmModeFreeResources(res);
		return v;
	}
	for (i = 0; i < 2; i++)
		c[i] = drmModeGetConnectorCurrent(fd, res->connectors[i]);
	v = sf("%d/%s %s edid %d | %d/%s %s edid %d",
	       c[0] ? (int)c[0]->connector_type : -1,
	       c[0] && c[0]->connection == DRM_MODE_CONNECTED ? "connected" : "not",
	       conn_desc(c[0]), conn_edid_is(fd, res->connectors[0], e0, len0),
	       c[1] ? (int)c[1]->connector_type : -1,
	       c[1] && c[1]->connection == DRM_MODE_CONNECTED ? "connected" : "not",
	       conn_desc(c[1]), conn_edid_is(fd, res->connectors[1], e1, len1));
	for (i = 0; i < 2; i++)
		drmModeFreeConnector(c[i]);
	drmModeFreeResources(res);
	return v;
}

/*
 * A configfs device unbound and bound again through sysfs comes back as
 * configured: the same shape, each connector's status as last written
 * (one plugged in while it ran), and the EDIDs it used, one written
 * before it was enabled and one written while it ran; configfs still
 * drives it afterwards.
 */
static void test_rebind(uint64_t before)
{
	uint8_t e0[256], e1[256];
	const char *pdev, *want_view, *view;
	int fd, len0, len1, ret;
	uint64_t mask;

	if (!check(!build(rebind_dev), "a device to rebind described", "see above"))
		goto out;
	len0 = make_edid(e0, 2560, 1440, 60, 34, false);
	want(write_buf(P("d5/connectors/n0/edid"), e0, len0), 0,
	     "rebind: an EDID written before enabling");
	want(write_str(P("d5/connectors/n0/edid_enabled"), "1"), 0,
	     "rebind: edid_enabled 1 before enabling");
	want(write_str(P("d5/enabled"), "1"), 0, "rebind: enabled");
	mask = atomkms_card_mask() & ~before;
	fd = atomkms_open_card(mask);
	if (!check(fd >= 0, "rebind: its card", "none"))
		goto out;
	len1 = make_edid(e1, 3440, 1440, 80, 33, false);
	want(write_buf(P("d5/connectors/n1/edid"), e1, len1), 0,
	     "rebind: an EDID written while enabled");
	want(write_str(P("d5/connectors/n1/edid_enabled"), "1"), 0,
	     "rebind: edid_enabled 1 while enabled");
	want(write_str(P("d5/connectors/n1/status"), "1"), 0,
	     "rebind: the DP monitor plugged in while enabled");
	want_view = sf("%d/connected 2560x1440@60 preferred first of 1, 600x340 mm edid 1 | "
		       "%d/connected 3440x1440@60 preferred first of 1, 800x330 mm edid 1",
		       DRM_MODE_CONNECTOR_HDMIA, DRM_MODE_CONNECTOR_DisplayPort);
	view = rebind_view(fd, e0, len0, e1, len1);
	check(!strcmp(view, want_view), "rebind: before, both written EDIDs in use", view);
	close(fd);

	pdev = card_platform_device(mask);
	if (!check(*pdev, "rebind: the card's platform device", "not found"))
		goto out;
	printf("# rebind: %s\n", pdev);
	ret = write_str(PLATFORM_DRIVER "/unbind", pdev);
	want(ret, 0, sf("rebind: unbind %s", pdev));
	check((atomkms_card_mask() & ~before) == 0, "rebind: unbound, its card is gone",
	      "still there");
	ret = write_str(PLATFORM_DRIVER "/bind", pdev);
	want(ret, 0, sf("rebind: bind %s", pdev));
	fd = atomkms_open_card(atomkms_card_mask() & ~before);
	if (!check(fd >= 0, "rebind: bound again, one card", "none"))
		goto out;
	view = rebind_view(fd, e0, len0, e1, len1);
	check(!strcmp(view, want_view),
	      "rebind: after, the same shape, statuses and written EDIDs", view);
	check(!strcmp(read_line(P("d5/enabled")), "1"), "rebind: enabled reads 1",
	      read_line(P("d5/enabled")));
	/* configfs drives the device bound again: the generated EDID back. */
	want(write_str(P("d5/connectors/n0/edid_enabled"), "0"), 0,
	     "rebind: edid_enabled 0 on the device bound again");
	view = rebind_view(fd, e0, len0, e1, len1);
	check(!strncmp(view, sf("%d/connected 1920x1080@60 preferred", DRM_MODE_CONNECTOR_HDMIA),
		       strlen(sf("%d/connected 1920x1080@60 preferred", DRM_MODE_CONNECTOR_HDMIA))),
	      "rebind: then the generated EDID's 1920x1080@60", view);
	close(fd);
out:
	teardown("d5");
	check(access(P("d5"), F_OK) && atomkms_card_mask() == before,
	      "the rebound device removed", "something is left");
}

/* Seeded random configfs operations on device d3: nothing may break. */
static void test_random(unsigned int seed, unsigned int ops)
{
	static const char *const kinds[] = { "planes", "crtcs", "encoders", "connectors" };
	static const char *const attrs[] = { "planes/%u/type", "crtcs/%u/writeback",
		"planes/%u/supported_formats", "planes/%u/supported_rotations",
		"planes/%u/max_scale_factor", "planes/%u/zpos_mutable",
		"planes/%u/zpos_initial", "planes/%u/zpos_min", "planes/%u/zpos_max",
		"crtcs/%u/refresh", "connectors/%u/status", "connectors/%u/type",
		"connectors/%u/edid_enabled", "connectors/%u/preferred_mode",
		"connectors/%u/non_desktop", "connectors/%u/vrr", "connectors/%u/link_status",
		"connectors/%u/hdcp", "connectors/%u/hdcp_delay_ms",
		"connectors/%u/tile_group", "connectors/%u/tiles_across",
		"connectors/%u/tiles_down", "connectors/%u/tile_h_loc",
		"connectors/%u/tile_v_loc", "connectors/%u/bpc", "connectors/%u/hdr" };
	static const char *const values[] = { "0", "1", "2", "3", "60", "1000", "x", "-1",
		"HDMI-A", "eDP", "DSI", "VGA", "bad", "good", "1280x720@60", "2560x1440",
		"640x480@1000", "-*", "+*", "+XR24", "-AR24", "+NV12", "rotate-0",
		"rotate-0,reflect-x", "0x3f", "auto", "16", "255", "1.4", "2.2", "none",
		"8", "10", "12" };
	uint8_t edid[256];
	static const char *const base[] = {
		"mkdir d3", "mkdir d3/crtcs/0", "mkdir d3/planes/0",
		"put d3/planes/0/type 1", "ln d3/planes/0/possible_crtcs d3/crtcs/0",
		"mkdir d3/encoders/0", "ln d3/encoders/0/possible_crtcs d3/crtcs/0",
		"mkdir d3/connectors/0",
		"ln d3/connectors/0/possible_encoders d3/encoders/0", NULL
	};
	unsigned int i, enabled = 0, errors = 0, made = 0;

	srand(seed);
	for (i = 0; i < ops; i++) {
		unsigned int k = rand() % 4, n = rand() % 4, r = rand() % 10;
		const char *dir = sf("d3/%s/%u", kinds[k], n);
		int ret = 0;

		/* Every 50 operations from a valid device again, enabled. */
		if (i % 50 == 0) {
			teardown("d3");
			build(base);
			enabled = 0;
			r = 9;
		}
		if (r < 3)
			ret = mk(P("%s", dir));
		else if (r < 4)
			ret = rm(P("%s", dir));
		else if (r < 6 && k != 1)
			ret = ln(sf("%s/%s", dir, k == 3 ? "possible_encoders" :
				    "possible_crtcs"),
				 sf("d3/%s/%u", k == 3 ? "encoders" : "crtcs",
				    (unsigned int)rand() % 4));
		else if (r < 7 && k != 1)
			ret = unln(sf("%s/%s", dir, k == 3 ? "possible_encoders" :
				      "possible_crtcs"), sf("%u", (unsigned int)rand() % 4));
		else if (r < 8)
			ret = write_str(P("d3/%s", sf(attrs[rand() % ARRAY_SIZE(attrs)], n)),
					values[rand() % ARRAY_SIZE(values)]);
		else if (r < 9) {
			/* An EDID, whole, truncated or corrupted at random. */
			int len = make_edid(edid, 640 + rand() % 3000,
					    480 + rand() % 1600, 50, 30, rand() % 2);

			if (rand() % 3 == 0)
				edid[rand() % len] ^= 1 << (rand() % 8);
			ret = write_buf(P("d3/connectors/%u/edid", n), edid,
					rand() % 4 ? len : rand() % 256 + 1);
		}
		else
			ret = write_str(P("d3/enabled"), (enabled = !enabled) ? "1" : "0");
		made += r == 9 && enabled && !ret;
		/* What a configfs write may answer, and nothing else. */
		if (ret && ret != -EINVAL && ret != -EBUSY && ret != -ENOENT &&
		    ret != -EEXIST && ret != -ENOTEMPTY && ret != -E2BIG &&
		    ret != -ENODEV && ret != -EPERM && ret != -ENODATA &&
		    ret != -ERANGE) {
			if (!errors++)
				printf("# op %u: %s\n", i, err(ret));
		}
	}
	teardown("d3");
	printf("# %u random operations: %u devices made\n", ops, made);
	check(made > 0, "random: some enables made a device", "none");
	check(!errors, sf("%u random configfs operations, seed %u: only documented errnos",
			  ops, seed), sf("%u others", errors));
	check(access(P("d3"), F_OK) && errno == ENOENT, "the random device removed",
	      "still there");
}

int main(int argc, char **argv)
{
	unsigned int seed = 1, ops = 2000;
	uint64_t before, d1, d2;
	int fd, fd2, i;

	for (i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--seed"))
			seed = strtoul(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "--ops"))
			ops = strtoul(argv[i + 1], NULL, 0);
	}
	if (access("/sys/kernel/config", F_OK) == 0 &&
	    access(ROOT, F_OK) != 0)
		mount("none", "/sys/kernel/config", "configfs", 0, NULL);
	if (!check(access(ROOT, F_OK) == 0, "configfs has atomkms", ROOT " missing"))
		return tap_done("test-configfs");

	before = atomkms_card_mask();
	check(!build(two_crtcs), "a two-CRTC device described", "see above");
	test_bad_writes();
	check(atomkms_card_mask() == before, "no card before enabled", "a card appeared");

	want(write_str(P("d1/enabled"), "1"), 0, "enabled");
	d1 = atomkms_card_mask() & ~before;
	fd = atomkms_open_card(d1);
	check(fd >= 0, "one new atomkms card", sf("cards 0x%llx -> 0x%llx",
						  (unsigned long long)before,
						  (unsigned long long)(before | d1)));
	if (fd >= 0) {
		test_shape(fd);
		check(show_frame(fd), "a mode set and a flip event on the new card",
		      "failed");
		want(write_str(P("d1/planes/p0/type"), "0"), -EBUSY, "enabled: a plane's type");
		want(write_str(P("d1/crtcs/c0/refresh"), "60"), -EBUSY, "enabled: a refresh");
		want(mk(P("d1/planes/p9")), -EBUSY, "enabled: a new plane");
		want(ln("d1/encoders/e0/possible_crtcs", "d1/crtcs/c1"), -EBUSY,
		     "enabled: a new link");
		test_hotplug(fd);
		test_connector_live(fd);
	}

	/* A second device beside it. */
	check(!build(one_crtc), "a one-CRTC device described", "see above");
	want(write_str(P("d2/enabled"), "1"), 0, "the second device enabled");
	d2 = atomkms_card_mask() & ~before & ~d1;
	fd2 = atomkms_open_card(d2);
	check(fd2 >= 0 && show_frame(fd2), "the second card shows a frame", "failed");
	if (fd2 >= 0)
		close(fd2);
	teardown("d2");
	check(access(P("d2"), F_OK) && (atomkms_card_mask() & d2) == 0,
	      "the second device removed", "still there");

	/* Disabled under an open client, then enabled again. */
	want(write_str(P("d1/enabled"), "0"), 0, "disabled with a client open");
	check((atomkms_card_mask() & d1) == 0, "its card is gone", "still there");
	if (fd >= 0) {
		drmModeRes *res = drmModeGetResources(fd);

		check(!res, "the open client's ioctls fail", "GETRESOURCES worked");
		drmModeFreeResources(res);
		close(fd);
	}
	want(write_str(P("d1/enabled"), "1"), 0, "enabled again");
	fd = atomkms_open_card(atomkms_card_mask() & ~before);
	check(fd >= 0 && show_frame(fd), "enabled again: it shows a frame", "failed");
	if (fd >= 0)
		close(fd);
	teardown("d1");
	check(access(P("d1"), F_OK) && atomkms_card_mask() == before,
	      "removed: back to the cards before", "something is left");

	test_plane_caps(before);
	test_rebind(before);
	test_random(seed, ops);
	return tap_done("test-configfs");
}
