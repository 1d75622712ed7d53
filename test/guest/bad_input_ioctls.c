// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-bad-input: raw ioctls with garbage: ATOMIC (huge counts, NULL and
 * faulting pointers), SETCRTC, CURSOR, PAGE_FLIP, framebuffer ioctls.
 */
#include "bad_input.h"

/*
 * @bytes at the very end of a readable page that is followed by unmapped
 * memory: the kernel reading one element further must fault.
 */
static void *guarded(size_t bytes)
{
	char *page = mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (page == MAP_FAILED || bytes > 4096)
		return NULL;
	munmap(page + 4096, 4096);
	return page + 4096 - bytes;
}

static int ioc(unsigned long req, void *arg, const char *what)
{
	int ret;

	arm(what);
	ret = drmIoctl(g.fd, req, arg) ? -errno : 0;
	disarm();
	return ret;
}

void test_atomic_ioctl(void)
{
	uint32_t crtc = g.pipe[0].crtc;
	uint32_t active = pid(crtc, DRM_MODE_OBJECT_CRTC, "ACTIVE");
	uint32_t *objs = guarded(2 * sizeof(uint32_t));
	uint32_t *counts = guarded(2 * sizeof(uint32_t));
	uint32_t *props = guarded(2 * sizeof(uint32_t));
	uint64_t *vals = guarded(2 * sizeof(uint64_t));
	struct drm_mode_atomic a;
	uint32_t *page;
	uint64_t *many;
	char *path;
	int ret, i;

	if (!check(objs && counts && props && vals, "map guarded arrays",
		   strerror(errno)))
		return;
	objs[0] = objs[1] = crtc;
	counts[0] = counts[1] = 1;
	props[0] = props[1] = active;
	vals[0] = vals[1] = 0;

	printf("# DRM_IOCTL_MODE_ATOMIC with garbage\n");
#define A(f, n) do { memset(&a, 0, sizeof(a)); a.flags = (f); a.count_objs = (n); \
		     a.objs_ptr = (uintptr_t)objs; a.count_props_ptr = (uintptr_t)counts; \
		     a.props_ptr = (uintptr_t)props; a.prop_values_ptr = (uintptr_t)vals; } while (0)
	A(DRM_MODE_ATOMIC_TEST_ONLY, 1);
	expect(ioc(DRM_IOCTL_MODE_ATOMIC, &a, "valid raw atomic"), 0,
	       "ATOMIC with one valid property (sanity)");
	A(DRM_MODE_ATOMIC_TEST_ONLY, 0xffffffffu);
	a.objs_ptr = a.count_props_ptr = a.props_ptr = a.prop_values_ptr = 0;
	expect(ioc(DRM_IOCTL_MODE_ATOMIC, &a, "count_objs huge, NULL"),
	       -EFAULT, "ATOMIC with count_objs 0xffffffff and NULL pointers");
	A(DRM_MODE_ATOMIC_TEST_ONLY, 0xffffffffu);
	expect(ioc(DRM_IOCTL_MODE_ATOMIC, &a, "count_objs huge"), -EFAULT,
	       "ATOMIC with count_objs 0xffffffff and 2-entry arrays before unmapped memory");
	A(DRM_MODE_ATOMIC_TEST_ONLY, 1);
	a.count_props_ptr = 0;
	expect(ioc(DRM_IOCTL_MODE_ATOMIC, &a, "count_props_ptr NULL"),
	       -EFAULT, "ATOMIC with count_props_ptr NULL");
	A(DRM_MODE_ATOMIC_TEST_ONLY, 1);
	a.props_ptr = 0;
	expect(ioc(DRM_IOCTL_MODE_ATOMIC, &a, "props_ptr NULL"), -EFAULT,
	       "ATOMIC with props_ptr NULL");
	A(DRM_MODE_ATOMIC_TEST_ONLY, 1);
	a.prop_values_ptr = 0;
	expect(ioc(DRM_IOCTL_MODE_ATOMIC, &a, "prop_values_ptr NULL"), -EFAULT,
	       "ATOMIC with prop_values_ptr NULL");
	A(DRM_MODE_ATOMIC_TEST_ONLY, 1);
	a.objs_ptr = 0xffff888000000000ull;
	expect(ioc(DRM_IOCTL_MODE_ATOMIC, &a, "objs_ptr kernel"), -EFAULT,
	       "ATOMIC with objs_ptr a kernel address");
	A(DRM_MODE_ATOMIC_TEST_ONLY, 1);
	a.reserved = 1;
	expect(ioc(DRM_IOCTL_MODE_ATOMIC, &a, "reserved"), -EINVAL,
	       "ATOMIC with reserved != 0");
	A(DRM_MODE_ATOMIC_TEST_ONLY | 0x80000000u, 1);
	expect(ioc(DRM_IOCTL_MODE_ATOMIC, &a, "flag 0x80000000"), -EINVAL,
	       "ATOMIC with flag 0x80000000");
	A(0xffffffffu, 1);
	expect(ioc(DRM_IOCTL_MODE_ATOMIC, &a, "flags ~0"), -EINVAL,
	       "ATOMIC with every flag bit");
	A(DRM_MODE_ATOMIC_TEST_ONLY | DRM_MODE_PAGE_FLIP_EVENT, 1);
	expect(ioc(DRM_IOCTL_MODE_ATOMIC, &a, "test+event"), -EINVAL,
	       "ATOMIC with TEST_ONLY and PAGE_FLIP_EVENT");
	if (!g.async_cap) {
		A(DRM_MODE_ATOMIC_TEST_ONLY | DRM_MODE_PAGE_FLIP_ASYNC, 1);
		expect(ioc(DRM_IOCTL_MODE_ATOMIC, &a, "async"), -EINVAL,
		       "ATOMIC with PAGE_FLIP_ASYNC, cap not advertised");
	}
	A(DRM_MODE_ATOMIC_TEST_ONLY, 0);
	expect(ioc(DRM_IOCTL_MODE_ATOMIC, &a, "empty"), 0,
	       "ATOMIC with no objects");
	A(DRM_MODE_PAGE_FLIP_EVENT, 0);
	expect(ioc(DRM_IOCTL_MODE_ATOMIC, &a, "empty with event"), -EINVAL,
	       "ATOMIC with no objects and PAGE_FLIP_EVENT");
	A(DRM_MODE_ATOMIC_TEST_ONLY, 2);
	expect(ioc(DRM_IOCTL_MODE_ATOMIC, &a, "same object twice"), EXPECT_ANY,
	       "ATOMIC with the same object twice");
	A(DRM_MODE_ATOMIC_TEST_ONLY, 1);
	counts[1] = 0xffffffffu;
	a.count_objs = 2;
	expect(ioc(DRM_IOCTL_MODE_ATOMIC, &a, "count_props huge"), -EFAULT,
	       "ATOMIC with count_props 0xffffffff and 2-entry arrays before unmapped memory");
	counts[1] = 1;

	/* 1024 valid property ids, then unmapped memory. */
	page = mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	many = calloc(2048, sizeof(*many));
	if (page != MAP_FAILED && many) {
		uint32_t big = 0x7fffffff;

		munmap((char *)page + 4096, 4096);
		for (i = 0; i < 1024; i++)
			page[i] = active;
		A(DRM_MODE_ATOMIC_TEST_ONLY, 1);
		a.count_props_ptr = (uintptr_t)&big;
		a.props_ptr = (uintptr_t)page;
		a.prop_values_ptr = (uintptr_t)many;
		expect(ioc(DRM_IOCTL_MODE_ATOMIC, &a, "props past the mapping"),
		       -EFAULT,
		       "ATOMIC with count_props 0x7fffffff, ids running into unmapped memory");
		munmap(page, 4096);
	}
	free(many);
#undef A

	/* Our client without the atomic cap, for a moment. */
	ret = drmSetClientCap(g.fd, DRM_CLIENT_CAP_ATOMIC, 0) ? -errno : 0;
	if (check(!ret, "clear DRM_CLIENT_CAP_ATOMIC", ename(ret))) {
		memset(&a, 0, sizeof(a));
		a.flags = DRM_MODE_ATOMIC_TEST_ONLY;
		expect(ioc(DRM_IOCTL_MODE_ATOMIC, &a, "atomic without the cap"),
		       -EINVAL, "ATOMIC without DRM_CLIENT_CAP_ATOMIC");
		ret = drmSetClientCap(g.fd, DRM_CLIENT_CAP_ATOMIC, 1) ?
		      -errno : 0;
		check(!ret, "set DRM_CLIENT_CAP_ATOMIC again", ename(ret));
	}

	/* A second client: not master. */
	path = drmGetDeviceNameFromFd2(g.fd);
	if (path) {
		int fd2 = open(path, O_RDWR | O_CLOEXEC);

		if (fd2 >= 0) {
			struct drm_mode_destroy_blob db = {
				.blob_id = g.mode_blob[0],
			};

			drmSetClientCap(fd2, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1);
			drmSetClientCap(fd2, DRM_CLIENT_CAP_ATOMIC, 1);
			memset(&a, 0, sizeof(a));
			a.flags = DRM_MODE_ATOMIC_TEST_ONLY;
			arm("atomic from a second client");
			ret = drmIoctl(fd2, DRM_IOCTL_MODE_ATOMIC, &a) ?
			      -errno : 0;
			disarm();
			expect(ret, -EACCES,
			       "ATOMIC from a client that is not master");
			ret = drmSetClientCap(fd2, 0xdead, 1) ? -errno : 0;
			expect(ret, -EINVAL, "SET_CLIENT_CAP with an unknown cap");
			ret = drmSetClientCap(fd2, DRM_CLIENT_CAP_ATOMIC, 3) ?
			      -errno : 0;
			expect(ret, -EINVAL, "SET_CLIENT_CAP ATOMIC = 3");
			ret = drmIoctl(fd2, DRM_IOCTL_MODE_DESTROYPROPBLOB,
				       &db) ? -errno : 0;
			expect(ret, -EPERM,
			       "DESTROYPROPBLOB of another client's blob");
			close(fd2);
		}
		free(path);
	}
}

void test_setcrtc(void)
{
	const struct kms_pipe *p = &g.pipe[0];
	uint32_t conns[4] = { p->conn };
	struct drm_mode_crtc c;

	printf("# DRM_IOCTL_MODE_SETCRTC with garbage\n");
#define C() do { memset(&c, 0, sizeof(c)); c.crtc_id = p->crtc; c.fb_id = g.fb[0].fb_id; \
		 c.set_connectors_ptr = (uintptr_t)conns; c.count_connectors = 1; \
		 c.mode_valid = 1; memcpy(&c.mode, &p->mode, sizeof(c.mode)); \
		 conns[0] = p->conn; } while (0)
	C();
	c.count_connectors = 1000;
	expect(ioc(DRM_IOCTL_MODE_SETCRTC, &c, "setcrtc 1000 connectors"),
	       -EINVAL, "SETCRTC with count_connectors 1000");
	C();
	c.count_connectors = 0xffffffffu;
	expect(ioc(DRM_IOCTL_MODE_SETCRTC, &c, "setcrtc ~0 connectors"),
	       -EINVAL, "SETCRTC with count_connectors 0xffffffff");
	C();
	c.set_connectors_ptr = 0;
	expect(ioc(DRM_IOCTL_MODE_SETCRTC, &c, "setcrtc NULL connectors"),
	       -EFAULT, "SETCRTC with a NULL connector list");
	C();
	conns[0] = BOGUS_ID;
	expect(ioc(DRM_IOCTL_MODE_SETCRTC, &c, "setcrtc bogus connector"),
	       -ENOENT, "SETCRTC with a nonexistent connector");
	C();
	conns[0] = p->crtc;
	expect(ioc(DRM_IOCTL_MODE_SETCRTC, &c, "setcrtc crtc as connector"),
	       -ENOENT, "SETCRTC with a crtc id in the connector list");
	C();
	c.crtc_id = BOGUS_ID;
	expect(ioc(DRM_IOCTL_MODE_SETCRTC, &c, "setcrtc bogus crtc"), -ENOENT,
	       "SETCRTC on a nonexistent crtc");
	C();
	c.crtc_id = p->plane;
	expect(ioc(DRM_IOCTL_MODE_SETCRTC, &c, "setcrtc plane as crtc"),
	       -ENOENT, "SETCRTC on a plane id");
	C();
	c.x = 0x10000;
	expect(ioc(DRM_IOCTL_MODE_SETCRTC, &c, "setcrtc x 0x10000"), -ERANGE,
	       "SETCRTC with x = 0x10000");
	C();
	c.x = 1;
	expect(ioc(DRM_IOCTL_MODE_SETCRTC, &c, "setcrtc x 1"), -ENOSPC,
	       "SETCRTC with the viewport one pixel beyond the fb");
	C();
	c.fb_id = BOGUS_ID;
	expect(ioc(DRM_IOCTL_MODE_SETCRTC, &c, "setcrtc bogus fb"), -ENOENT,
	       "SETCRTC with a nonexistent fb");
	C();
	c.fb_id = 0xffffffffu;	/* -1: the current fb, and there is none */
	expect(ioc(DRM_IOCTL_MODE_SETCRTC, &c, "setcrtc fb -1"), -EINVAL,
	       "SETCRTC with fb -1 and no current fb");
	C();
	c.count_connectors = 0;
	expect(ioc(DRM_IOCTL_MODE_SETCRTC, &c, "setcrtc no connectors"),
	       -EINVAL, "SETCRTC with a mode and no connectors");
	C();
	c.mode.clock = 0;
	expect(ioc(DRM_IOCTL_MODE_SETCRTC, &c, "setcrtc zero clock"), -EINVAL,
	       "SETCRTC with a zero-clock mode");
	C();
	c.mode.clock = INT_MAX;
	expect(ioc(DRM_IOCTL_MODE_SETCRTC, &c, "setcrtc INT_MAX clock"),
	       -EINVAL, "SETCRTC with an INT_MAX clock");
	C();
	c.mode_valid = 0;
	c.fb_id = 0;
	expect(ioc(DRM_IOCTL_MODE_SETCRTC, &c, "setcrtc connectors, no mode"),
	       -EINVAL, "SETCRTC with connectors but no mode");
	if (g.npipes >= 2 && !conn_reaches_crtc(g.pipe[1].conn,
						g.pipe[0].crtc_idx)) {
		C();
		conns[0] = g.pipe[1].conn;
		expect(ioc(DRM_IOCTL_MODE_SETCRTC, &c, "setcrtc foreign conn"),
		       EXPECT_FAIL,
		       sf("SETCRTC crtc %u with connector %u of another crtc",
			  p->crtc, g.pipe[1].conn));
	}
	C();
	expect(ioc(DRM_IOCTL_MODE_SETCRTC, &c, "setcrtc valid"), 0,
	       "SETCRTC with a valid configuration (sanity)");
	C();
	c.mode_valid = 0;
	c.fb_id = 0;
	c.count_connectors = 0;
	c.set_connectors_ptr = 0;
	expect(ioc(DRM_IOCTL_MODE_SETCRTC, &c, "setcrtc off"), 0,
	       "SETCRTC switching the crtc off (sanity)");
#undef C
}

void test_cursor(void)
{
	const struct kms_pipe *p = &g.pipe[0];
	struct drm_mode_cursor2 c;
	/* Without a cursor plane the core says -ENXIO to everything. */
	int bad = g.cursor[0] ? -EINVAL : EXPECT_FAIL;
	int ret;

	printf("# DRM_IOCTL_MODE_CURSOR with garbage (crtc %u on)\n", p->crtc);
	ret = pipe0_on();
	if (!check(!ret, "modeset pipe 0 for the cursor tests", ename(ret)))
		return;
#define K(f) do { memset(&c, 0, sizeof(c)); c.flags = (f); c.crtc_id = p->crtc; \
		 c.handle = g.small.handle; c.width = 64; c.height = 64; } while (0)
	K(0);
	expect(ioc(DRM_IOCTL_MODE_CURSOR, &c, "cursor flags 0"), -EINVAL,
	       "CURSOR with no flags");
	K(0x80);
	expect(ioc(DRM_IOCTL_MODE_CURSOR, &c, "cursor flags 0x80"), -EINVAL,
	       "CURSOR with an unknown flag");
	K(DRM_MODE_CURSOR_BO);
	c.crtc_id = BOGUS_ID;
	expect(ioc(DRM_IOCTL_MODE_CURSOR, &c, "cursor bogus crtc"), -ENOENT,
	       "CURSOR on a nonexistent crtc");
	K(DRM_MODE_CURSOR_BO);
	c.width = c.height = 100000;
	expect(ioc(DRM_IOCTL_MODE_CURSOR, &c, "cursor 100000x100000"), bad,
	       "CURSOR 100000x100000");
	K(DRM_MODE_CURSOR_BO);
	c.width = 0x40000001;
	expect(ioc(DRM_IOCTL_MODE_CURSOR, &c, "cursor pitch overflow"), bad,
	       "CURSOR 0x40000001 wide (pitch overflows)");
	K(DRM_MODE_CURSOR_BO);
	c.width = 0xffffffffu;
	c.height = 0xffffffffu;
	expect(ioc(DRM_IOCTL_MODE_CURSOR, &c, "cursor ~0 x ~0"), bad,
	       "CURSOR 0xffffffff x 0xffffffff");
	K(DRM_MODE_CURSOR_BO);
	c.width = c.height = 512;
	expect(ioc(DRM_IOCTL_MODE_CURSOR, &c, "cursor 512 on a 64 bo"), bad,
	       "CURSOR 512x512 from a 64x64 buffer");
	K(DRM_MODE_CURSOR_BO);
	c.handle = 0xdead;
	expect(ioc(DRM_IOCTL_MODE_CURSOR, &c, "cursor bogus handle"),
	       EXPECT_FAIL, "CURSOR with a nonexistent handle");
	K(DRM_MODE_CURSOR_BO);
	c.width = 0;
	expect(ioc(DRM_IOCTL_MODE_CURSOR, &c, "cursor width 0"), bad,
	       "CURSOR 0x64");
	K(DRM_MODE_CURSOR_BO | DRM_MODE_CURSOR_MOVE);
	c.x = INT_MIN;
	c.y = INT_MAX;
	expect(ioc(DRM_IOCTL_MODE_CURSOR, &c, "cursor at INT_MIN,INT_MAX"),
	       EXPECT_ANY, "CURSOR at INT_MIN,INT_MAX");
	K(DRM_MODE_CURSOR_BO);
	c.hot_x = INT_MAX;
	c.hot_y = INT_MIN;
	expect(ioc(DRM_IOCTL_MODE_CURSOR2, &c, "cursor2 huge hotspot"),
	       EXPECT_ANY, "CURSOR2 with hotspot INT_MAX,INT_MIN");
	K(DRM_MODE_CURSOR_BO);
	expect(ioc(DRM_IOCTL_MODE_CURSOR, &c, "cursor valid"),
	       g.cursor[0] ? 0 : EXPECT_ANY, "CURSOR 64x64 (sanity)");
	K(DRM_MODE_CURSOR_MOVE);
	c.x = 100;
	c.y = 100;
	expect(ioc(DRM_IOCTL_MODE_CURSOR, &c, "cursor move"),
	       g.cursor[0] ? 0 : EXPECT_ANY, "CURSOR move (sanity)");
	K(DRM_MODE_CURSOR_BO);
	c.handle = 0;
	expect(ioc(DRM_IOCTL_MODE_CURSOR, &c, "cursor off"),
	       g.cursor[0] ? 0 : EXPECT_ANY, "CURSOR off (sanity)");
#undef K
}

void test_page_flip(void)
{
	const struct kms_pipe *p = &g.pipe[0];
	struct drm_mode_crtc_page_flip_target f;
	unsigned int before;
	int ret;

	printf("# DRM_IOCTL_MODE_PAGE_FLIP with garbage\n");
	ret = disable_all("switch everything off");
	check(!ret, "switch everything off for the page-flip tests",
	      ename(ret));
#define F(fl) do { memset(&f, 0, sizeof(f)); f.crtc_id = p->crtc; \
		   f.fb_id = g.fb[1].fb_id; f.flags = (fl); } while (0)
	F(DRM_MODE_PAGE_FLIP_EVENT);
	expect(ioc(DRM_IOCTL_MODE_PAGE_FLIP, &f, "flip on a disabled crtc"),
	       -EBUSY, "PAGE_FLIP on a disabled crtc (no fb bound)");
	F(0);
	expect(ioc(DRM_IOCTL_MODE_PAGE_FLIP, &f, "flip, no event, disabled"),
	       -EBUSY, "PAGE_FLIP without event on a disabled crtc");

	ret = pipe0_on();
	if (!check(!ret, "modeset pipe 0 for the page-flip tests", ename(ret)))
		return;
	{
		struct areq r;

		areq_init(&r, g.fd);
		areq_add(&r, p->crtc, DRM_MODE_OBJECT_CRTC, "ACTIVE", 0);
		ret = commit(&r, DRM_MODE_ATOMIC_ALLOW_MODESET, "ACTIVE=0");
		check(!ret, "ACTIVE=0 keeping the mode and fb", ename(ret));
		F(DRM_MODE_PAGE_FLIP_EVENT);
		expect(ioc(DRM_IOCTL_MODE_PAGE_FLIP, &f, "flip on inactive"),
		       -EINVAL,
		       "PAGE_FLIP with event on an inactive crtc with an fb");
		ret = pipe0_on();
		check(!ret, "modeset pipe 0 again", ename(ret));
	}
	F(0xffff0000u);
	expect(ioc(DRM_IOCTL_MODE_PAGE_FLIP, &f, "flip bad flags"), -EINVAL,
	       "PAGE_FLIP with unknown flags");
	F(DRM_MODE_PAGE_FLIP_TARGET);
	expect(ioc(DRM_IOCTL_MODE_PAGE_FLIP, &f, "flip both targets"), -EINVAL,
	       "PAGE_FLIP with both TARGET_ABSOLUTE and TARGET_RELATIVE");
	F(DRM_MODE_PAGE_FLIP_EVENT);
	f.sequence = 5;
	expect(ioc(DRM_IOCTL_MODE_PAGE_FLIP, &f, "flip sequence no target"),
	       -EINVAL, "PAGE_FLIP with a sequence but no target flag");
	F(DRM_MODE_PAGE_FLIP_EVENT | DRM_MODE_PAGE_FLIP_TARGET_RELATIVE);
	f.sequence = 1000;
	expect(ioc(DRM_IOCTL_MODE_PAGE_FLIP, &f, "flip relative 1000"),
	       -EINVAL, "PAGE_FLIP relative target 1000 vblanks away");
	if (!g.async_cap) {
		F(DRM_MODE_PAGE_FLIP_EVENT | DRM_MODE_PAGE_FLIP_ASYNC);
		expect(ioc(DRM_IOCTL_MODE_PAGE_FLIP, &f, "flip async"),
		       EXPECT_FAIL, "PAGE_FLIP ASYNC, async not advertised");
	}
	F(DRM_MODE_PAGE_FLIP_EVENT);
	f.crtc_id = BOGUS_ID;
	expect(ioc(DRM_IOCTL_MODE_PAGE_FLIP, &f, "flip bogus crtc"), -ENOENT,
	       "PAGE_FLIP on a nonexistent crtc");
	F(DRM_MODE_PAGE_FLIP_EVENT);
	f.fb_id = BOGUS_ID;
	expect(ioc(DRM_IOCTL_MODE_PAGE_FLIP, &f, "flip bogus fb"), -ENOENT,
	       "PAGE_FLIP to a nonexistent fb");
	F(DRM_MODE_PAGE_FLIP_EVENT);
	f.fb_id = g.small.fb_id;
	expect(ioc(DRM_IOCTL_MODE_PAGE_FLIP, &f, "flip small fb"), -ENOSPC,
	       "PAGE_FLIP to a 64x64 fb");
	F(DRM_MODE_PAGE_FLIP_EVENT);
	f.fb_id = g.rgb565.fb_id;
	expect(ioc(DRM_IOCTL_MODE_PAGE_FLIP, &f, "flip format change"), -EINVAL,
	       "PAGE_FLIP changing the format to RGB565");
	drain(0);
	before = g.events;
	F(DRM_MODE_PAGE_FLIP_EVENT);
	ret = ioc(DRM_IOCTL_MODE_PAGE_FLIP, &f, "valid flip");
	expect(ret, 0, "PAGE_FLIP with event (sanity)");
	if (!ret) {
		arm("waiting for the flip event");
		while (g.events == before &&
		       wait_event(g.fd, &evctx, EVENT_TIMEOUT_MS) > 0)
			;
		disarm();
		check(g.events == before + 1, "PAGE_FLIP event arrives",
		      sf("%u events", g.events - before));
	}
#undef F
}

void test_misc_ioctls(void)
{
	struct drm_mode_obj_get_properties op;
	struct drm_mode_get_property gp;
	struct drm_mode_crtc gc;
	struct drm_mode_get_plane gpl;
	struct drm_mode_get_encoder ge;
	struct drm_mode_fb_cmd2 fc;
	uint32_t fb = 0;

	printf("# other ioctls with garbage\n");
	memset(&op, 0, sizeof(op));
	op.obj_id = g.pipe[0].crtc;
	op.obj_type = DRM_MODE_OBJECT_PLANE;
	expect(ioc(DRM_IOCTL_MODE_OBJ_GETPROPERTIES, &op, "getprops type"),
	       -ENOENT, "OBJ_GETPROPERTIES of a crtc as a plane");
	op.obj_id = BOGUS_ID;
	op.obj_type = DRM_MODE_OBJECT_ANY;
	expect(ioc(DRM_IOCTL_MODE_OBJ_GETPROPERTIES, &op, "getprops bogus"),
	       -ENOENT, "OBJ_GETPROPERTIES of a nonexistent object");
	op.obj_id = g.pipe[0].crtc;
	op.obj_type = DRM_MODE_OBJECT_CRTC;
	op.count_props = 1000;
	op.props_ptr = 8;
	op.prop_values_ptr = 8;
	expect(ioc(DRM_IOCTL_MODE_OBJ_GETPROPERTIES, &op, "getprops bad ptr"),
	       -EFAULT, "OBJ_GETPROPERTIES into unmapped memory");
	memset(&gp, 0, sizeof(gp));
	gp.prop_id = BOGUS_ID;
	expect(ioc(DRM_IOCTL_MODE_GETPROPERTY, &gp, "getproperty bogus"),
	       -ENOENT, "GETPROPERTY of a nonexistent property");
	memset(&gc, 0, sizeof(gc));
	gc.crtc_id = g.pipe[0].plane;
	expect(ioc(DRM_IOCTL_MODE_GETCRTC, &gc, "getcrtc plane"), -ENOENT,
	       "GETCRTC of a plane id");
	memset(&gpl, 0, sizeof(gpl));
	gpl.plane_id = g.pipe[0].crtc;
	expect(ioc(DRM_IOCTL_MODE_GETPLANE, &gpl, "getplane crtc"), -ENOENT,
	       "GETPLANE of a crtc id");
	gpl.plane_id = g.pipe[0].plane;
	gpl.count_format_types = 1000;
	gpl.format_type_ptr = 8;
	expect(ioc(DRM_IOCTL_MODE_GETPLANE, &gpl, "getplane bad ptr"), -EFAULT,
	       "GETPLANE formats into unmapped memory");
	memset(&ge, 0, sizeof(ge));
	ge.encoder_id = g.pipe[0].conn;
	expect(ioc(DRM_IOCTL_MODE_GETENCODER, &ge, "getencoder conn"), -ENOENT,
	       "GETENCODER of a connector id");
	fb = BOGUS_ID;
	expect(ioc(DRM_IOCTL_MODE_RMFB, &fb, "rmfb bogus"), -ENOENT,
	       "RMFB of a nonexistent fb");
	fb = g.pipe[0].crtc;
	expect(ioc(DRM_IOCTL_MODE_RMFB, &fb, "rmfb crtc"), -ENOENT,
	       "RMFB of a crtc id");

#define FB() do { memset(&fc, 0, sizeof(fc)); fc.width = 64; fc.height = 64; \
		  fc.pixel_format = DRM_FORMAT_XRGB8888; fc.handles[0] = g.small.handle; \
		  fc.pitches[0] = g.small.stride; } while (0)
	FB();
	fc.handles[0] = 0xdead;
	expect(ioc(DRM_IOCTL_MODE_ADDFB2, &fc, "addfb2 bogus handle"),
	       EXPECT_FAIL, "ADDFB2 with a nonexistent handle");
	FB();
	fc.width = 0;
	expect(ioc(DRM_IOCTL_MODE_ADDFB2, &fc, "addfb2 width 0"), -EINVAL,
	       "ADDFB2 0x64");
	FB();
	fc.width = 100000;
	expect(ioc(DRM_IOCTL_MODE_ADDFB2, &fc, "addfb2 width 100000"), -EINVAL,
	       "ADDFB2 100000x64");
	FB();
	fc.pitches[0] = 16;
	expect(ioc(DRM_IOCTL_MODE_ADDFB2, &fc, "addfb2 pitch 16"), -EINVAL,
	       "ADDFB2 with a pitch smaller than a line");
	FB();
	fc.height = 65;
	expect(ioc(DRM_IOCTL_MODE_ADDFB2, &fc, "addfb2 beyond bo"), -EINVAL,
	       "ADDFB2 larger than its buffer");
	FB();
	fc.pixel_format = 0x20202020;
	expect(ioc(DRM_IOCTL_MODE_ADDFB2, &fc, "addfb2 format"), -EINVAL,
	       "ADDFB2 with an unknown format");
	FB();
	fc.offsets[0] = 0xfffffff0u;
	expect(ioc(DRM_IOCTL_MODE_ADDFB2, &fc, "addfb2 offset"), EXPECT_FAIL,
	       "ADDFB2 with a huge offset");
	FB();
	fc.flags = DRM_MODE_FB_MODIFIERS;
	fc.modifier[0] = 0x00ffffffffffffffull;
	expect(ioc(DRM_IOCTL_MODE_ADDFB2, &fc, "addfb2 modifier"), -EINVAL,
	       "ADDFB2 with an unknown modifier");
	FB();
	fc.flags = 0x80;
	expect(ioc(DRM_IOCTL_MODE_ADDFB2, &fc, "addfb2 flags"), -EINVAL,
	       "ADDFB2 with unknown flags");
#undef FB
}
