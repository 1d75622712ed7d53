// SPDX-License-Identifier: GPL-2.0-only
/*
 * Writeback connectors: one per CRTC. A writeback job's framebuffer is
 * mapped like every atomkms framebuffer; the commit arms it in the CRTC state;
 * atomic_flush hands it to the compositor, which composes the next frame
 * into it and signals the job's out-fence.
 *
 * Lifetime: the connector lives inside its &struct atomkms_crtc, which
 * drmm frees with the device, and the core's drm_writeback_connector_init()
 * leaves it to drm_mode_config_cleanup(), which drmm runs last of all,
 * long after that memory is gone. So the connector is cleaned up by a
 * drmm action of its own, registered after the CRTC and so run before it
 * is freed. Each queued job ends in a work item of the core's, on
 * system_long_wq, that still reads the connector and drops the job's
 * framebuffer: the action waits for every one of them first.
 */
#include <linux/atomic.h>
#include <linux/wait_bit.h>

#include <drm/drm_atomic.h>
#include <drm/drm_atomic_helper.h>
#include <drm/drm_atomic_state_helper.h>
#include <drm/drm_edid.h>
#include <drm/drm_framebuffer.h>
#include <drm/drm_managed.h>
#include <drm/drm_modeset_helper_vtables.h>
#include <drm/drm_print.h>
#include <drm/drm_probe_helper.h>
#include <drm/drm_writeback.h>

#include "atomkms_drv.h"

static struct atomkms_crtc *akcrtc_of_wb(struct drm_writeback_connector *wb)
{
	return container_of(wb, struct atomkms_crtc, wb);
}

static const struct drm_connector_funcs atomkms_wb_connector_funcs = {
	.fill_modes		= drm_helper_probe_single_connector_modes,
	.destroy		= drm_connector_cleanup,
	.reset			= drm_atomic_helper_connector_reset,
	.atomic_duplicate_state	= drm_atomic_helper_connector_duplicate_state,
	.atomic_destroy_state	= drm_atomic_helper_connector_destroy_state,
};

static int atomkms_wb_get_modes(struct drm_connector *connector)
{
	struct drm_device *drm = connector->dev;

	return drm_add_modes_noedid(connector, drm->mode_config.max_width,
				    drm->mode_config.max_height);
}

static int atomkms_wb_atomic_check(struct drm_connector *connector,
				   struct drm_atomic_commit *state)
{
	struct drm_connector_state *conn_state =
		drm_atomic_get_new_connector_state(state, connector);
	struct drm_crtc_state *crtc_state;

	if (!conn_state->writeback_job || !conn_state->writeback_job->fb ||
	    !conn_state->crtc)
		return 0;

	/*
	 * The job is armed by the CRTC's flush: make sure it is in the
	 * commit. Its framebuffer's size is checked against the CRTC's
	 * output (the native raster when fitting) by atomkms_scaling_check(),
	 * once every CRTC's fit is known.
	 */
	crtc_state = drm_atomic_get_crtc_state(state, conn_state->crtc);
	if (IS_ERR(crtc_state))
		return PTR_ERR(crtc_state);
	return drm_atomic_helper_check_wb_connector_state(connector, state);
}

/* Called by the commit's modeset enables: arm the job in the CRTC state. */
static void atomkms_wb_atomic_commit(struct drm_connector *connector,
				     struct drm_atomic_commit *state)
{
	struct drm_connector_state *conn_state =
		drm_atomic_get_new_connector_state(state, connector);
	struct drm_writeback_connector *wb = drm_connector_to_writeback(connector);
	struct drm_writeback_job *job = conn_state->writeback_job;
	struct drm_crtc_state *crtc_state;
	struct atomkms_crtc_state *akstate;
	struct atomkms_fb *akfb;
	struct drm_framebuffer *fb;
	unsigned int i;

	if (!job || !job->fb || !conn_state->crtc)
		return;
	crtc_state = drm_atomic_get_new_crtc_state(state, conn_state->crtc);
	if (drm_WARN_ON(connector->dev, !crtc_state))
		return;

	fb = job->fb;
	akfb = to_atomkms_fb(fb);
	akstate = to_atomkms_crtc_state(crtc_state);
	akstate->wb = (struct atomkms_writeback){ .fourcc = fb->format->format };
	for (i = 0; i < fb->format->num_planes && i < 3; i++) {
		akstate->wb.map[i] = akfb->data[i].vaddr;
		akstate->wb.pitch[i] = fb->pitches[i];
	}
	akstate->wb_queued = true;
	/* Counted until its cleanup: see atomkms_wb_cleanup_job(). */
	job->priv = akcrtc_of_wb(wb);
	atomic_inc(&akcrtc_of_wb(wb)->wb_cleanups);
	drm_writeback_queue_job(wb, conn_state);
}

/* Keep the job's out-fence with its device (atomkms_out_fence.c). */
static int atomkms_wb_prepare_job(struct drm_writeback_connector *wb,
				  struct drm_writeback_job *job)
{
	if (!job->out_fence)
		return 0;
	return atomkms_out_fence_keep(wb->base.dev, job->out_fence);
}

/*
 * drm_writeback_cleanup_job() calls this first, then drops the job's
 * framebuffer and frees it: from its work item for a job that was queued
 * and signalled, directly for one whose commit never ran. A queued job's
 * framebuffer is dropped here, so that once the count reaches zero
 * nothing of the device is touched any more.
 */
static void atomkms_wb_cleanup_job(struct drm_writeback_connector *wb,
				   struct drm_writeback_job *job)
{
	struct atomkms_crtc *akcrtc = job->priv;

	if (!akcrtc)
		return;
	if (job->fb) {
		drm_framebuffer_put(job->fb);
		job->fb = NULL;
	}
	if (atomic_dec_and_test(&akcrtc->wb_cleanups))
		wake_up_var(&akcrtc->wb_cleanups);
}

static const struct drm_connector_helper_funcs atomkms_wb_helper_funcs = {
	.get_modes		= atomkms_wb_get_modes,
	.atomic_check		= atomkms_wb_atomic_check,
	.atomic_commit		= atomkms_wb_atomic_commit,
	.prepare_writeback_job	= atomkms_wb_prepare_job,
	.cleanup_writeback_job	= atomkms_wb_cleanup_job,
};

static bool atomkms_wb_queue_empty(struct drm_writeback_connector *wb)
{
	bool empty;

	spin_lock_irq(&wb->job_lock);
	empty = list_empty(&wb->job_queue);
	spin_unlock_irq(&wb->job_lock);
	return empty;
}

/*
 * The device is released: its CRTCs are stopped (atomkms_modeset_fini()),
 * so nothing signals jobs any more. Fail those still queued, wait for the
 * cleanup of every job, then take the connector and its encoder off the
 * mode config's lists before the CRTC's memory goes.
 */
static void atomkms_wb_connector_fini(struct drm_device *drm, void *data)
{
	struct atomkms_crtc *akcrtc = data;
	struct drm_writeback_connector *wb = &akcrtc->wb;

	while (!atomkms_wb_queue_empty(wb))
		drm_writeback_signal_completion(wb, -ECANCELED);
	wait_var_event(&akcrtc->wb_cleanups,
		       !atomic_read(&akcrtc->wb_cleanups));
	drm_connector_cleanup(&wb->base);
	drm_encoder_cleanup(&wb->encoder);
}

/**
 * atomkms_wb_connector_create - give a CRTC a writeback connector
 * @akdev: the device
 * @akcrtc: the CRTC whose frames it writes back
 *
 * Its formats are the compositor's writers.
 *
 * Return: 0 or a negative errno; cleaned up with the drm_device.
 */
int atomkms_wb_connector_create(struct atomkms_device *akdev,
				struct atomkms_crtc *akcrtc)
{
	struct drm_writeback_connector *wb = &akcrtc->wb;
	int ret;

	drm_connector_helper_add(&wb->base, &atomkms_wb_helper_funcs);
	ret = drm_writeback_connector_init(&akdev->drm, wb,
					   &atomkms_wb_connector_funcs, NULL,
					   atomkms_writeback_formats,
					   atomkms_num_writeback_formats,
					   drm_crtc_mask(&akcrtc->base));
	if (ret)
		return ret;
	akcrtc->has_wb = true;
	return drmm_add_action_or_reset(&akdev->drm, atomkms_wb_connector_fini,
					akcrtc);
}
