/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * atomkms: a virtual KMS display driver.
 *
 * Object model: one &struct atomkms_device owns a &drm_device, built by
 * walking a &struct atomkms_topology (include/atomkms_topology.h). Each
 * display pipe is an &struct atomkms_crtc (with its vblank timer and its
 * writeback connector, if any) fed by its primary, overlay and cursor
 * planes; each Virtual connector with its encoder is an &struct
 * atomkms_output, which the topology routes to one CRTC or several.
 */
#ifndef ATOMKMS_DRV_H
#define ATOMKMS_DRV_H

#include <linux/dma-fence.h>
#include <linux/hrtimer.h>
#include <linux/iosys-map.h>
#include <linux/kref.h>
#include <linux/ktime.h>
#include <linux/seqlock.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include <drm/drm_connector.h>
#include <drm/drm_crtc.h>
#include <drm/drm_device.h>
#include <drm/drm_encoder.h>
#include <drm/drm_framebuffer.h>
#include <drm/drm_plane.h>
#include <drm/drm_writeback.h>

#include "atomkms_compat.h"
#include "atomkms_compose.h"
#include "atomkms_fit.h"
#include "atomkms_hdcp.h"
#include "atomkms_hdr.h"
#include "atomkms_scanout.h"
#include "atomkms_timing.h"
#include "atomkms_topology.h"
#include "atomkms_vblank.h"

#define ATOMKMS_DRIVER_NAME	"atomkms"
#define ATOMKMS_MAX_CRTCS	ATOMKMS_TOPO_MAX_CRTCS
/* Entries of GAMMA_LUT and DEGAMMA_LUT (and of the legacy gamma ramp). */
#define ATOMKMS_LUT_SIZE	ATOMKMS_TOPO_LUT_SIZE

/* Framebuffer and mode size limits advertised through mode_config. */
#define ATOMKMS_MAX_FB_WIDTH	8192
#define ATOMKMS_MAX_FB_HEIGHT	8192
#define ATOMKMS_MAX_CURSOR	512

/**
 * struct atomkms_fb - a framebuffer, mapped for its whole life
 * @base: the DRM framebuffer; first, as drm_gem_fb_destroy() frees it
 * @map: the vmap of each GEM object
 * @data: the address of each plane's first pixel (map + offset)
 */
struct atomkms_fb {
	struct drm_framebuffer base;
	struct iosys_map map[DRM_FORMAT_MAX_PLANES];
	struct iosys_map data[DRM_FORMAT_MAX_PLANES];
};

static inline struct atomkms_fb *to_atomkms_fb(struct drm_framebuffer *fb)
{
	return container_of(fb, struct atomkms_fb, base);
}

/**
 * struct atomkms_plane - a universal plane
 * @base: the DRM plane
 * @min_scale: smallest src/dst ratio (16.16) it scales by, from the topology
 * @max_scale: largest
 */
struct atomkms_plane {
	struct drm_plane base;
	int min_scale, max_scale;
};

static inline struct atomkms_plane *to_atomkms_plane(struct drm_plane *plane)
{
	return container_of(plane, struct atomkms_plane, base);
}

/**
 * struct atomkms_plane_state - our plane state
 * @base: the DRM plane state
 * @job: what the compositor does with this plane, derived in atomic_check
 */
struct atomkms_plane_state {
	struct drm_plane_state base;
	struct atomkms_plane_job job;
};

/**
 * struct atomkms_fit_buf - the intermediate image of a fitted frame
 * @ref: held by each CRTC state that fits and by the composition
 *       reading it (atomkms_fit_buf_get(), atomkms_fit_buf_put())
 * @size: bytes of @data
 * @data: the image (atomkms_fit_compose()), allocated at atomic check so
 *        that no frame allocates; only the CRTC's ordered compositor
 *        queue writes it
 */
struct atomkms_fit_buf {
	struct kref ref;
	size_t size;
	u8 data[];
};

/**
 * struct atomkms_crtc_state - our CRTC state
 * @base: the DRM CRTC state
 * @timing: frame lengths of the adjusted mode, derived in atomic_check:
 *          its period, and with VRR_ENABLED on a CRTC whose connectors
 *          are all vrr_capable, the range of their EDIDs' range limits
 * @color: the colour pipeline, prepared in atomic_check (identity stages
 *         dropped, the CTM converted), pointing into this state's LUT and
 *         CTM blobs
 * @planes: the visible planes in ascending zpos, with their mapped sources;
 *          filled by atomic_flush, when the framebuffers are mapped
 * @frame: the compositor's frame description, pointing at @planes and @color
 * @fbs: the framebuffer of each of @planes
 * @wb: where this commit's writeback job wants the frame
 * @wb_queued: this commit queued a writeback job; filled by the writeback
 *             connector's atomic_commit, consumed by atomic_flush
 * @tile_group: the DRM tile group of the tiled connectors it drives (0:
 *              none), found at each modeset (atomkms_tile.c); its CRTC is
 *              genlocked to the group's other CRTCs
 * @bpc: the output depth, 8 or 10 bits per channel, chosen in atomic_check
 *       from its display connectors' &drm_connector_state.max_bpc (8 with
 *       none); the frame's CRC covers this many bits
 * @fit: the panel fitter (atomkms_scaling.c): @fit.mode 0 when the mode
 *       goes to the monitor as it is, else how the mode-size frame is
 *       fitted into the native raster; derived at atomic check
 * @fit_buf: the intermediate image while fitting, else NULL
 */
struct atomkms_crtc_state {
	struct drm_crtc_state base;
	struct atomkms_vblank_timing timing;
	struct atomkms_color_prep color;
	struct atomkms_frame_plane planes[ATOMKMS_COMPOSE_MAX_PLANES];
	struct atomkms_frame frame;
	struct drm_framebuffer *fbs[ATOMKMS_COMPOSE_MAX_PLANES];
	struct atomkms_writeback wb;
	bool wb_queued;
	int tile_group;
	u8 bpc;
	struct atomkms_fit fit;
	struct atomkms_fit_buf *fit_buf;
};

/**
 * struct atomkms_crtc - one display pipe and its simulated scanout
 * @base: the DRM CRTC
 * @vblank_timer: fires at every vblank while the CRTC is active; started in
 *                atomic_enable and cancelled in atomic_disable, never from
 *                the vblank enable/disable hooks (which run under the vblank
 *                core's vblank_time_lock, which the timer's handler takes)
 * @vbl_lock: protects @sched, @reported and @scanning, and orders every
 *            setting of @vblank_timer; taken by the timer's handler, by
 *            commits (atomic_enable, atomic_flush, atomic_disable), and
 *            read locklessly by the vblank core's counter and timestamp
 *            hooks. Never held while calling into the vblank core.
 * @sched: when vblanks come (atomkms_vblank.h): the simulated frame
 *         counter, the latest vblank and the next one, where the timer is
 * @reported: the @sched.count the compositor was last told about
 * @scanning: @vblank_timer runs: set before it starts, cleared after it
 *            is cancelled
 * @tile_group: the DRM tile group of the tiles it scans out (0: none),
 *              as its state said when it was switched on; under
 *              @vbl_lock, read by the group's other CRTCs (atomkms_tile.c)
 * @scanout: its simulated scanout: the compositor run for CRCs and
 *           writeback (atomkms_scanout.h)
 * @wb: its writeback connector, if @has_wb
 * @has_wb: @wb exists
 * @wb_cleanups: writeback jobs queued and not yet cleaned up by the
 *               core's work item, which the device's release waits for
 */
struct atomkms_crtc {
	struct drm_crtc base;
	struct hrtimer vblank_timer;
	seqlock_t vbl_lock;
	struct atomkms_vblank_sched sched;
	u64 reported;
	bool scanning;
	int tile_group;

	struct atomkms_scanout scanout;

	struct drm_writeback_connector wb;
	bool has_wb;
	atomic_t wb_cleanups;
};

/**
 * struct atomkms_output - a Virtual connector and its encoder
 * @encoder: the encoder, routed to CRTCs by the topology
 * @connector: the connector, a monitor described by the topology
 * @index: its index among the topology's connectors
 * @edid: the EDID written through configfs, in use instead of the
 *        generated one while set; under the mode_config mutex
 * @vrr: its vrr_capable property's value, set at each probe (under the
 *       mode_config mutex), read by the CRTCs' atomic_check
 * @hdcp: its content protection (atomkms_hdcp.c)
 * @hdr: its monitor does HDR (atomkms_hdr.c), fixed for the device's life
 * @native_lock: protects @native and @has_native, written at each probe
 *               (under the mode_config mutex), read by atomic checks
 * @native: its native mode, the preferred one of its last probe, if
 *          @has_native (atomkms_scaling.c)
 * @has_native: it has one (a monitor with a preferred mode)
 */
struct atomkms_output {
	struct drm_encoder encoder;
	struct drm_connector connector;
	unsigned int index;
	const struct drm_edid *edid;
	bool vrr;
	struct atomkms_hdcp hdcp;
	bool hdr;
	spinlock_t native_lock; /* see @native_lock above */
	struct drm_display_mode native;
	bool has_native;
};

/**
 * struct atomkms_device - one atomkms instance
 * @drm: the DRM device
 * @topo: the topology it was built from
 * @crtcs: the display pipes, @topo.num_crtcs of them
 * @outputs: the Virtual connectors with their encoders, @topo.num_connectors
 * @in_formats_async: the IN_FORMATS_ASYNC property, on kernels whose core
 *                    does not make it (atomkms_compat.c)
 * @limits_on: @topo.limits limits something (atomkms_limits_any()): the
 *             atomic check judges every state against it
 */
struct atomkms_device {
	struct drm_device drm;
	struct atomkms_topology topo;
	struct atomkms_crtc *crtcs[ATOMKMS_TOPO_MAX_CRTCS];
	struct atomkms_output *outputs[ATOMKMS_TOPO_MAX_CONNECTORS];
	struct drm_property *in_formats_async;
	bool limits_on;
};

static inline struct atomkms_device *to_atomkms_device(struct drm_device *drm)
{
	return container_of(drm, struct atomkms_device, drm);
}

static inline struct atomkms_crtc *to_atomkms_crtc(struct drm_crtc *crtc)
{
	return container_of(crtc, struct atomkms_crtc, base);
}

static inline struct atomkms_crtc_state *
to_atomkms_crtc_state(struct drm_crtc_state *state)
{
	return container_of(state, struct atomkms_crtc_state, base);
}

static inline struct atomkms_plane_state *
to_atomkms_plane_state(struct drm_plane_state *state)
{
	return container_of(state, struct atomkms_plane_state, base);
}

/* The plane state a frame's job was derived in (crtc.c builds frames so). */
static inline const struct atomkms_plane_state *
atomkms_job_plane_state(const struct atomkms_plane_job *job)
{
	return container_of(job, struct atomkms_plane_state, job);
}

/* atomkms_drv.c: device creation, visible to atomkms_test.ko (KUnit) */
#if IS_ENABLED(CONFIG_KUNIT)
int atomkms_modeset_init(struct atomkms_device *akdev);
#endif

/* atomkms_commit.c */
int atomkms_atomic_commit(struct drm_device *dev,
			  struct drm_atomic_commit *state, bool nonblock);
int atomkms_commit_init(void);
void atomkms_commit_exit(void);

/* atomkms_limits.c */
int atomkms_atomic_check(struct drm_device *dev, struct drm_atomic_commit *state);
void atomkms_limits_init_device(struct atomkms_device *akdev);
unsigned int atomkms_limits_cursor_hints(struct atomkms_device *akdev,
					 struct drm_plane_size_hint *hints,
					 unsigned int max);

/* atomkms_fb.c, atomkms_gem.c */
struct drm_gem_object *atomkms_gem_create_object(struct drm_device *dev,
						 size_t size);

/* atomkms_plane.c */
struct drm_plane *atomkms_plane_create(struct atomkms_device *akdev,
				       const struct atomkms_topo_plane *tp);

/* atomkms_crtc.c */
struct atomkms_crtc *atomkms_crtc_create(struct atomkms_device *akdev,
					 struct drm_plane *primary,
					 struct drm_plane *cursor,
					 unsigned int index);

void atomkms_crtc_stop(struct atomkms_crtc *akcrtc);
void atomkms_timing_from_mode(struct atomkms_timing *t,
			      const struct drm_display_mode *mode, bool hw);
int atomkms_tile_group_of(struct drm_crtc *crtc, struct drm_atomic_commit *state);
bool atomkms_tile_peer(struct atomkms_crtc *akcrtc, int group,
		       const struct atomkms_vblank_timing *t,
		       struct atomkms_vblank_sched *peer);
void atomkms_tile_evade(struct drm_atomic_commit *state);

void atomkms_crtc_build_frame(struct drm_crtc *crtc,
			      struct atomkms_crtc_state *akstate);

/* atomkms_wb_connector.c */
int atomkms_wb_connector_create(struct atomkms_device *akdev,
				struct atomkms_crtc *akcrtc);

/* atomkms_out_fence.c */
int atomkms_out_fence_keep(struct drm_device *drm, struct dma_fence *fence);
void atomkms_out_fence_exit(void);

/* atomkms_output.c */
int atomkms_output_create(struct atomkms_device *akdev, unsigned int index);
void atomkms_output_set_connected(struct atomkms_device *akdev,
				  unsigned int index, bool connected);
int atomkms_output_set_edid(struct atomkms_device *akdev, unsigned int index,
			    const u8 *edid, size_t len);
int atomkms_output_check_edid(const u8 *edid, size_t len);
void atomkms_output_set_link_status(struct atomkms_device *akdev,
				    unsigned int index, bool bad);
bool atomkms_output_link_bad(struct atomkms_device *akdev, unsigned int index);
bool atomkms_output_vrr_capable(struct drm_connector *connector);
struct atomkms_hdcp *atomkms_output_hdcp(struct drm_connector *connector);
void atomkms_output_set_hdcp_delay(struct atomkms_device *akdev,
				   unsigned int index, unsigned int delay_ms);

/**
 * struct atomkms_platdata - what an atomkms platform device holds for
 * each probe: the hardware, which outlives the DRM device bound to it
 * @topo: the topology, with each connector's monitor as last set
 *        (connected, hdcp_delay_ms: atomkms_monitor.c)
 * @edid: each connector's EDID written through configfs, in use, or NULL
 *        (the generated EDID); freed by atomkms_device_destroy()
 * @edid_len: its bytes
 *
 * Changed under the platform device's lock (device_lock()).
 */
struct atomkms_platdata {
	struct atomkms_topology topo;
	u8 *edid[ATOMKMS_TOPO_MAX_CONNECTORS];
	u32 edid_len[ATOMKMS_TOPO_MAX_CONNECTORS];
};

/* atomkms_drv.c */
struct platform_device;
struct platform_device *atomkms_device_create(const struct atomkms_topology *topo,
					      const struct atomkms_config *config,
					      int id);
void atomkms_device_destroy(struct platform_device *pdev);

/* atomkms_monitor.c */
void atomkms_monitor_set_connected(struct platform_device *pdev,
				   unsigned int index, bool connected);
int atomkms_monitor_set_edid(struct platform_device *pdev, unsigned int index,
			     const u8 *edid, u32 len);
void atomkms_monitor_set_hdcp_delay(struct platform_device *pdev,
				    unsigned int index, unsigned int delay_ms);
int atomkms_monitor_restore(struct atomkms_device *akdev,
			    const struct atomkms_platdata *pd);

/* atomkms_scaling.c */
int atomkms_scaling_attach(struct drm_connector *connector);
void atomkms_scaling_note_native(struct atomkms_output *out);
int atomkms_scaling_connector_check(struct drm_connector *connector,
				    struct drm_atomic_commit *state);
int atomkms_scaling_check(struct drm_atomic_commit *state);
void atomkms_scaling_output_size(const struct atomkms_crtc_state *akstate,
				 u32 *w, u32 *h);
struct atomkms_fit_buf *atomkms_fit_buf_get(struct atomkms_fit_buf *buf);
void atomkms_fit_buf_put(struct atomkms_fit_buf *buf);

/* atomkms_configfs.c */
int atomkms_configfs_init(void);
void atomkms_configfs_exit(void);
int atomkms_output_routing(struct atomkms_device *akdev);

#endif /* ATOMKMS_DRV_H */
