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
#include <unistd.h>
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

static const char *err(int e)
{
	return e ? strerror(-e) : "success";
}

static void want(int got, int expected, const char *what)
{
	check(got == expected, what, sf("%s, want %s", err(got), err(expected)));
}

/* Bit i: /dev/dri/card<i> exists and is driven by atomkms. */
static uint64_t atomkms_cards(void)
{
	uint64_t mask = 0;
	char path[32];
	int i, fd;

	for (i = 0; i < 64; i++) {
		drmVersion *v;

		snprintf(path, sizeof(path), "/dev/dri/card%d", i);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		v = drmGetVersion(fd);
		if (v && v->name && !strcmp(v->name, "atomkms"))
			mask |= 1ull << i;
		drmFreeVersion(v);
		close(fd);
	}
	return mask;
}

/* Open the one card in @mask, atomic; -1 if not exactly one. */
static int open_card(uint64_t mask)
{
	char path[32];
	int fd;

	if (!mask || (mask & (mask - 1)))
		return -1;
	snprintf(path, sizeof(path), "/dev/dri/card%d", __builtin_ctzll(mask));
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd >= 0 && (drmSetClientCap(fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1) ||
			drmSetClientCap(fd, DRM_CLIENT_CAP_ATOMIC, 1))) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Make device @dev from a script of "mkdir P", "ln DIR TARGET", "put P V". */
static int build(const char *const *script)
{
	int ret = 0;

	for (; *script && !ret; script++) {
		char op[8], a[256], b[256];
		int n = sscanf(*script, "%7s %255s %255s", op, a, b);

		if (n >= 2 && !strcmp(op, "mkdir"))
			ret = mk(P("%s", a));
		else if (n == 3 && !strcmp(op, "ln"))
			ret = ln(a, b);
		else if (n == 3 && !strcmp(op, "put"))
			ret = write_str(P("%s", a), b);
		else
			ret = -EINVAL;
		if (ret)
			printf("# %s: %s\n", *script, err(ret));
	}
	return ret;
}

/* Undo build(): links, then objects, then the device, deepest first. */
static void teardown(const char *dev)
{
	static const char *const kinds[] = { "connectors", "encoders", "planes", "crtcs" };
	unsigned int k;

	write_str(P("%s/enabled", dev), "0");
	for (k = 0; k < 4; k++) {
		DIR *d = opendir(P("%s/%s", dev, kinds[k]));
		struct dirent *e;

		while (d && (e = readdir(d))) {
			const char *links = k == 0 ? "possible_encoders" : "possible_crtcs";
			DIR *l;
			struct dirent *le;

			if (e->d_name[0] == '.')
				continue;
			l = opendir(P("%s/%s/%s/%s", dev, kinds[k], e->d_name, links));
			while (l && (le = readdir(l)))
				if (le->d_name[0] != '.')
					unln(sf("%s/%s/%s/%s", dev, kinds[k], e->d_name, links),
					     le->d_name);
			if (l)
				closedir(l);
			rm(P("%s/%s/%s", dev, kinds[k], e->d_name));
		}
		if (d)
			closedir(d);
	}
	rm(P("%s", dev));
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

static int uevent_open(void)
{
	struct sockaddr_nl a = { .nl_family = AF_NETLINK, .nl_groups = 1 };
	int s = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT);

	if (s >= 0 && bind(s, (struct sockaddr *)&a, sizeof(a))) {
		close(s);
		return -1;
	}
	return s;
}

/* Wait up to @ms for a drm HOTPLUG=1 uevent naming @conn; its latency. */
static double uevent_wait(int s, uint32_t conn, int ms, double t0)
{
	char buf[4096], want_conn[32];
	double end = mono_now() + ms / 1e3;

	snprintf(want_conn, sizeof(want_conn), "CONNECTOR=%u", conn);
	while (mono_now() < end) {
		struct pollfd p = { .fd = s, .events = POLLIN };
		bool drm = false, hp = false, named = false;
		ssize_t n;
		char *k;

		if (poll(&p, 1, 100) <= 0)
			continue;
		n = recv(s, buf, sizeof(buf) - 1, 0);
		if (n <= 0)
			continue;
		buf[n] = 0;
		for (k = buf; k < buf + n; k += strlen(k) + 1) {
			drm |= !strcmp(k, "SUBSYSTEM=drm");
			hp |= !strcmp(k, "HOTPLUG=1");
			named |= !strcmp(k, want_conn);
		}
		if (drm && hp && named)
			return mono_now() - t0;
	}
	return -1;
}

static void test_hotplug(int fd)
{
	drmModeRes *res = drmModeGetResources(fd);
	drmModeConnector *c;
	uint32_t conn;
	double t0, lat;
	int s = uevent_open();

	check(s >= 0, "a uevent socket", strerror(errno));
	if (!res || res->count_connectors < 2 || s < 0)
		goto out;
	conn = res->connectors[1];

	t0 = mono_now();
	want(write_str(P("d1/connectors/n1/status"), "1"), 0, "plug: status 1 on an enabled device");
	lat = uevent_wait(s, conn, 3000, t0);
	check(lat >= 0, "plug: a drm HOTPLUG uevent naming the connector",
	      "none in 3 s");
	printf("# hotplug latency, write to uevent: %.2f ms\n", lat * 1e3);
	c = drmModeGetConnectorCurrent(fd, conn);
	check(c && c->connection == DRM_MODE_CONNECTED && c->count_modes > 0,
	      "plug: connected with modes, without a probe",
	      sf("connection %d, %d modes", c ? (int)c->connection : -1,
		 c ? c->count_modes : -1));
	drmModeFreeConnector(c);

	t0 = mono_now();
	want(write_str(P("d1/connectors/n1/status"), "2"), 0, "unplug: status 2");
	lat = uevent_wait(s, conn, 3000, t0);
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

/* Seeded random configfs operations on device d3: nothing may break. */
static void test_random(unsigned int seed, unsigned int ops)
{
	static const char *const kinds[] = { "planes", "crtcs", "encoders", "connectors" };
	static const char *const attrs[] = { "planes/%u/type", "crtcs/%u/writeback",
		"crtcs/%u/refresh", "connectors/%u/status" };
	static const char *const values[] = { "0", "1", "2", "3", "60", "1000", "x", "-1" };
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
		else if (r < 9)
			ret = write_str(P("d3/%s", sf(attrs[rand() % 4], n)),
					values[rand() % 8]);
		else
			ret = write_str(P("d3/enabled"), (enabled = !enabled) ? "1" : "0");
		made += r == 9 && enabled && !ret;
		/* What a configfs write may answer, and nothing else. */
		if (ret && ret != -EINVAL && ret != -EBUSY && ret != -ENOENT &&
		    ret != -EEXIST && ret != -ENOTEMPTY && ret != -E2BIG &&
		    ret != -ENODEV && ret != -EPERM) {
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
	unsigned int seed = 1, ops = 500;
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

	before = atomkms_cards();
	check(!build(two_crtcs), "a two-CRTC device described", "see above");
	test_bad_writes();
	check(atomkms_cards() == before, "no card before enabled", "a card appeared");

	want(write_str(P("d1/enabled"), "1"), 0, "enabled");
	d1 = atomkms_cards() & ~before;
	fd = open_card(d1);
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
	}

	/* A second device beside it. */
	check(!build(one_crtc), "a one-CRTC device described", "see above");
	want(write_str(P("d2/enabled"), "1"), 0, "the second device enabled");
	d2 = atomkms_cards() & ~before & ~d1;
	fd2 = open_card(d2);
	check(fd2 >= 0 && show_frame(fd2), "the second card shows a frame", "failed");
	if (fd2 >= 0)
		close(fd2);
	teardown("d2");
	check(access(P("d2"), F_OK) && (atomkms_cards() & d2) == 0,
	      "the second device removed", "still there");

	/* Disabled under an open client, then enabled again. */
	want(write_str(P("d1/enabled"), "0"), 0, "disabled with a client open");
	check((atomkms_cards() & d1) == 0, "its card is gone", "still there");
	if (fd >= 0) {
		drmModeRes *res = drmModeGetResources(fd);

		check(!res, "the open client's ioctls fail", "GETRESOURCES worked");
		drmModeFreeResources(res);
		close(fd);
	}
	want(write_str(P("d1/enabled"), "1"), 0, "enabled again");
	fd = open_card(atomkms_cards() & ~before);
	check(fd >= 0 && show_frame(fd), "enabled again: it shows a frame", "failed");
	if (fd >= 0)
		close(fd);
	teardown("d1");
	check(access(P("d1"), F_OK) && atomkms_cards() == before,
	      "removed: back to the cards before", "something is left");

	test_random(seed, ops);
	return tap_done("test-configfs");
}
