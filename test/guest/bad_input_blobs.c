// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-bad-input: property blobs of the wrong size or kind, blob ioctls
 * with garbage, malformed modes.
 */
#include "bad_input.h"

void test_blobs(void)
{
	uint32_t crtc = g.pipe[0].crtc;
	uint32_t mode_id = pid(crtc, DRM_MODE_OBJECT_CRTC, "MODE_ID");
	struct drm_mode_create_blob cb;
	struct drm_mode_destroy_blob db;
	size_t big = 64u << 20;
	uint8_t *page;
	char *mem;
	uint32_t id;
	const char *w;
	int ret, i;

	printf("# property blobs\n");
	w = "MODE_ID = a 67-byte blob";
	expect(try1(crtc, mode_id, g.short_blob, w), -EINVAL, w);
	{
		uint8_t buf[sizeof(drmModeModeInfo) + 1] = { 0 };
		uint32_t b;

		memcpy(buf, &g.pipe[0].mode, sizeof(g.pipe[0].mode));
		b = make_blob(buf, sizeof(buf));
		w = "MODE_ID = a 69-byte blob";
		expect(try1(crtc, mode_id, b, w), -EINVAL, w);
		if (b)
			drmModeDestroyPropertyBlob(g.fd, b);
		b = make_blob(buf, 1);
		w = "MODE_ID = a 1-byte blob";
		expect(try1(crtc, mode_id, b, w), -EINVAL, w);
		if (b)
			drmModeDestroyPropertyBlob(g.fd, b);
	}

	/* 64 MiB: the kernel may refuse it, but cleanly. */
	mem = malloc(big);
	if (mem) {
		memset(mem, 0x5a, big);
		memcpy(mem, &g.pipe[0].mode, sizeof(g.pipe[0].mode));
		arm("create a 64 MiB blob");
		ret = drmModeCreatePropertyBlob(g.fd, mem, big, &id);
		disarm();
		count(ret);
		printf("# create a 64 MiB blob: %s\n", ename(ret));
		if (!ret) {
			w = "MODE_ID = a 64 MiB blob";
			expect(try1(crtc, mode_id, id, w), -EINVAL, w);
			arm("destroy the 64 MiB blob");
			ret = drmModeDestroyPropertyBlob(g.fd, id);
			disarm();
			expect(ret, 0, "destroy the 64 MiB blob");
		}
		free(mem);
	}

	memset(&cb, 0, sizeof(cb));
	cb.data = (uintptr_t)&g.pipe[0].mode;
	arm("CREATEPROPBLOB length 0");
	ret = drmIoctl(g.fd, DRM_IOCTL_MODE_CREATEPROPBLOB, &cb) ? -errno : 0;
	disarm();
	expect(ret, -EINVAL, "CREATEPROPBLOB with length 0");

	cb.length = 0x7fffffff;
	arm("CREATEPROPBLOB length 0x7fffffff");
	ret = drmIoctl(g.fd, DRM_IOCTL_MODE_CREATEPROPBLOB, &cb) ? -errno : 0;
	disarm();
	expect(ret, -EINVAL, "CREATEPROPBLOB with length 0x7fffffff");

	cb.length = 0xffffffff;
	arm("CREATEPROPBLOB length 0xffffffff");
	ret = drmIoctl(g.fd, DRM_IOCTL_MODE_CREATEPROPBLOB, &cb) ? -errno : 0;
	disarm();
	expect(ret, -EINVAL, "CREATEPROPBLOB with length 0xffffffff");

	cb.length = sizeof(drmModeModeInfo);
	cb.data = 0;
	arm("CREATEPROPBLOB data NULL");
	ret = drmIoctl(g.fd, DRM_IOCTL_MODE_CREATEPROPBLOB, &cb) ? -errno : 0;
	disarm();
	expect(ret, -EFAULT, "CREATEPROPBLOB with NULL data");

	/* One readable page, then a hole: copy_from_user must fault. */
	page = mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page != MAP_FAILED) {
		munmap(page + 4096, 4096);
		memset(&cb, 0, sizeof(cb));
		cb.data = (uintptr_t)page;
		cb.length = 1 << 20;
		arm("CREATEPROPBLOB past the end of the mapping");
		ret = drmIoctl(g.fd, DRM_IOCTL_MODE_CREATEPROPBLOB, &cb) ?
		      -errno : 0;
		disarm();
		expect(ret, -EFAULT,
		       "CREATEPROPBLOB reading past the end of the mapping");
		munmap(page, 4096);
	}

	memset(&db, 0, sizeof(db));
	db.blob_id = BOGUS_ID;
	arm("DESTROYPROPBLOB nonexistent");
	ret = drmIoctl(g.fd, DRM_IOCTL_MODE_DESTROYPROPBLOB, &db) ? -errno : 0;
	disarm();
	expect(ret, -ENOENT, "DESTROYPROPBLOB of a nonexistent blob");

	id = make_blob(&g.pipe[0].mode, sizeof(g.pipe[0].mode));
	db.blob_id = id;
	ret = drmIoctl(g.fd, DRM_IOCTL_MODE_DESTROYPROPBLOB, &db) ? -errno : 0;
	expect(ret, 0, "DESTROYPROPBLOB of our blob");
	ret = drmIoctl(g.fd, DRM_IOCTL_MODE_DESTROYPROPBLOB, &db) ? -errno : 0;
	expect(ret, -ENOENT, "DESTROYPROPBLOB of the same blob again");
	w = "MODE_ID = a destroyed blob";
	expect(try1(crtc, mode_id, id, w), -EINVAL, w);
	if (g.other_blob) {
		db.blob_id = g.other_blob;
		ret = drmIoctl(g.fd, DRM_IOCTL_MODE_DESTROYPROPBLOB, &db) ?
		      -errno : 0;
		expect(ret, -EPERM, "DESTROYPROPBLOB of the kernel's IN_FORMATS blob");
	}
	{
		drmModePropertyBlobRes *b;

		arm("GETPROPBLOB nonexistent");
		b = drmModeGetPropertyBlob(g.fd, BOGUS_ID);
		ret = b ? 0 : -errno;
		disarm();
		drmModeFreePropertyBlob(b);
		expect(ret, -ENOENT, "GETPROPBLOB of a nonexistent blob");
	}

	/* Colour management blobs of the wrong size, where they exist. */
	for (i = 0; i < g.npipes; i++) {
		static const char *const luts[] = { "GAMMA_LUT", "DEGAMMA_LUT" };
		uint32_t c = g.pipe[i].crtc, prop, b;
		uint8_t buf[16 * 1024] = { 0 };
		unsigned int l;
		uint64_t size;

		for (l = 0; l < ARRAY_SIZE(luts); l++) {
			prop = pid(c, DRM_MODE_OBJECT_CRTC, luts[l]);
			if (!prop)
				continue;
			b = make_blob(buf, 7);
			w = sf("crtc %u %s = a 7-byte blob", c, luts[l]);
			expect(try1(c, prop, b, w), -EINVAL, w);
			drmModeDestroyPropertyBlob(g.fd, b);
			if (!prop_get(g.fd, c, DRM_MODE_OBJECT_CRTC,
				      sf("%s_SIZE", luts[l]), &size) &&
			    size && (size + 1) * 8 <= sizeof(buf)) {
				uint64_t cnt[2] = { size + 1, size - 1 };
				unsigned int z;

				for (z = 0; z < 2; z++) {
					struct areq r;

					b = make_blob(buf, cnt[z] * 8);
					/* Rejected where it is set, on or off. */
					w = sf("crtc %u (off) %s with %llu entries, %s_SIZE %llu",
					       c, luts[l],
					       (unsigned long long)cnt[z],
					       luts[l], (unsigned long long)size);
					expect(try1(c, prop, b, w), -EINVAL, w);
					areq_init(&r, g.fd);
					areq_modeset(&r, &g.pipe[i], g.mode_blob[i], NULL);
					areq_add_id(&r, c, prop, b);
					w = sf("modeset crtc %u with %s of %llu entries, %s_SIZE %llu",
					       c, luts[l],
					       (unsigned long long)cnt[z],
					       luts[l], (unsigned long long)size);
					expect(commit(&r, TEST, w), EXPECT_FAIL,
					       w);
					drmModeDestroyPropertyBlob(g.fd, b);
				}
			}
		}
		prop = pid(c, DRM_MODE_OBJECT_CRTC, "CTM");
		if (prop) {
			b = make_blob(buf, sizeof(struct drm_color_ctm) - 1);
			w = sf("crtc %u CTM = a 71-byte blob", c);
			expect(try1(c, prop, b, w), -EINVAL, w);
			drmModeDestroyPropertyBlob(g.fd, b);
			b = make_blob(buf, sizeof(struct drm_color_ctm) + 8);
			w = sf("crtc %u CTM = an 80-byte blob", c);
			expect(try1(c, prop, b, w), -EINVAL, w);
			drmModeDestroyPropertyBlob(g.fd, b);
		}
	}
}

void test_modes(void)
{
	const drmModeModeInfo pref = g.pipe[0].mode;
	struct {
		const char *what;
		drmModeModeInfo m;
		int expect;
	} t[16];
	int n = 0, i;

	printf("# malformed modes\n");
#define MODE(w, e) do { t[n].what = (w); t[n].m = pref; t[n].expect = (e); \
		       snprintf(t[n].m.name, sizeof(t[n].m.name), "bad%d", n); } while (0)
#define NEXT n++
	MODE("zero clock", -EINVAL); t[n].m.clock = 0; NEXT;
	MODE("hdisplay > htotal", -EINVAL); t[n].m.htotal = pref.hdisplay - 1; NEXT;
	MODE("hsync_start < hdisplay", -EINVAL);
	t[n].m.hsync_start = pref.hdisplay - 1; NEXT;
	MODE("vsync_end > vtotal", -EINVAL); t[n].m.vsync_end = pref.vtotal + 1; NEXT;
	MODE("hdisplay 0", -EINVAL); t[n].m.hdisplay = 0; NEXT;
	MODE("vdisplay 0", -EINVAL); t[n].m.vdisplay = 0; NEXT;
	MODE("clock INT_MAX", -EINVAL); t[n].m.clock = INT_MAX; NEXT;
	MODE("clock UINT_MAX", -EINVAL); t[n].m.clock = UINT_MAX; NEXT;
	MODE("vrefresh UINT_MAX", -EINVAL); t[n].m.vrefresh = UINT_MAX; NEXT;
	MODE("65535x65535 totals (refresh < 1 Hz)", -EINVAL);
	t[n].m.htotal = t[n].m.vtotal = 65535; NEXT;
	MODE("1x1 in 2x2 at 3 GHz (refresh > 1000 Hz)", -EINVAL);
	t[n].m.clock = 3000000; t[n].m.hdisplay = t[n].m.vdisplay = 1;
	t[n].m.hsync_start = t[n].m.hsync_end = 1;
	t[n].m.vsync_start = t[n].m.vsync_end = 1;
	t[n].m.htotal = t[n].m.vtotal = 2; NEXT;
	MODE("8200 wide, larger than any fb", -EINVAL);
	t[n].m.hdisplay = 8200; t[n].m.hsync_start = 8210;
	t[n].m.hsync_end = 8220; t[n].m.htotal = 8400;
	t[n].m.vdisplay = 100; t[n].m.vsync_start = 105;
	t[n].m.vsync_end = 110; t[n].m.vtotal = 120; t[n].m.clock = 60480; NEXT;
	MODE("invalid picture aspect ratio flags", -EINVAL);
	t[n].m.flags |= 7u << 19; NEXT;
	MODE("vscan 65535 (adjusted vtotal too big)", EXPECT_FAIL);
	t[n].m.vscan = 65535; NEXT;
	MODE("garbage flags", EXPECT_ANY); t[n].m.flags = 0xffffffffu & ~(15u << 19); NEXT;
	MODE("unterminated name, garbage type", 0);
	memset(t[n].m.name, 'A', sizeof(t[n].m.name)); t[n].m.type = 0xffffffffu; NEXT;
#undef MODE
#undef NEXT

	for (i = 0; i < n; i++) {
		uint32_t blob = 0;
		struct areq r;
		int ret;

		arm("create a mode blob");
		ret = drmModeCreatePropertyBlob(g.fd, &t[i].m, sizeof(t[i].m),
						&blob);
		disarm();
		if (!check(!ret, sf("create blob for mode: %s", t[i].what),
			   ename(ret)))
			continue;
		areq_init(&r, g.fd);
		areq_modeset(&r, &g.pipe[0], blob, NULL);
		ret = commit(&r, TEST, t[i].what);
		expect(ret, t[i].expect, sf("modeset with a mode: %s",
					    t[i].what));
		drmModeDestroyPropertyBlob(g.fd, blob);
	}
}
