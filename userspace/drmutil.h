// SPDX-License-Identifier: GPL-2.0-only
/*
 * drmutil - small libdrm helpers shared by the atomkms tools and guest tests.
 *
 * Everything here is plain atomic KMS: open the device, look properties up
 * by name, build atomic requests, make dumb framebuffers, wait for events.
 */
#ifndef ATOMKMS_DRMUTIL_H
#define ATOMKMS_DRMUTIL_H

#include <stdbool.h>
#include <stdint.h>

#include <xf86drm.h>
#include <xf86drmMode.h>

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

/*
 * Open the first /dev/dri/card* driven by "atomkms" (or by $ATOMKMS_DRIVER)
 * with universal planes and atomic enabled. Returns the fd, or -1 after
 * printing why on stderr.
 */
int atomkms_open(void);
/*
 * Open the first /dev/dri/card* whose driver is @driver ("vgem"), with no
 * client caps set. Returns the fd, or -1 when there is none.
 */
int drm_open_driver(const char *driver);
/* The atomkms cards that open, a bit per card number (0-63). */
uint64_t atomkms_card_mask(void);
/*
 * Take the configfs device directory @dev apart, whatever state it is in:
 * enabled 0, each object's links, the objects (connectors, encoders,
 * planes, CRTCs), then @dev. 0 when @dev is gone, else -errno of its rmdir.
 */
int atomkms_cfs_remove(const char *dev);
/*
 * Run a configfs script under @root, a line each: "mkdir DIR", "put FILE
 * VALUE", "ln DIR/LINKS TARGET" (a link named as TARGET's last part), to
 * the NULL line or the first failure, which it prints. 0 or -errno.
 */
int atomkms_cfs_build(const char *root, const char *const *script);
/* Open the one card in @mask, atomic; -1 if @mask has not exactly one bit. */
int atomkms_open_card(uint64_t mask);

/* Property id of @name on object @obj of DRM_MODE_OBJECT_@type, 0 if none. */
uint32_t prop_id(int fd, uint32_t obj, uint32_t type, const char *name);
/* Current value of property @name: 0 and *val set, or -ENOENT. */
int prop_get(int fd, uint32_t obj, uint32_t type, const char *name,
	     uint64_t *val);

/*
 * Atomic request with a sticky error: add any number of properties, then
 * look at the result once, in areq_commit(). A missing property or a full
 * request turns every later call into a no-op and makes the commit return
 * that error. As with libdrm, a property added twice keeps the last value.
 * The request keeps its items (to read them back, or to commit it again:
 * TEST_ONLY first, then for real) until areq_fini() or areq_init().
 */
#define AREQ_MAX_ITEMS	2048

struct areq_item {
	uint32_t obj, prop;
	uint64_t val;
};

struct areq {
	int fd;
	int err;		/* first error, negative errno, 0 if none */
	unsigned int n;
	struct areq_item items[AREQ_MAX_ITEMS];
};

void areq_init(struct areq *r, int fd);
void areq_add(struct areq *r, uint32_t obj, uint32_t type, const char *name,
	      uint64_t val);
void areq_add_id(struct areq *r, uint32_t obj, uint32_t prop, uint64_t val);
/*
 * Append one item as is, for areq_commit_raw(): garbage ids (0 too) and a
 * property repeated stay in the request as added.
 */
void areq_add_raw(struct areq *r, uint32_t obj, uint32_t prop, uint64_t val);
/* Returns 0 or a negative errno (the sticky one, or the kernel's). */
int areq_commit(const struct areq *r, uint32_t flags, void *user_data);
/*
 * DRM_IOCTL_MODE_ATOMIC with the items in the order added, without libdrm
 * (which sorts them and drops what it cannot take): 0 or a negative errno.
 */
int areq_commit_raw(const struct areq *r, uint32_t flags);
void areq_fini(struct areq *r);

/* A mapped XRGB8888 dumb buffer with a framebuffer around it. */
struct dumb_fb {
	uint32_t width, height;
	uint32_t stride;	/* bytes */
	uint32_t handle;
	uint32_t fb_id;
	uint64_t size;
	uint32_t *pixels;
};

int dumb_fb_create(int fd, uint32_t width, uint32_t height,
		   struct dumb_fb *fb);
/*
 * Map all @size bytes of dumb buffer @handle of @fd (any driver with dumb
 * buffers, vgem's too), read-write and shared: the address, or NULL with
 * errno set after printing why on stderr.
 */
void *dumb_map(int fd, uint32_t handle, uint64_t size);
void dumb_fb_destroy(int fd, struct dumb_fb *fb);

/* One connector -> CRTC -> primary plane path, and the mode to drive. */
struct kms_pipe {
	uint32_t conn;
	uint32_t crtc;
	int crtc_idx;		/* index in drmModeRes.crtcs, for bitmasks */
	uint32_t plane;
	drmModeModeInfo mode;
};

/*
 * First connected connector, its preferred mode (else its first mode), the
 * first CRTC one of its encoders can drive, and that CRTC's primary plane.
 * Returns 0, or -1 after printing what is missing.
 */
int kms_pipe_find(int fd, struct kms_pipe *p);
/*
 * Enable @p with mode blob @mode_blob, scanning out all of @fb (NULL: the
 * CRTC and connector only, the plane left as it is).
 */
void areq_modeset(struct areq *r, const struct kms_pipe *p,
		  uint32_t mode_blob, const struct dumb_fb *fb);
/* @plane on @crtc showing all of a @w x @h @fb_id at (@x, @y). */
void areq_plane(struct areq *r, uint32_t plane, uint32_t crtc, uint32_t fb_id,
		uint32_t w, uint32_t h, int32_t x, int32_t y);
/* Switch @p off: no mode, CRTC inactive, connector and plane detached. */
void areq_disable(struct areq *r, const struct kms_pipe *p);

/* Nominal refresh in Hz, exactly clock * 1000 / (htotal * vtotal). */
double mode_refresh(const drmModeModeInfo *m);

/*
 * Wait up to @timeout_ms for the fd to become readable and dispatch its
 * events. Returns 1 if events were handled, 0 on timeout, -errno on error
 * (-EINTR when a signal arrived).
 */
int wait_event(int fd, drmEventContext *ev, int timeout_ms);

/* Running statistics over page-flip (or vblank) events. */
struct flip_stats {
	unsigned int events;
	unsigned int seq_first, seq_last;
	uint64_t us_first, us_last;	/* event timestamps, microseconds */
	unsigned int jumps;		/* events that skipped vblanks */
	unsigned int missed;		/* vblanks skipped in total */
	unsigned int backwards;		/* sequence did not increase */
	unsigned int ts_bad;		/* timestamp did not increase */
};

/* Account one event; returns the sequence step from the previous one. */
int flip_stats_add(struct flip_stats *s, unsigned int seq,
		   unsigned int tv_sec, unsigned int tv_usec);
/* Vblanks per second between first and last event, 0 if unknown. */
double flip_stats_refresh(const struct flip_stats *s);

/* CLOCK_MONOTONIC in seconds. */
double mono_now(void);

/* A nonblocking socket that hears the kernel's uevents, or -1. */
int uevent_open(void);
/* Drop the uevents queued on @s. */
void uevent_drain(int s);
/*
 * Wait up to @ms for the kernel's drm HOTPLUG=1 uevent naming connector
 * @conn and, unless @prop is 0, property @prop (CONNECTOR= and PROPERTY=,
 * as igt's igt_connector_event_detected() wants them). Returns the
 * mono_now() it came at, or -1.
 */
double uevent_wait_drm(int s, uint32_t conn, uint32_t prop, int ms);

/*
 * Every connected connector with modes paired with a distinct CRTC one of
 * its encoders allows (a maximum matching, so that no connector is left out
 * by a greedy choice), each with its preferred mode (else its first) and the
 * CRTC's primary plane. Fills up to @max pipes in connector order; returns
 * how many, or -1 after printing why on stderr.
 */
int kms_pipes_find(int fd, struct kms_pipe *pipes, int max);
/*
 * Switch everything off in one ALLOW_MODESET commit: every CRTC inactive
 * with no mode, every connector and plane detached. 0 or a negative errno.
 */
int kms_disable_all(int fd);
/*
 * kms_disable_all() that also puts the standard properties a client may
 * have left behind back to their defaults, where the device has them:
 * plane rotation 0, opaque alpha, pre-multiplied blending; no CRTC
 * DEGAMMA_LUT, CTM or GAMMA_LUT, VRR off. 0 or a negative errno.
 */
int kms_reset_all(int fd);
/* DRM_PLANE_TYPE_* of @plane, or -1. */
int plane_type(int fd, uint32_t plane);

/*
 * Framebuffers of any format drmutil knows the layout of (RGB from 16 to
 * 64 bits per pixel, NV12/NV21/NV16/NV61/NV24/NV42, YUV420/YVU420/YUV422/
 * YUV444, P010, YUYV, UYVY): one dumb buffer holding every plane, each
 * line @pitch[i] bytes, plane i at @map + @offset[i].
 */
struct fmt_fb {
	uint32_t width, height;
	uint32_t fourcc;
	uint32_t handle;
	uint32_t fb_id;
	unsigned int num_planes;
	uint32_t pitch[3];
	uint32_t offset[3];
	uint32_t row_bytes[3];	/* bytes of pixels in one line of plane i */
	uint32_t rows[3];	/* lines of plane i */
	uint64_t size;
	uint8_t *map;
};

/* Planes, bytes per pixel and chroma subsampling; 0 or -EINVAL. */
int fourcc_layout(uint32_t fourcc, unsigned int *num_planes,
		  unsigned int cpp[3], unsigned int *hsub, unsigned int *vsub);
/* "XR24" and so on, in one of a few static buffers. */
const char *fourcc_str(uint32_t fourcc);
int fmt_fb_create(int fd, uint32_t width, uint32_t height, uint32_t fourcc,
		  struct fmt_fb *fb);
void fmt_fb_destroy(int fd, struct fmt_fb *fb);

/* A writeback connector, its pixel formats and modes. */
struct wb_conn {
	uint32_t conn;
	uint32_t possible_crtcs;	/* of its encoder */
	uint32_t *formats;		/* WRITEBACK_PIXEL_FORMATS */
	unsigned int num_formats;
	drmModeModeInfo *modes;
	int count_modes;
};

/*
 * Enable DRM_CLIENT_CAP_WRITEBACK_CONNECTORS and find the writeback
 * connector that CRTC index @crtc_idx may drive. 0, or a negative errno
 * after printing why on stderr (-ENOENT: there is none).
 */
int wb_conn_find(int fd, int crtc_idx, struct wb_conn *wb);
void wb_conn_fini(struct wb_conn *wb);
bool wb_conn_has_format(const struct wb_conn *wb, uint32_t fourcc);

/*
 * Wait up to @timeout_ms for sync_file @fence to signal: 1 signalled,
 * 0 timeout, negative errno on error.
 */
int fence_wait(int fence, int timeout_ms);
/* A sync_file's status: 1 signalled, 0 pending, negative: its error. */
int fence_status(int fence);

/* Write @s whole to the file at @path (sysfs, debugfs): 0 or a negative errno. */
int write_str(const char *path, const char *s);

/*
 * The DRM debugfs CRC API of one CRTC (dri/MINOR/crtc-N/crc), source
 * "auto", as igt reads it.
 */
struct crc_reader {
	char dir[128];
	int data;		/* the open crc/data file, or -1 */
};

/* An entry of crc/data: the frame and atomkms's two words as one value. */
struct crc_entry {
	uint32_t frame;
	uint64_t value;
};

/*
 * Find the CRC directory of CRTC index @crtc_idx of device @fd, mounting
 * debugfs if it is not: 0 or a negative errno.
 */
int crc_reader_init(struct crc_reader *c, int fd, int crtc_idx);
/* Select source "auto" and open crc/data: 0 or a negative errno. */
int crc_reader_start(struct crc_reader *c);
/* Close crc/data, which stops the capture. */
void crc_reader_stop(struct crc_reader *c);
/*
 * The next entry, waiting up to @timeout_ms: 0 or a negative errno
 * (-ETIMEDOUT when none came).
 */
int crc_reader_next(struct crc_reader *c, struct crc_entry *e, int timeout_ms);

/* The vblank counter of CRTC index @crtc_idx now: 0, or a negative errno. */
int vblank_count(int fd, int crtc_idx, uint32_t *seq);
/*
 * The first entry of a frame after @frame, skipping older ones (the queue
 * holds every frame since the capture started): 0 or a negative errno.
 */
int crc_reader_next_after(struct crc_reader *c, uint32_t frame,
			  struct crc_entry *e, int timeout_ms);

/* Value of the entry called @name of enum or bitmask property @prop. */
int prop_enum(int fd, uint32_t obj, uint32_t type, const char *prop,
	      const char *name, uint64_t *val);

/* "crtc", "connector", "plane" or "object", for messages. */
const char *obj_type_name(uint32_t type);

#endif /* ATOMKMS_DRMUTIL_H */
