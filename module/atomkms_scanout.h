/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The simulated scanout of a CRTC (atomkms_scanout.c): after each vblank,
 * while someone consumes the result (CRC capture, a writeback job), the
 * compositor core composes the committed state into a frame.
 */
#ifndef ATOMKMS_SCANOUT_H
#define ATOMKMS_SCANOUT_H

#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include "atomkms_bands.h"
#include "atomkms_compose.h"
#include "atomkms_fit.h"

struct atomkms_crtc;
struct atomkms_crtc_state;
struct atomkms_fit_buf;
struct drm_crtc;
struct drm_framebuffer;
struct drm_pending_vblank_event;
struct drm_plane;
struct drm_property_blob;

/**
 * struct atomkms_frame_snapshot - what one composition reads
 * @frame: the frame, pointing at @planes
 * @planes: the planes, pointing at @jobs
 * @jobs: copies of the plane jobs
 * @color: the colour pipeline prepared at atomic check, pointing into
 *         @blobs
 * @fbs: references on the framebuffers the planes read
 * @owners: the plane each of @planes belongs to
 * @blobs: references on the DEGAMMA_LUT, CTM and GAMMA_LUT blobs
 * @fit: the panel fitter's geometry (@fit.mode 0: none)
 * @fit_buf: a reference on the intermediate image while fitting
 *
 * Taken under &atomkms_scanout.lock, so a composition never reads a
 * state that a commit or an async cursor update is changing or freeing.
 */
struct atomkms_frame_snapshot {
	struct atomkms_frame frame;
	struct atomkms_frame_plane planes[ATOMKMS_COMPOSE_MAX_PLANES];
	struct atomkms_plane_job jobs[ATOMKMS_COMPOSE_MAX_PLANES];
	struct atomkms_color_prep color;
	struct drm_framebuffer *fbs[ATOMKMS_COMPOSE_MAX_PLANES];
	struct drm_plane *owners[ATOMKMS_COMPOSE_MAX_PLANES];
	struct drm_property_blob *blobs[3];
	struct atomkms_fit fit;
	struct atomkms_fit_buf *fit_buf;
};

/**
 * struct atomkms_compose_stats - the time compositions take
 * @frames: compositions timed
 * @workers: the workers that composed the last one
 * @last_ns: the last one's time, from its first line to its CRC
 * @max_ns: the longest
 * @total_ns: their sum
 */
struct atomkms_compose_stats {
	u64 frames;
	unsigned int workers;
	u64 last_ns;
	u64 max_ns;
	u64 total_ns;
};

/**
 * struct atomkms_scanout - the compositor's side of a CRTC
 * @wq: ordered queue running @work
 * @work: composes the frame for CRC capture and writeback
 * @scratch: the compositor's line buffers, sized for the widest mode at
 *           load time, so no commit allocates and no frame can fail
 * @snap: the compositor's copy of the frame it composes (its own: the
 *        queue is ordered)
 * @bands: the workers that compose a large frame's other bands
 * @lock: protects @active, @crc_enabled, @crc_epoch, @frame_start,
 *        @frame_end, @frame_pending, @composing, @async_event, @wb_jobs
 *        @wb_target and @stats, between the vblank timer, the commit,
 *        the CRC source hook, the compositor and debugfs
 * @active: the committed state, swapped in by atomic_flush; the
 *          compositor copies what it needs from it under @lock
 * @generation: bumped whenever @active or its planes change (commits and
 *              async cursor updates)
 * @crc_enabled: CRC capture is on
 * @crc_epoch: bumped whenever the CRC source is set or cleared, so that a
 *             composition begun for one reader never reports to the next
 * @frame_start: first vblank not yet given a CRC
 * @frame_end: latest vblank to give a CRC
 * @frame_pending: @frame_start..@frame_end wait for @work
 * @composing: @work is composing from @snap
 * @async_event: the event of an async flip that latched while a
 *               composition was reading the old framebuffer; sent once
 *               that composition lets go of it
 * @wb_jobs: writeback jobs queued but not yet signalled
 * @wb_target: where the newest of them wants the frame
 * @stats: composition times, in debugfs atomkms_compose_time
 */
struct atomkms_scanout {
	struct workqueue_struct *wq;
	struct work_struct work;
	void *scratch;
	struct atomkms_frame_snapshot snap;
	struct atomkms_bands bands;

	spinlock_t lock; /* see @lock above */
	struct atomkms_crtc_state *active;
	u64 generation;
	bool crc_enabled;
	u64 crc_epoch;
	u64 frame_start, frame_end;
	bool frame_pending;
	bool composing;
	struct drm_pending_vblank_event *async_event;
	unsigned int wb_jobs;
	struct atomkms_writeback wb_target;
	struct atomkms_compose_stats stats;
};

int atomkms_scanout_init(struct atomkms_crtc *akcrtc, unsigned int index,
			 u32 max_width);
void atomkms_scanout_vblank(struct atomkms_crtc *akcrtc);
void atomkms_scanout_publish(struct atomkms_crtc *akcrtc,
			     struct atomkms_crtc_state *akstate);
bool atomkms_scanout_defer_async_event(struct atomkms_crtc *akcrtc,
				       struct drm_pending_vblank_event *event);
int atomkms_crc_set_source(struct drm_crtc *crtc, const char *src);
int atomkms_crc_verify_source(struct drm_crtc *crtc, const char *src,
			      size_t *values_cnt);
const char *const *atomkms_crc_get_sources(struct drm_crtc *crtc,
					   size_t *count);

void atomkms_scanout_cancel_wb(struct atomkms_crtc *akcrtc);
void atomkms_scanout_debugfs_init(struct atomkms_crtc *akcrtc);

#endif /* ATOMKMS_SCANOUT_H */
