/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * atomkms: a virtual KMS display driver.
 *
 * Object model: one &struct atomkms_device owns a &drm_device; each display
 * pipe is an &struct atomkms_crtc (with its vblank timer) fed by its own
 * primary and cursor planes and driving one encoder and one virtual
 * connector (&struct atomkms_output).
 */
#ifndef ATOMKMS_DRV_H
#define ATOMKMS_DRV_H

#include <linux/hrtimer.h>
#include <linux/ktime.h>

#include <drm/drm_connector.h>
#include <drm/drm_crtc.h>
#include <drm/drm_device.h>
#include <drm/drm_encoder.h>
#include <drm/drm_gem_atomic_helper.h>
#include <drm/drm_plane.h>

#define ATOMKMS_DRIVER_NAME	"atomkms"
#define ATOMKMS_MAX_CRTCS	8

/* Framebuffer and mode size limits advertised through mode_config. */
#define ATOMKMS_MAX_FB_WIDTH	8192
#define ATOMKMS_MAX_FB_HEIGHT	8192
#define ATOMKMS_MAX_CURSOR	512

/* Plane stacking: primary at the bottom, cursor on top. */
#define ATOMKMS_ZPOS_PRIMARY	0
#define ATOMKMS_ZPOS_CURSOR	1

/**
 * struct atomkms_config - the device description chosen at load time
 * @num_crtcs: display pipes, 1 to %ATOMKMS_MAX_CRTCS
 * @cursor: give each CRTC a cursor plane
 * @max_width: largest mode the connectors advertise, in pixels
 * @max_height: largest mode the connectors advertise, in lines
 * @pref_width: width of the connectors' preferred mode
 * @pref_height: height of the connectors' preferred mode
 *
 * A plain data structure, filled from module parameters and validated once
 * by atomkms_config_validate() before any DRM object exists.
 */
struct atomkms_config {
	unsigned int num_crtcs;
	bool cursor;
	unsigned int max_width, max_height;
	unsigned int pref_width, pref_height;
};

/**
 * struct atomkms_plane - a universal plane
 * @base: the DRM plane
 */
struct atomkms_plane {
	struct drm_plane base;
};

/**
 * struct atomkms_plane_state - our plane state
 * @base: the shadow-plane state, whose @data maps the framebuffer while a
 *        commit is applied (the compositor reads planes through it)
 */
struct atomkms_plane_state {
	struct drm_shadow_plane_state base;
};

/**
 * struct atomkms_crtc_state - our CRTC state
 * @base: the DRM CRTC state
 * @frame_ns: frame period of the adjusted mode, derived in atomic_check and
 *            only consumed when the CRTC is enabled
 */
struct atomkms_crtc_state {
	struct drm_crtc_state base;
	u64 frame_ns;
};

/**
 * struct atomkms_crtc - one display pipe and its simulated scanout
 * @base: the DRM CRTC
 * @vblank_timer: fires at every vblank while the CRTC is active; started in
 *                atomic_enable and cancelled in atomic_disable, never from
 *                the vblank enable/disable hooks (which run under the vblank
 *                core's vblank_time_lock, which the timer's handler takes)
 * @frame_ns: period of @vblank_timer; written only while the timer is
 *            stopped
 * @last_vblank: time of the latest simulated vblank, written by the timer
 *               handler before it reports the vblank, read locklessly by
 *               the timestamp hook
 */
struct atomkms_crtc {
	struct drm_crtc base;
	struct hrtimer vblank_timer;
	ktime_t frame_ns;
	ktime_t last_vblank;
};

/**
 * struct atomkms_output - the encoder and connector one CRTC drives
 * @encoder: a virtual encoder bound to one CRTC
 * @connector: a virtual connector, always connected
 */
struct atomkms_output {
	struct drm_encoder encoder;
	struct drm_connector connector;
};

/**
 * struct atomkms_device - one atomkms instance
 * @drm: the DRM device
 * @config: the topology it was built from
 * @crtcs: the display pipes, @config.num_crtcs of them
 */
struct atomkms_device {
	struct drm_device drm;
	struct atomkms_config config;
	struct atomkms_crtc *crtcs[ATOMKMS_MAX_CRTCS];
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
	return container_of(state, struct atomkms_plane_state, base.base);
}

/* atomkms_plane.c */
struct drm_plane *atomkms_plane_create(struct atomkms_device *akdev,
				       enum drm_plane_type type,
				       u32 possible_crtcs);

/* atomkms_crtc.c */
struct atomkms_crtc *atomkms_crtc_create(struct atomkms_device *akdev,
					 struct drm_plane *primary,
					 struct drm_plane *cursor);

/* atomkms_output.c */
int atomkms_output_create(struct atomkms_device *akdev,
			  struct atomkms_crtc *crtc);

#endif /* ATOMKMS_DRV_H */
