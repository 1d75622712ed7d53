// SPDX-License-Identifier: GPL-2.0-only
/*
 * Scaling mode and panel fitting: every display connector has the
 * "scaling mode" property (None, Full, Center, Full aspect; Full aspect
 * at reset, as i915's eDP). A CRTC whose mode has its monitor's native
 * timings (the connector's preferred mode: clock, sync positions,
 * totals, flags) but a smaller hdisplay x vdisplay scans out the native
 * raster, the mode-size image fitted into it as the scaling mode says
 * (the core's arithmetic: include/atomkms_fit.h). Planes are placed and
 * clipped against the mode's size, the CRTC's as userspace sees it; the
 * CRC and writeback cover the output raster. With None, or a mode on
 * timings of its own, the mode goes to the monitor as it is.
 *
 * Switching between modes on the same timings, or changing the scaling
 * mode, is a fastset: the frame period stays, so the vblank timer runs
 * on and the commit needs no ALLOW_MODESET. atomkms_scaling_check() runs
 * between the helpers' modeset and plane checks, so that the planes are
 * checked against the new mode, and clears &drm_crtc_state.mode_changed
 * before drm_atomic_check_only() judges whether a modeset is needed.
 *
 * Scaled modes are not added to the connectors' mode lists: clients set
 * them as user modes built on the native timings.
 */
#include <linux/kref.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include <drm/drm_atomic.h>
#include <drm/drm_connector.h>
#include <drm/drm_modes.h>
#include <drm/drm_print.h>

#include "atomkms_drv.h"

/**
 * atomkms_scaling_attach - give a display connector "scaling mode"
 * @connector: the connector, whose state exists
 *
 * Return: 0 or a negative errno.
 */
int atomkms_scaling_attach(struct drm_connector *connector)
{
	int ret;

	ret = drm_connector_attach_scaling_mode_property(connector,
							 BIT(DRM_MODE_SCALE_NONE) |
							 BIT(DRM_MODE_SCALE_FULLSCREEN) |
							 BIT(DRM_MODE_SCALE_CENTER) |
							 BIT(DRM_MODE_SCALE_ASPECT));
	if (ret)
		return ret;
	connector->state->scaling_mode = DRM_MODE_SCALE_ASPECT;
	return 0;
}

/**
 * atomkms_scaling_note_native - remember a connector's native mode
 * @out: the connector, just probed (under the mode_config mutex)
 *
 * The native mode is its preferred one; a connector without one (no
 * monitor) has none, and its CRTC never fits.
 */
void atomkms_scaling_note_native(struct atomkms_output *out)
{
	struct drm_display_mode *mode, *native = NULL;

	list_for_each_entry(mode, &out->connector.modes, head) {
		if (mode->type & DRM_MODE_TYPE_PREFERRED) {
			native = mode;
			break;
		}
	}
	spin_lock(&out->native_lock);
	out->has_native = native;
	if (native)
		drm_mode_copy(&out->native, native);
	spin_unlock(&out->native_lock);
}

/* The same timings but for the active area. */
static bool atomkms_scaling_same_timings(const struct drm_display_mode *a,
					 const struct drm_display_mode *b)
{
	return a->clock == b->clock && a->hsync_start == b->hsync_start &&
	       a->hsync_end == b->hsync_end && a->htotal == b->htotal &&
	       a->hskew == b->hskew && a->vsync_start == b->vsync_start &&
	       a->vsync_end == b->vsync_end && a->vtotal == b->vtotal &&
	       a->vscan == b->vscan && a->flags == b->flags;
}

/**
 * atomkms_scaling_connector_check - a scaling mode change reaches its CRTC
 * @connector: a display connector
 * @state: the commit
 *
 * Return: 0, or an error of drm_atomic_get_crtc_state().
 */
int atomkms_scaling_connector_check(struct drm_connector *connector,
				    struct drm_atomic_commit *state)
{
	struct drm_connector_state *old =
		drm_atomic_get_old_connector_state(state, connector);
	struct drm_connector_state *new =
		drm_atomic_get_new_connector_state(state, connector);
	struct drm_crtc_state *crtc_state;

	if (!new->crtc || old->scaling_mode == new->scaling_mode)
		return 0;
	crtc_state = drm_atomic_get_crtc_state(state, new->crtc);
	return PTR_ERR_OR_ZERO(crtc_state);
}

static void atomkms_fit_buf_release(struct kref *ref)
{
	kvfree(container_of(ref, struct atomkms_fit_buf, ref));
}

/**
 * atomkms_fit_buf_get - another reference on an intermediate image
 * @buf: the image, or NULL
 *
 * Return: @buf.
 */
struct atomkms_fit_buf *atomkms_fit_buf_get(struct atomkms_fit_buf *buf)
{
	if (buf)
		kref_get(&buf->ref);
	return buf;
}

/**
 * atomkms_fit_buf_put - drop a reference on an intermediate image
 * @buf: the image, or NULL
 */
void atomkms_fit_buf_put(struct atomkms_fit_buf *buf)
{
	if (buf)
		kref_put(&buf->ref, atomkms_fit_buf_release);
}

/*
 * What display connector @connector, in state @cs, makes of mode @mode:
 * @fit->mode 0 for no fitting. Return: 0, or -EINVAL for a mode on the
 * native timings larger than the native mode.
 */
static int atomkms_scaling_fit_of(struct drm_crtc *crtc,
				  struct drm_connector *connector,
				  const struct drm_connector_state *cs,
				  const struct drm_display_mode *mode,
				  struct atomkms_fit *fit)
{
	struct atomkms_output *out =
		container_of(connector, struct atomkms_output, connector);
	struct drm_display_mode native;
	bool has_native;

	*fit = (struct atomkms_fit){ };
	spin_lock(&out->native_lock);
	has_native = out->has_native;
	if (has_native)
		drm_mode_copy(&native, &out->native);
	spin_unlock(&out->native_lock);

	if (!has_native || !atomkms_scaling_same_timings(mode, &native))
		return 0;
	if (mode->hdisplay > native.hdisplay ||
	    mode->vdisplay > native.vdisplay) {
		drm_dbg_atomic(crtc->dev,
			       "[CRTC:%d:%s] mode %ux%u on the native timings of [CONNECTOR:%d:%s] is larger than its %ux%u\n",
			       crtc->base.id, crtc->name, mode->hdisplay,
			       mode->vdisplay, connector->base.id,
			       connector->name, native.hdisplay,
			       native.vdisplay);
		return -EINVAL;
	}
	if ((mode->hdisplay == native.hdisplay &&
	     mode->vdisplay == native.vdisplay) ||
	    cs->scaling_mode == DRM_MODE_SCALE_NONE)
		return 0;
	return atomkms_fit_init(fit, cs->scaling_mode, mode->hdisplay,
				mode->vdisplay, native.hdisplay,
				native.vdisplay) ? -EINVAL : 0;
}

/*
 * The fit of an enabled CRTC from its display connectors, all in
 * @state: they must agree (clones on different monitors cannot share
 * one fitted raster). Then its intermediate image, kept if big enough.
 */
static int atomkms_scaling_crtc_fit(struct drm_crtc *crtc,
				    struct drm_atomic_commit *state,
				    struct atomkms_crtc_state *akstate)
{
	const struct drm_display_mode *mode = &akstate->base.mode;
	struct drm_connector_state *cs;
	struct drm_connector *connector;
	struct atomkms_fit fit, first = { };
	struct atomkms_fit_buf *buf;
	bool any = false;
	size_t size;
	int i, ret;

	for_each_new_connector_in_state(state, connector, cs, i) {
		if (cs->crtc != crtc ||
		    connector->connector_type == DRM_MODE_CONNECTOR_WRITEBACK)
			continue;
		ret = atomkms_scaling_fit_of(crtc, connector, cs, mode, &fit);
		if (ret)
			return ret;
		if (any && memcmp(&fit, &first, sizeof(fit))) {
			drm_dbg_atomic(crtc->dev,
				       "[CRTC:%d:%s] its connectors fit the mode differently\n",
				       crtc->base.id, crtc->name);
			return -EINVAL;
		}
		first = fit;
		any = true;
	}

	akstate->fit = first;
	if (!first.mode) {
		atomkms_fit_buf_put(akstate->fit_buf);
		akstate->fit_buf = NULL;
		return 0;
	}
	drm_dbg_atomic(crtc->dev,
		       "[CRTC:%d:%s] panel fitter: %ux%u to %ux%u+%u+%u of %ux%u (scaling mode %u)\n",
		       crtc->base.id, crtc->name, first.width, first.height,
		       first.w, first.h, first.x, first.y, first.out_width,
		       first.out_height, first.mode);
	size = atomkms_fit_buffer_size(first.width, first.height);
	if (akstate->fit_buf && akstate->fit_buf->size >= size)
		return 0;
	buf = kvmalloc(struct_size(buf, data, size), GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	kref_init(&buf->ref);
	buf->size = size;
	atomkms_fit_buf_put(akstate->fit_buf);
	akstate->fit_buf = buf;
	return 0;
}

/* Does @state change a display connector's routing or scaling on @crtc? */
static bool atomkms_scaling_touched(struct drm_crtc *crtc,
				    struct drm_atomic_commit *state)
{
	struct drm_connector_state *old, *new;
	struct drm_connector *connector;
	int i;

	for_each_oldnew_connector_in_state(state, connector, old, new, i)
		if (connector->connector_type != DRM_MODE_CONNECTOR_WRITEBACK &&
		    (old->crtc == crtc || new->crtc == crtc))
			return true;
	return false;
}

/*
 * A mode change on the CRTC's running timings, with the same connectors:
 * the frame period is the same, so the timer runs on (no modeset).
 */
static void atomkms_scaling_fastset(struct drm_crtc *crtc,
				    const struct drm_crtc_state *old,
				    struct drm_crtc_state *new)
{
	if (!new->mode_changed || new->connectors_changed ||
	    new->active_changed || !old->active || !new->active ||
	    !atomkms_scaling_same_timings(&old->mode, &new->mode))
		return;
	drm_dbg_atomic(crtc->dev,
		       "[CRTC:%d:%s] fastset: %ux%u to %ux%u on the same timings\n",
		       crtc->base.id, crtc->name, old->mode.hdisplay,
		       old->mode.vdisplay, new->mode.hdisplay,
		       new->mode.vdisplay);
	new->mode_changed = false;
}

/* A writeback job's framebuffer is the CRTC's output size. */
static int atomkms_scaling_check_wb(struct drm_atomic_commit *state)
{
	struct drm_connector_state *cs;
	struct drm_connector *connector;
	int i;

	for_each_new_connector_in_state(state, connector, cs, i) {
		struct drm_crtc_state *crtc_state;
		struct drm_framebuffer *fb;
		u32 w, h;

		if (connector->connector_type != DRM_MODE_CONNECTOR_WRITEBACK ||
		    !cs->writeback_job || !cs->writeback_job->fb || !cs->crtc)
			continue;
		crtc_state = drm_atomic_get_new_crtc_state(state, cs->crtc);
		if (!crtc_state)
			continue;	/* the writeback check added it */
		atomkms_scaling_output_size(to_atomkms_crtc_state(crtc_state),
					    &w, &h);
		fb = cs->writeback_job->fb;
		if (fb->width != w || fb->height != h) {
			drm_dbg_atomic(connector->dev,
				       "[CONNECTOR:%d:%s] writeback fb %ux%u, output %ux%u\n",
				       connector->base.id, connector->name,
				       fb->width, fb->height, w, h);
			return -EINVAL;
		}
	}
	return 0;
}

/**
 * atomkms_scaling_output_size - the raster a CRTC state scans out
 * @akstate: the state
 * @w: its width: the native mode's when fitting, else the mode's
 * @h: its height
 */
void atomkms_scaling_output_size(const struct atomkms_crtc_state *akstate,
				 u32 *w, u32 *h)
{
	if (akstate->fit.mode) {
		*w = akstate->fit.out_width;
		*h = akstate->fit.out_height;
	} else {
		*w = akstate->base.mode.hdisplay;
		*h = akstate->base.mode.vdisplay;
	}
}

/**
 * atomkms_scaling_check - panel fitting and fastsets of a commit
 * @state: the commit, after drm_atomic_helper_check_modeset()
 *
 * For each enabled CRTC whose mode or display connectors change: its
 * fit, from all its display connectors; the others keep theirs. A mode
 * change on the same timings is made a fastset. Then each writeback
 * job's framebuffer must be its CRTC's output size.
 *
 * Return: 0, -EINVAL (a drm_dbg_atomic() line says why), -ENOMEM, or a
 * lock's error (-EDEADLK: back off and retry).
 */
int atomkms_scaling_check(struct drm_atomic_commit *state)
{
	struct drm_crtc_state *old, *new;
	struct drm_crtc *crtc;
	int i, ret;

	for_each_oldnew_crtc_in_state(state, crtc, old, new, i) {
		struct atomkms_crtc_state *akstate = to_atomkms_crtc_state(new);

		if (!new->enable) {
			akstate->fit = (struct atomkms_fit){ };
			atomkms_fit_buf_put(akstate->fit_buf);
			akstate->fit_buf = NULL;
			continue;
		}
		if (!drm_atomic_crtc_needs_modeset(new) &&
		    !atomkms_scaling_touched(crtc, state))
			continue;
		ret = drm_atomic_add_affected_connectors(state, crtc);
		if (ret)
			return ret;
		ret = atomkms_scaling_crtc_fit(crtc, state, akstate);
		if (ret)
			return ret;
		atomkms_scaling_fastset(crtc, old, new);
	}
	return atomkms_scaling_check_wb(state);
}
