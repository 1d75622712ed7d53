// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-vgem - a vgem buffer imported into atomkms through PRIME and
 * scanned out: what igt's kms_prime@basic-crc-vgem means to check, which
 * igt 2.5 cannot run on a driver other than i915 or xe (see
 * test/igt/expected.txt).
 *
 * For XRGB8888 and RGB565, each with a stride 40 pixels wider than the
 * image (vgem's dumb buffers take no pitch: the buffer is made wider):
 *  - a vgem dumb buffer, mapped, filled with a pattern (and its padding
 *    past each line with other bytes), exported (PRIME_HANDLE_TO_FD),
 *    its vgem handle and the dma-buf fd closed once it is imported into
 *    atomkms (PRIME_FD_TO_HANDLE), framebuffer made (ADDFB2) and
 *    committed: its CRC equals that of the same image in an atomkms dumb
 *    buffer of the same stride (padding zero);
 *  - live: a pixel changed through the vgem mapping, with no ioctl, shows
 *    in the CRC of a frame after it, equal to the atomkms dumb buffer's
 *    with the same change; every frame after that keeps it; the change
 *    undone while no CRC is read, the first CRC of a new reader (a
 *    composition begun after the write) is the first image's again. So
 *    the scanout reads vgem's pages themselves, with no copy;
 *  - refused: PRIME_FD_TO_HANDLE of a closed fd (EBADF) and of a file
 *    that is no dma-buf (EINVAL); ADDFB2 on an imported buffer too small
 *    for the framebuffer, by a line or by an offset (EINVAL), where the
 *    framebuffer that ends on the buffer's last byte is taken;
 *  - released: with every client closed, vgem unloads (when this test
 *    loaded it), so atomkms let go of every imported buffer.
 *
 * vgem comes from Debian's vgem.ko (modprobe, when no vgem card is
 * there) or is built into the kernel (the debug kernel).
 *
 * Then all of it again with a second atomkms card as the exporter, made
 * through configfs and removed at the end: its dumb buffers exported to
 * the first card, as igt's kms_prime@basic-crc-hybrid means to check
 * (igt 2.5 cannot run it on a driver other than i915 or xe:
 * test/igt/expected-prime.txt).
 *
 * Usage: test-vgem [--exporter vgem|atomkms]   (default: both, in turn)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <drm_fourcc.h>

#include "drmutil.h"
#include "tap.h"

#define CRC_TIMEOUT_MS	2000
#define PAD_PIXELS	40	/* the stride is this much wider than the image */
#define KEEP_FRAMES	4	/* frames that must keep a changed CRC */

/* A mapped dumb buffer of vgem or atomkms. */
struct buf {
	int fd;
	uint32_t handle;	/* 0 once closed */
	uint32_t width, height, cpp, pitch;
	uint64_t size;
	uint8_t *map;
};

static struct {
	int kfd;		/* atomkms */
	int vfd;		/* the exporter: vgem, or a second atomkms card */
	const char *name;	/* the exporter's, in messages */
	bool vgem_loaded;	/* by this test: unload it at the end */
	bool exporter_made;	/* the second atomkms card, through configfs */
	struct kms_pipe pipe;
	uint32_t base_fb;	/* atomkms's own, shown between the tests */
	struct crc_reader crc;
} t = { .kfd = -1, .vfd = -1, .name = "vgem" };

static int buf_create(int fd, uint32_t width, uint32_t height, uint32_t cpp,
		      struct buf *b)
{
	struct drm_mode_create_dumb create = {
		.width = width, .height = height, .bpp = cpp * 8,
	};

	memset(b, 0, sizeof(*b));
	b->fd = fd;
	if (drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &create))
		return -errno;
	b->handle = create.handle;
	b->width = width;
	b->height = height;
	b->cpp = cpp;
	b->pitch = create.pitch;
	b->size = create.size;
	b->map = dumb_map(fd, b->handle, b->size);
	return b->map ? 0 : -errno;
}

static void buf_close_handle(struct buf *b)
{
	struct drm_gem_close close_req = { .handle = b->handle };

	if (b->handle)
		drmIoctl(b->fd, DRM_IOCTL_GEM_CLOSE, &close_req);
	b->handle = 0;
}

static void buf_destroy(struct buf *b)
{
	if (b->map)
		munmap(b->map, b->size);
	buf_close_handle(b);
	memset(b, 0, sizeof(*b));
}

/* The pattern's pixel (@cpp bytes' worth) at @x, @y. */
static uint32_t pattern(uint32_t cpp, uint32_t x, uint32_t y)
{
	uint32_t v = (x * 0x9e37u) ^ (y * 0x85ebu) ^ ((x + y) << 11);

	return cpp == 4 ? v & 0xffffff : v & 0xffff;
}

static void put_pixel(struct buf *b, uint32_t x, uint32_t y, uint32_t v)
{
	memcpy(b->map + (size_t)y * b->pitch + x * b->cpp, &v, b->cpp);
}

static uint32_t get_pixel(const struct buf *b, uint32_t x, uint32_t y)
{
	uint32_t v = 0;

	memcpy(&v, b->map + (size_t)y * b->pitch + x * b->cpp, b->cpp);
	return v;
}

/* The pattern on @w x @h of @b, the rest of each line @pad bytes. */
static void fill(struct buf *b, uint32_t w, uint32_t h, uint8_t pad)
{
	uint32_t x, y;

	for (y = 0; y < h; y++) {
		for (x = 0; x < w; x++)
			put_pixel(b, x, y, pattern(b->cpp, x, y));
		memset(b->map + (size_t)y * b->pitch + w * b->cpp, pad,
		       b->pitch - w * b->cpp);
	}
	__sync_synchronize();
}

/* ADDFB2 of one plane: 0 and *@fb_id, or a negative errno. */
static int addfb(uint32_t handle, uint32_t w, uint32_t h, uint32_t fourcc,
		 uint32_t pitch, uint32_t offset, uint32_t *fb_id)
{
	uint32_t handles[4] = { handle }, pitches[4] = { pitch };
	uint32_t offsets[4] = { offset };

	*fb_id = 0;
	if (drmModeAddFB2(t.kfd, w, h, fourcc, handles, pitches, offsets,
			  fb_id, 0))
		return -errno;
	return 0;
}

static int commit_fb(uint32_t fb_id)
{
	struct areq r;

	areq_init(&r, t.kfd);
	areq_add(&r, t.pipe.plane, DRM_MODE_OBJECT_PLANE, "FB_ID", fb_id);
	return areq_commit(&r, 0, NULL);
}

/* The CRC of the first frame after the vblank counter now. */
static int crc_next_frame(struct crc_entry *e)
{
	uint32_t seq;
	int ret;

	ret = vblank_count(t.kfd, t.pipe.crtc_idx, &seq);
	if (ret)
		return ret;
	return crc_reader_next_after(&t.crc, seq, e, CRC_TIMEOUT_MS);
}

/* Commit @fb_id and read the CRC of the first frame after: 0 or -errno. */
static int crc_of(uint32_t fb_id, uint64_t *value)
{
	struct crc_entry e;
	int ret;

	ret = commit_fb(fb_id);
	if (!ret)
		ret = crc_next_frame(&e);
	*value = ret ? 0 : e.value;
	return ret;
}

/*
 * Export @vb from vgem and import it into atomkms: 0 and *@handle, or a
 * negative errno. The dma-buf fd is closed after the import.
 */
static int vgem_to_atomkms(struct buf *vb, uint32_t *handle)
{
	int dmabuf, ret = 0;

	if (drmPrimeHandleToFD(t.vfd, vb->handle, DRM_CLOEXEC | DRM_RDWR,
			       &dmabuf))
		return -errno;
	if (drmPrimeFDToHandle(t.kfd, dmabuf, handle))
		ret = -errno;
	close(dmabuf);
	return ret;
}

static void gem_close(int fd, uint32_t handle)
{
	struct drm_gem_close close_req = { .handle = handle };

	drmIoctl(fd, DRM_IOCTL_GEM_CLOSE, &close_req);
}

/*
 * A pixel changed through vgem's mapping: the CRC changes to @want
 * within a second, with no ioctl between, and keeps it.
 */
static void check_live(const char *fmt, struct buf *vb, uint32_t px,
		       uint32_t py, uint32_t value, uint64_t before,
		       uint64_t want)
{
	struct crc_entry e = { 0 };
	unsigned int kept = 0;
	double end;
	uint32_t seq;
	int ret;

	put_pixel(vb, px, py, value);
	__sync_synchronize();
	ret = vblank_count(t.kfd, t.pipe.crtc_idx, &seq);
	if (!check(!ret, sf("%s live: vblank counter", fmt), strerror(-ret)))
		return;
	end = mono_now() + 1.0;
	do
		ret = crc_reader_next_after(&t.crc, seq, &e, CRC_TIMEOUT_MS);
	while (!ret && e.value == before && mono_now() < end);
	if (!check(!ret && e.value == want,
		   sf("%s live: a pixel written through the %s mapping shows in the CRC",
		      fmt, t.name),
		   ret ? strerror(-ret) :
		   sf("frame %u CRC %#018llx, want %#018llx (before %#018llx)",
		      e.frame, (unsigned long long)e.value,
		      (unsigned long long)want, (unsigned long long)before)))
		return;
	printf("# %s live: written before vblank %u, CRC changed at frame %u (+%d)\n",
	       fmt, seq, e.frame, (int)(e.frame - seq));
	for (kept = 0; kept < KEEP_FRAMES; kept++) {
		ret = crc_reader_next(&t.crc, &e, CRC_TIMEOUT_MS);
		if (ret || e.value != want)
			break;
	}
	check(kept == KEEP_FRAMES,
	      sf("%s live: the %d frames after keep it", fmt, KEEP_FRAMES),
	      ret ? strerror(-ret) :
	      sf("frame %u CRC %#018llx", e.frame, (unsigned long long)e.value));
}

/*
 * The change undone while no CRC is read: the first CRC of a new reader
 * comes from a composition begun after the write, so it is @want's.
 */
static void check_reopen(const char *fmt, struct buf *vb, uint32_t px,
			 uint32_t py, uint32_t value, uint64_t want)
{
	struct crc_entry e = { 0 };
	int ret;

	crc_reader_stop(&t.crc);
	put_pixel(vb, px, py, value);
	__sync_synchronize();
	ret = crc_reader_start(&t.crc);
	if (!ret)
		ret = crc_reader_next(&t.crc, &e, CRC_TIMEOUT_MS);
	check(!ret && e.value == want,
	      sf("%s live: undone with no reader, a new reader's first CRC is the first image's",
		 fmt),
	      ret ? strerror(-ret) :
	      sf("frame %u CRC %#018llx, want %#018llx", e.frame,
		 (unsigned long long)e.value, (unsigned long long)want));
}

/* One format: the imported vgem buffer against an atomkms dumb buffer. */
static void test_format(uint32_t fourcc, uint32_t cpp)
{
	const char *fmt = fourcc_str(fourcc);
	uint32_t w = t.pipe.mode.hdisplay, h = t.pipe.mode.vdisplay;
	uint32_t px = w / 2, py = h / 2, old, changed;
	struct buf vb, kb = { 0 };
	uint32_t imported = 0, fb_imp = 0, fb_dumb = 0;
	uint64_t crc_imp = 0, crc_dumb = 0, crc_imp2 = 0, crc_dumb2 = 0;
	int ret;

	ret = buf_create(t.vfd, w + PAD_PIXELS, h, cpp, &vb);
	if (!check(!ret, sf("%s: %s dumb buffer %ux%u, mapped", fmt, t.name,
			    w + PAD_PIXELS, h), strerror(-ret)))
		return;
	check(vb.pitch > w * cpp,
	      sf("%s: stride %u above the image's %u bytes", fmt, vb.pitch,
		 w * cpp), sf("%s gave stride %u", t.name, vb.pitch));
	fill(&vb, w, h, 0xa5);
	ret = vgem_to_atomkms(&vb, &imported);
	if (!check(!ret, sf("%s: export from %s, import into atomkms", fmt, t.name),
		   strerror(-ret)))
		goto out_vb;
	/* Only the mapping and the import hold vgem's buffer now. */
	buf_close_handle(&vb);
	ret = addfb(imported, w, h, fourcc, vb.pitch, 0, &fb_imp);
	if (!check(!ret, sf("%s: ADDFB2 %ux%u stride %u on the imported buffer",
			    fmt, w, h, vb.pitch), strerror(-ret)))
		goto out_imp;

	ret = buf_create(t.kfd, w + PAD_PIXELS, h, cpp, &kb);
	if (!check(!ret && kb.pitch == vb.pitch,
		   sf("%s: atomkms dumb buffer of the same stride", fmt),
		   ret ? strerror(-ret) : sf("stride %u", kb.pitch)))
		goto out_fb;
	fill(&kb, w, h, 0);
	ret = addfb(kb.handle, w, h, fourcc, kb.pitch, 0, &fb_dumb);
	if (!check(!ret, sf("%s: ADDFB2 on the atomkms dumb buffer", fmt),
		   strerror(-ret)))
		goto out_kb;

	ret = crc_of(fb_imp, &crc_imp);
	if (!check(!ret, sf("%s: scan out the imported buffer, read its CRC", fmt),
		   strerror(-ret)))
		goto out_kb;
	ret = crc_of(fb_dumb, &crc_dumb);
	if (!check(!ret, sf("%s: scan out the dumb buffer, read its CRC", fmt),
		   strerror(-ret)))
		goto out_kb;
	printf("# %s: imported %s buffer CRC %#018llx, atomkms dumb buffer %#018llx\n",
	       fmt, t.name, (unsigned long long)crc_imp, (unsigned long long)crc_dumb);
	check(crc_imp == crc_dumb,
	      sf("%s: the imported buffer's CRC is the dumb buffer's", fmt),
	      sf("%#018llx and %#018llx", (unsigned long long)crc_imp,
		 (unsigned long long)crc_dumb));

	/* The same change in the dumb buffer gives the CRC to expect. */
	old = get_pixel(&kb, px, py);
	changed = ~old & (cpp == 4 ? 0xffffff : 0xffff);
	put_pixel(&kb, px, py, changed);
	__sync_synchronize();
	ret = crc_of(fb_dumb, &crc_dumb2);
	if (!check(!ret && crc_dumb2 != crc_dumb,
		   sf("%s: one pixel changed in the dumb buffer changes its CRC", fmt),
		   ret ? strerror(-ret) : "same CRC"))
		goto out_kb;
	ret = crc_of(fb_imp, &crc_imp2);
	if (!check(!ret && crc_imp2 == crc_imp,
		   sf("%s: the imported buffer again, same CRC", fmt),
		   ret ? strerror(-ret) :
		   sf("%#018llx", (unsigned long long)crc_imp2)))
		goto out_kb;
	check_live(fmt, &vb, px, py, changed, crc_imp, crc_dumb2);
	check_reopen(fmt, &vb, px, py, old, crc_imp);

out_kb:
	/*
	 * Back to atomkms's own framebuffer first: removing the one the
	 * primary plane shows would switch the CRTC off.
	 */
	commit_fb(t.base_fb);
	if (fb_dumb)
		drmModeRmFB(t.kfd, fb_dumb);
out_fb:
	buf_destroy(&kb);
	commit_fb(t.base_fb);
	drmModeRmFB(t.kfd, fb_imp);
out_imp:
	gem_close(t.kfd, imported);
out_vb:
	buf_destroy(&vb);
}

/* Imports and framebuffers atomkms must refuse. */
static void test_refusals(void)
{
	struct buf vb;
	uint32_t handle = 0, fb = 0;
	int dmabuf, fd, ret;

	ret = buf_create(t.vfd, 1024, 16, 4, &vb);
	if (!check(!ret && vb.size == 1024 * 4 * 16,
		   sf("refusals: a 64 KiB %s buffer", t.name), ret ? strerror(-ret) :
		   sf("%llu bytes", (unsigned long long)vb.size)))
		return;
	if (!check(!drmPrimeHandleToFD(t.vfd, vb.handle, DRM_CLOEXEC, &dmabuf),
		   "refusals: export it", strerror(errno)))
		goto out;
	close(dmabuf);
	/* The fd just closed. */
	ret = drmPrimeFDToHandle(t.kfd, dmabuf, &handle) ? errno : 0;
	check(ret == EBADF, "refusals: importing a closed fd fails with EBADF",
	      sf("got %s", ret ? strerror(ret) : "success"));
	if (!ret)
		gem_close(t.kfd, handle);

	/* A file that is no dma-buf. */
	fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	ret = drmPrimeFDToHandle(t.kfd, fd, &handle) ? errno : 0;
	check(ret == EINVAL, "refusals: importing /dev/null fails with EINVAL",
	      sf("got %s", ret ? strerror(ret) : "success"));
	if (!ret)
		gem_close(t.kfd, handle);
	close(fd);

	/* Framebuffers larger than the imported buffer. */
	ret = vgem_to_atomkms(&vb, &handle);
	if (!check(!ret, "refusals: import the 64 KiB buffer", strerror(-ret)))
		goto out;
	ret = addfb(handle, 1024, 16, DRM_FORMAT_XRGB8888, 4096, 0, &fb);
	check(!ret, "refusals: ADDFB2 1024x16 ending on the buffer's last byte is taken",
	      strerror(-ret));
	if (fb)
		drmModeRmFB(t.kfd, fb);
	ret = addfb(handle, 1024, 17, DRM_FORMAT_XRGB8888, 4096, 0, &fb);
	check(ret == -EINVAL, "refusals: ADDFB2 1024x17 (a line past the end) fails with EINVAL",
	      sf("got %s", ret ? strerror(-ret) : "success"));
	if (fb)
		drmModeRmFB(t.kfd, fb);
	ret = addfb(handle, 1024, 16, DRM_FORMAT_XRGB8888, 4096, 4, &fb);
	check(ret == -EINVAL, "refusals: ADDFB2 1024x16 at offset 4 (a pixel past the end) fails with EINVAL",
	      sf("got %s", ret ? strerror(-ret) : "success"));
	if (fb)
		drmModeRmFB(t.kfd, fb);
	ret = addfb(handle, t.pipe.mode.hdisplay, t.pipe.mode.vdisplay,
		    DRM_FORMAT_XRGB8888, t.pipe.mode.hdisplay * 4, 0, &fb);
	check(ret == -EINVAL, sf("refusals: ADDFB2 %ux%u on it fails with EINVAL",
				 t.pipe.mode.hdisplay, t.pipe.mode.vdisplay),
	      sf("got %s", ret ? strerror(-ret) : "success"));
	if (fb)
		drmModeRmFB(t.kfd, fb);
	gem_close(t.kfd, handle);
out:
	buf_destroy(&vb);
}

/* vgem's card, loading vgem.ko if there is none: the fd, or -1. */
static int vgem_open(void)
{
	int fd, i;

	fd = drm_open_driver("vgem");
	if (fd >= 0)
		return fd;
	if (system("PATH=$PATH:/usr/sbin:/sbin modprobe vgem") != 0)
		return -1;
	t.vgem_loaded = true;
	for (i = 0; i < 100 && fd < 0; i++) {
		fd = drm_open_driver("vgem");
		if (fd < 0)
			usleep(10000);
	}
	return fd;
}

/*
 * Unload the vgem this test loaded: with every client gone, nothing may
 * hold it, imports into atomkms included (a framebuffer's release may
 * trail the close by a moment: up to 3 s).
 */
static void vgem_unload(void)
{
	double end = mono_now() + 3.0;
	int ret;

	for (;;) {
		ret = syscall(SYS_delete_module, "vgem", O_NONBLOCK) ? errno : 0;
		if ((ret != EAGAIN && ret != EBUSY) || mono_now() > end)
			break;
		usleep(20000);
	}
	check(!ret, "vgem unloads: atomkms holds none of its buffers",
	      strerror(ret));
}

#define EXPORTER_CFS "/sys/kernel/config/atomkms/test-vgem-exporter"

/*
 * --exporter atomkms: a second atomkms card made through configfs (one
 * CRTC, a primary plane, an encoder, a connected Virtual monitor) beside
 * the one that imports, as igt's kms_prime@basic-crc-hybrid means to use
 * it: the fd, or -1.
 */
static int exporter_open(void)
{
	static const char *const dirs[] = {
		"", "/crtcs/c", "/planes/p", "/encoders/e", "/connectors/n",
	};
	static const char *const links[][2] = {
		{ "/planes/p/possible_crtcs/c", "/crtcs/c" },
		{ "/encoders/e/possible_crtcs/c", "/crtcs/c" },
		{ "/connectors/n/possible_encoders/e", "/encoders/e" },
	};
	uint64_t before = atomkms_card_mask();
	unsigned int i;

	if (access("/sys/kernel/config/atomkms", F_OK))
		mount("none", "/sys/kernel/config", "configfs", 0, NULL);
	t.exporter_made = true;
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		if (mkdir(sf(EXPORTER_CFS "%s", dirs[i]), 0755))
			return -1;
	if (write_str(EXPORTER_CFS "/planes/p/type", "1"))
		return -1;
	for (i = 0; i < sizeof(links) / sizeof(links[0]); i++)
		if (symlink(sf(EXPORTER_CFS "%s", links[i][1]),
			    sf(EXPORTER_CFS "%s", links[i][0])))
			return -1;
	if (write_str(EXPORTER_CFS "/enabled", "1"))
		return -1;
	return atomkms_open_card(atomkms_card_mask() & ~before);
}

/* Every part, with vgem or a second atomkms card (@hybrid) exporting. */
static void test_exporter(bool hybrid)
{
	struct dumb_fb base = { 0 };
	uint64_t cap = 0;
	uint32_t blob = 0;
	struct areq r;
	int ret;

	t.kfd = atomkms_open();
	if (!check(t.kfd >= 0, "open atomkms device", "not found"))
		goto out;
	if (hybrid) {
		t.name = "second atomkms card";
		t.vfd = exporter_open();
		if (!check(t.vfd >= 0, "a second atomkms card made through configfs",
			   strerror(errno)))
			goto out;
	} else {
		t.vfd = vgem_open();
		if (!check(t.vfd >= 0, sf("open vgem's card%s",
					  t.vgem_loaded ? " (modprobe vgem)" : ""),
			   "no vgem card, and modprobe vgem did not make one"))
			goto out;
		printf("# vgem %s\n", t.vgem_loaded ? "loaded by this test" :
		       "there already (built in, or loaded before)");
	}
	drmGetCap(t.kfd, DRM_CAP_PRIME, &cap);
	check(cap & DRM_PRIME_CAP_IMPORT, "atomkms: DRM_CAP_PRIME has import",
	      sf("%#llx", (unsigned long long)cap));
	cap = 0;
	drmGetCap(t.vfd, DRM_CAP_PRIME, &cap);
	check(cap & DRM_PRIME_CAP_EXPORT, sf("%s: DRM_CAP_PRIME has export", t.name),
	      sf("%#llx", (unsigned long long)cap));

	if (!check(!kms_reset_all(t.kfd), "reset the device", "failed") ||
	    !check(!kms_pipe_find(t.kfd, &t.pipe), "find a pipe", "see stderr"))
		goto out;
	ret = crc_reader_init(&t.crc, t.kfd, t.pipe.crtc_idx);
	if (!check(!ret, sf("CRC directory %s", t.crc.dir), strerror(-ret)))
		goto out;
	ret = dumb_fb_create(t.kfd, t.pipe.mode.hdisplay, t.pipe.mode.vdisplay,
			     &base);
	if (!check(!ret, "create a framebuffer to start from", strerror(-ret)))
		goto out;
	memset(base.pixels, 0x40, base.size);
	t.base_fb = base.fb_id;
	ret = drmModeCreatePropertyBlob(t.kfd, &t.pipe.mode,
					sizeof(t.pipe.mode), &blob);
	if (!check(!ret, "create mode blob", strerror(-ret)))
		goto out;
	areq_init(&r, t.kfd);
	areq_modeset(&r, &t.pipe, blob, &base);
	ret = areq_commit(&r, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
	if (!check(!ret, sf("modeset %ux%u", t.pipe.mode.hdisplay,
			    t.pipe.mode.vdisplay), strerror(-ret)))
		goto out;
	ret = crc_reader_start(&t.crc);
	if (!check(!ret, "open the CRC file", strerror(-ret)))
		goto out_off;

	test_format(DRM_FORMAT_XRGB8888, 4);
	test_format(DRM_FORMAT_RGB565, 2);
	crc_reader_stop(&t.crc);
	test_refusals();

out_off:
	kms_disable_all(t.kfd);
out:
	if (blob)
		drmModeDestroyPropertyBlob(t.kfd, blob);
	if (base.fb_id)
		dumb_fb_destroy(t.kfd, &base);
	if (t.kfd >= 0)
		close(t.kfd);
	if (t.vfd >= 0)
		close(t.vfd);
	if (t.vgem_loaded)
		vgem_unload();
	if (t.exporter_made) {
		/* The exporter's buffers are released: it goes, and its card. */
		atomkms_cfs_remove(EXPORTER_CFS);
		check(access(EXPORTER_CFS, F_OK) && errno == ENOENT,
		      "the second atomkms card removed", "still there");
	}
}

int main(int argc, char **argv)
{
	const char *only = argc == 3 && !strcmp(argv[1], "--exporter") ?
			   argv[2] : NULL;

	if (!only || !strcmp(only, "vgem"))
		test_exporter(false);
	if (!only || !strcmp(only, "atomkms")) {
		memset(&t, 0, sizeof(t));
		t.kfd = -1;
		t.vfd = -1;
		test_exporter(true);
	}
	return tap_done("test-vgem");
}
