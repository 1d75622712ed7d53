// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-hdcp: content protection (module/atomkms_hdcp.c) on a configfs
 * device with an HDCP 2.2 monitor (connector 0) and an HDCP 1.4 one
 * (connector 1), each on its own CRTC. It checks the properties and
 * debugfs hdcp_sink_capability, that DESIRED becomes ENABLED after the
 * configured delay (measured, through the kernel's uevent naming the
 * connector and the property) and not before, that ENABLED falls back to
 * DESIRED with a uevent on unplug (status 2), on link_status bad, on
 * DPMS off and on a content type change, and is ENABLED again after the
 * delay once the cause is gone; that UNDESIRED stops it with no uevent;
 * that type 1 never authenticates on the 1.4 monitor; that bad values
 * get EINVAL; a live hdcp_delay_ms (1000); and disabling the device with an
 * authentication under way.
 *
 * Usage: test-hdcp
 */
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
#include <xf86drm.h>
#include <xf86drmMode.h>

#include "tap.h"
#include "../../userspace/drmutil.h"

#define ROOT "/sys/kernel/config/atomkms"
#define P(fmt, ...) sf(ROOT "/" fmt, ##__VA_ARGS__)

#define CP_UNDESIRED	0
#define CP_DESIRED	1
#define CP_ENABLED	2

/* The monitors' authentication delay, in ms, and a bound on lateness. */
#define DELAY_MS	200
#define SLACK_MS	1500

static const char *const dev_script[] = {
	"mkdir hd",
	"mkdir hd/crtcs/c0", "mkdir hd/crtcs/c1",
	"mkdir hd/planes/p0", "put hd/planes/p0/type 1",
	"ln hd/planes/p0/possible_crtcs hd/crtcs/c0",
	"mkdir hd/planes/p1", "put hd/planes/p1/type 1",
	"ln hd/planes/p1/possible_crtcs hd/crtcs/c1",
	"mkdir hd/encoders/e0", "ln hd/encoders/e0/possible_crtcs hd/crtcs/c0",
	"mkdir hd/encoders/e1", "ln hd/encoders/e1/possible_crtcs hd/crtcs/c1",
	"mkdir hd/connectors/n0", "put hd/connectors/n0/type HDMI-A",
	"put hd/connectors/n0/hdcp 2.2", "put hd/connectors/n0/hdcp_delay_ms 200",
	"ln hd/connectors/n0/possible_encoders hd/encoders/e0",
	"mkdir hd/connectors/n1", "put hd/connectors/n1/type DP",
	"put hd/connectors/n1/hdcp 1.4", "put hd/connectors/n1/hdcp_delay_ms 200",
	"ln hd/connectors/n1/possible_encoders hd/encoders/e1",
	NULL
};

static const char *err(int e)
{
	return e ? strerror(-e) : "success";
}

/* Undo the script, whatever part of it ran. */
static void teardown(void)
{
	atomkms_cfs_remove(P("hd"));
}

struct hd {
	int fd, s;
	uint32_t conn[2], cp, type;
	struct kms_pipe pipe[2];
	struct dumb_fb fb[2];
	uint32_t mode_blob[2];
};

static uint64_t cp_of(struct hd *h, int i)
{
	uint64_t v = 99;

	prop_get(h->fd, h->conn[i], DRM_MODE_OBJECT_CONNECTOR, "Content Protection", &v);
	return v;
}

/* Poll connector @i's Content Protection for @want up to @ms; when, or -1. */
static double cp_wait(struct hd *h, int i, uint64_t want, int ms)
{
	double end = mono_now() + ms / 1e3;

	do {
		if (cp_of(h, i) == want)
			return mono_now();
		usleep(1000);
	} while (mono_now() < end);
	return -1;
}

/* Commit Content Protection @cp (-1: unchanged) and type @type (-1: idem). */
static int set_cp(struct hd *h, int i, int cp, int type)
{
	struct areq r;
	int ret;

	areq_init(&r, h->fd);
	if (cp >= 0)
		areq_add_id(&r, h->conn[i], h->cp, cp);
	if (type >= 0)
		areq_add_id(&r, h->conn[i], h->type, type);
	ret = areq_commit(&r, 0, NULL);
	areq_fini(&r);
	return ret;
}

static int set_active(struct hd *h, int i, bool on)
{
	struct areq r;
	int ret;

	areq_init(&r, h->fd);
	areq_add(&r, h->pipe[i].crtc, DRM_MODE_OBJECT_CRTC, "ACTIVE", on);
	ret = areq_commit(&r, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
	areq_fini(&r);
	return ret;
}

static const char *conn_debugfs(int fd, uint32_t conn, const char *file)
{
	drmModeConnector *c = drmModeGetConnectorCurrent(fd, conn);
	const char *type = c ? drmModeGetConnectorTypeName(c->connector_type) : NULL;
	char buf[256];
	struct stat st;
	int n = -1, f;

	if (access("/sys/kernel/debug/dri", F_OK))
		mount("none", "/sys/kernel/debug", "debugfs", 0, NULL);
	if (c && type && !fstat(fd, &st)) {
		f = open(sf("/sys/kernel/debug/dri/%u/%s-%u/%s", minor(st.st_rdev), type,
			    c->connector_type_id, file), O_RDONLY | O_CLOEXEC);
		n = f < 0 ? -errno : read(f, buf, sizeof(buf) - 1);
		if (n < 0 && f >= 0)
			n = -errno;
		if (f >= 0)
			close(f);
	}
	drmModeFreeConnector(c);
	if (n < 0)
		return sf("(%s)", strerror(-n));
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	return sf("%s", buf);
}

/*
 * From DESIRED just committed (at @t0) on connector @i: ENABLED through
 * the uevent, not before the delay; prints and returns the delay in ms.
 */
static double expect_enabled(struct hd *h, int i, double t0, const char *what)
{
	double t = uevent_wait_drm(h->s, h->conn[i], h->cp, DELAY_MS + SLACK_MS);
	double ms = (t - t0) * 1e3;
	uint64_t v = cp_of(h, i);

	check(t > 0 && v == CP_ENABLED, sf("%s: ENABLED, announced by a uevent", what),
	      t > 0 ? sf("uevent, but the property is %llu", (unsigned long long)v) :
	      sf("no uevent in %d ms (property %llu)", DELAY_MS + SLACK_MS,
		 (unsigned long long)v));
	if (t > 0) {
		check(ms >= DELAY_MS - 1 && ms <= DELAY_MS + SLACK_MS,
		      sf("%s: after the %d ms delay", what, DELAY_MS), sf("%.1f ms", ms));
		printf("# %s: DESIRED -> ENABLED in %.1f ms (delay %d ms)\n", what, ms, DELAY_MS);
	}
	return ms;
}

/* Connector @i is ENABLED; @cause ends it: DESIRED at once, a uevent. */
static void expect_fallback(struct hd *h, int i, double t0, const char *what)
{
	double t = uevent_wait_drm(h->s, h->conn[i], h->cp, SLACK_MS);

	check(t > 0 && cp_of(h, i) == CP_DESIRED,
	      sf("%s: ENABLED falls back to DESIRED, with a uevent", what),
	      sf("uevent %s, property %llu", t > 0 ? "seen" : "missing",
		 (unsigned long long)cp_of(h, i)));
	if (t > 0)
		printf("# %s: ENABLED -> DESIRED in %.1f ms\n", what, (t - t0) * 1e3);
}

static bool setup(struct hd *h)
{
	drmModeRes *res = drmModeGetResources(h->fd);
	struct areq r;
	int i, n;

	if (!check(res && res->count_connectors == 2, "the device has two connectors",
		   "not so")) {
		drmModeFreeResources(res);
		return false;
	}
	h->conn[0] = res->connectors[0];
	h->conn[1] = res->connectors[1];
	drmModeFreeResources(res);
	h->cp = prop_id(h->fd, h->conn[0], DRM_MODE_OBJECT_CONNECTOR, "Content Protection");
	h->type = prop_id(h->fd, h->conn[0], DRM_MODE_OBJECT_CONNECTOR, "HDCP Content Type");
	check(h->cp && h->type && h->cp == prop_id(h->fd, h->conn[1], DRM_MODE_OBJECT_CONNECTOR,
						   "Content Protection"),
	      "Content Protection and HDCP Content Type on both", "missing");
	check(cp_of(h, 0) == CP_UNDESIRED && cp_of(h, 1) == CP_UNDESIRED,
	      "UNDESIRED at first", "not so");
	check(!strcmp(conn_debugfs(h->fd, h->conn[0], "hdcp_sink_capability"),
		      "HDCP1.4 HDCP2.2"),
	      "hdcp 2.2: hdcp_sink_capability says HDCP1.4 HDCP2.2",
	      conn_debugfs(h->fd, h->conn[0], "hdcp_sink_capability"));
	check(!strcmp(conn_debugfs(h->fd, h->conn[1], "hdcp_sink_capability"), "HDCP1.4"),
	      "hdcp 1.4: hdcp_sink_capability says HDCP1.4",
	      conn_debugfs(h->fd, h->conn[1], "hdcp_sink_capability"));

	n = kms_pipes_find(h->fd, h->pipe, 2);
	if (!check(n == 2 && h->pipe[0].conn == h->conn[0], "two pipes", sf("%d", n)))
		return false;
	areq_init(&r, h->fd);
	for (i = 0; i < 2; i++) {
		if (dumb_fb_create(h->fd, h->pipe[i].mode.hdisplay, h->pipe[i].mode.vdisplay,
				   &h->fb[i]) ||
		    drmModeCreatePropertyBlob(h->fd, &h->pipe[i].mode, sizeof(h->pipe[i].mode),
					      &h->mode_blob[i]))
			return check(false, "framebuffers and modes", strerror(errno));
		areq_modeset(&r, &h->pipe[i], h->mode_blob[i], &h->fb[i]);
	}
	i = areq_commit(&r, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
	areq_fini(&r);
	return check(i == 0, "both pipes on", err(i));
}

static void test_bad_values(struct hd *h)
{
	check(set_cp(h, 0, CP_ENABLED, -1) == -EINVAL, "userspace writes ENABLED: EINVAL",
	      err(set_cp(h, 0, CP_ENABLED, -1)));
	check(set_cp(h, 0, 3, -1) == -EINVAL, "Content Protection 3: EINVAL",
	      err(set_cp(h, 0, 3, -1)));
	check(set_cp(h, 0, -1, 2) == -EINVAL, "HDCP Content Type 2: EINVAL",
	      err(set_cp(h, 0, -1, 2)));
	check(drmModeConnectorSetProperty(h->fd, h->conn[0], h->cp, CP_ENABLED) == -EINVAL,
	      "legacy SetProperty ENABLED: EINVAL", "accepted");
	/* The ones refused changed nothing. */
	check(cp_of(h, 0) == CP_UNDESIRED, "still UNDESIRED", "changed");
}

static void test_machine(struct hd *h)
{
	double t0;

	/* DESIRED -> ENABLED after the delay, not before. */
	uevent_drain(h->s);
	t0 = mono_now();
	check(set_cp(h, 0, CP_DESIRED, 0) == 0, "DESIRED committed", "refused");
	check(cp_of(h, 0) == CP_DESIRED, "DESIRED right after the commit", "not so");
	expect_enabled(h, 0, t0, "type 0");

	/* DESIRED written over ENABLED changes nothing. */
	check(set_cp(h, 0, CP_DESIRED, -1) == 0 && cp_of(h, 0) == CP_ENABLED &&
	      uevent_wait_drm(h->s, h->conn[0], h->cp, 300) < 0,
	      "DESIRED over ENABLED: stays ENABLED, no uevent", "changed");

	/* Unplug and plug again. */
	t0 = mono_now();
	check(write_str(P("hd/connectors/n0/status"), "2") == 0, "unplugged", "refused");
	expect_fallback(h, 0, t0, "unplug");
	check(cp_wait(h, 0, CP_ENABLED, DELAY_MS + 300) < 0,
	      "unplugged: no authentication", "ENABLED without a sink");
	check(!strcmp(conn_debugfs(h->fd, h->conn[0], "hdcp_sink_capability"),
		      "(No such device)"),
	      "unplugged: hdcp_sink_capability answers ENODEV",
	      conn_debugfs(h->fd, h->conn[0], "hdcp_sink_capability"));
	uevent_drain(h->s);
	t0 = mono_now();
	check(write_str(P("hd/connectors/n0/status"), "1") == 0, "plugged again", "refused");
	expect_enabled(h, 0, t0, "replug");

	/* The link fails, then is good again. */
	uevent_drain(h->s);
	t0 = mono_now();
	check(write_str(P("hd/connectors/n0/link_status"), "bad") == 0, "link bad", "refused");
	expect_fallback(h, 0, t0, "link bad");
	check(cp_wait(h, 0, CP_ENABLED, DELAY_MS + 300) < 0,
	      "link bad: no authentication", "ENABLED on a bad link");
	uevent_drain(h->s);
	t0 = mono_now();
	check(write_str(P("hd/connectors/n0/link_status"), "good") == 0, "link good", "refused");
	expect_enabled(h, 0, t0, "link good again");

	/* DPMS off and on. */
	uevent_drain(h->s);
	t0 = mono_now();
	check(set_active(h, 0, false) == 0, "CRTC off", "refused");
	expect_fallback(h, 0, t0, "DPMS off");
	check(cp_wait(h, 0, CP_ENABLED, DELAY_MS + 300) < 0,
	      "CRTC off: no authentication", "ENABLED with the CRTC off");
	uevent_drain(h->s);
	t0 = mono_now();
	check(set_active(h, 0, true) == 0, "CRTC on", "refused");
	expect_enabled(h, 0, t0, "DPMS on");

	/* A type change re-authenticates. */
	uevent_drain(h->s);
	t0 = mono_now();
	check(set_cp(h, 0, -1, 1) == 0 && cp_of(h, 0) == CP_DESIRED,
	      "type 1 over ENABLED type 0: DESIRED at once", "not so");
	check(uevent_wait_drm(h->s, h->conn[0], h->cp, SLACK_MS) > 0,
	      "type change: a uevent for ENABLED -> DESIRED", "none");
	expect_enabled(h, 0, t0, "type 1 (HDCP 2.2 monitor)");

	/* UNDESIRED: off, no uevent, no authentication. */
	uevent_drain(h->s);
	check(set_cp(h, 0, CP_UNDESIRED, -1) == 0 && cp_of(h, 0) == CP_UNDESIRED,
	      "UNDESIRED: at once", "not so");
	check(uevent_wait_drm(h->s, h->conn[0], h->cp, DELAY_MS + 300) < 0 &&
	      cp_of(h, 0) == CP_UNDESIRED, "UNDESIRED: no uevent, stays UNDESIRED",
	      "changed");

	/* UNDESIRED during an authentication cancels it. */
	check(set_cp(h, 0, CP_DESIRED, 0) == 0 && set_cp(h, 0, CP_UNDESIRED, -1) == 0,
	      "DESIRED then UNDESIRED before the delay", "refused");
	check(cp_wait(h, 0, CP_ENABLED, DELAY_MS + 300) < 0 && cp_of(h, 0) == CP_UNDESIRED,
	      "the authentication under way is dropped", "ENABLED anyway");
}

static void test_hdcp14(struct hd *h)
{
	double t0;

	uevent_drain(h->s);
	check(set_cp(h, 1, CP_DESIRED, 1) == 0, "1.4 monitor: DESIRED, type 1", "refused");
	check(cp_wait(h, 1, CP_ENABLED, 2 * DELAY_MS + 300) < 0 && cp_of(h, 1) == CP_DESIRED,
	      "1.4 monitor: type 1 stays DESIRED", "ENABLED");
	t0 = mono_now();
	check(set_cp(h, 1, -1, 0) == 0, "1.4 monitor: type 0", "refused");
	expect_enabled(h, 1, t0, "type 0 (HDCP 1.4 monitor)");
	check(set_cp(h, 1, CP_UNDESIRED, -1) == 0, "1.4 monitor: UNDESIRED", "refused");
}

/* A live delay: the next authentication takes the new one. */
static void test_live_delay(struct hd *h)
{
	double t0, t;

	check(write_str(P("hd/connectors/n0/hdcp_delay_ms"), "1000") == 0,
	      "hdcp_delay_ms 1000 on the enabled device", "refused");
	uevent_drain(h->s);
	t0 = mono_now();
	set_cp(h, 0, CP_DESIRED, 0);
	t = uevent_wait_drm(h->s, h->conn[0], h->cp, 1000 + SLACK_MS);
	check(t > 0 && (t - t0) * 1e3 >= 999 && cp_of(h, 0) == CP_ENABLED,
	      "hdcp_delay_ms 1000: ENABLED, not before 1000 ms",
	      sf("%.1f ms", t > 0 ? (t - t0) * 1e3 : -1));
	if (t > 0)
		printf("# delay 1000: DESIRED -> ENABLED in %.1f ms\n", (t - t0) * 1e3);
}

int main(void)
{
	struct hd h = { .fd = -1, .s = -1 };
	uint64_t before;
	int i;

	if (access("/sys/kernel/config", F_OK) == 0 && access(ROOT, F_OK) != 0)
		mount("none", "/sys/kernel/config", "configfs", 0, NULL);
	if (!check(access(ROOT, F_OK) == 0, "configfs has atomkms", ROOT " missing"))
		return tap_done("test-hdcp");
	teardown();
	before = atomkms_card_mask();
	if (!check(!atomkms_cfs_build(ROOT, dev_script) && !write_str(P("hd/enabled"), "1"),
		   "a device with an HDCP 2.2 and an HDCP 1.4 monitor", "see above"))
		goto out;
	h.fd = atomkms_open_card(atomkms_card_mask() & ~before);
	h.s = uevent_open();
	if (!check(h.fd >= 0 && h.s >= 0, "its card and a uevent socket", "missing"))
		goto out;
	if (setup(&h)) {
		test_bad_values(&h);
		test_machine(&h);
		test_hdcp14(&h);
		test_live_delay(&h);
		/* Remove the device with an authentication under way. */
		check(set_cp(&h, 1, CP_DESIRED, 0) == 0, "DESIRED, then the device disabled",
		      "refused");
	}
	for (i = 0; i < 2; i++)
		if (h.fb[i].fb_id)
			dumb_fb_destroy(h.fd, &h.fb[i]);
out:
	check(write_str(P("hd/enabled"), "0") == 0, "the device disabled", "refused");
	if (h.fd >= 0)
		close(h.fd);
	if (h.s >= 0)
		close(h.s);
	teardown();
	check(atomkms_card_mask() == before, "its card is gone", "still there");
	return tap_done("test-hdcp");
}
