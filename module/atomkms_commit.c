// SPDX-License-Identifier: GPL-2.0-only
/*
 * Atomic commits: drm_atomic_helper_commit()'s sequence (setup, prepare,
 * swap, program, signal, clean up), with the programming done in the
 * ioctl whenever nothing has to be waited for first.
 *
 * Programming atomkms is publishing the new state to the compositor and
 * arming the events for the next vblank: microseconds, and nothing to
 * wait for once the commits it depends on are done and its fences have
 * signalled. The helper runs every nonblocking commit in a worker, so
 * whether a flip makes the next vblank depends on when that worker gets
 * a CPU; beside busy processes under TCG it sometimes did not within a
 * frame (igt kms_cursor_legacy@2x-long-flip-vs-cursor-*). Here such a
 * commit is programmed before the ioctl returns, its event armed for the
 * vblank after it; only the wait for that vblank and the release of the
 * old framebuffers go to the worker. Commits that must wait (a modeset,
 * an unsignalled fence, a previous commit still in flight) take the
 * helper's path: all of it in the worker.
 */
#include <linux/completion.h>
#include <linux/dma-fence.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include <drm/drm_atomic.h>
#include <drm/drm_atomic_helper.h>
#include <drm/drm_device.h>
#include <drm/drm_vblank.h>

#include "atomkms_drv.h"

/*
 * The nonblocking commits' workers. A worker may drop the last reference
 * on a device whose removal raced with its commit, and so run the
 * device's release, which is module code: the module drains its own
 * queue at exit (system_unbound_wq would not be waited for).
 */
static struct workqueue_struct *atomkms_commit_wq;

/* Latch the new state: publish it, arm or send its events. */
static void atomkms_commit_program(struct drm_atomic_commit *state)
{
	struct drm_device *dev = state->dev;

	drm_atomic_helper_commit_modeset_disables(dev, state);
	drm_atomic_helper_commit_modeset_enables(dev, state);
	/* The tiles of a monitor flip at one vblank (atomkms_tile.c). */
	atomkms_tile_evade(state);
	drm_atomic_helper_commit_planes(dev, state,
					DRM_PLANE_COMMIT_ACTIVE_ONLY);
	atomkms_hdcp_commit(state);
	drm_atomic_helper_fake_vblank(state);
	drm_atomic_helper_commit_hw_done(state);
}

/*
 * Wait for the new state to be latched (flip_done, not a vblank on every
 * CRTC as drm_atomic_helper_commit_tail() does: events and the next
 * commit are released as soon as the state is latched), then release
 * the old framebuffers and the state.
 */
static void atomkms_commit_finish(struct drm_atomic_commit *state)
{
	struct drm_device *dev = state->dev;

	drm_atomic_helper_wait_for_flip_done(dev, state);
	/*
	 * drm_send_event_helper() completes flip_done first and only then
	 * signals the out-fence and queues the event on the file, all under
	 * event_lock. A blocking commit that returned on flip_done alone
	 * could reach userspace in that window (igt's fd_completed() checks
	 * saw it under TCG): taking the lock waits for the sender to finish.
	 */
	spin_lock_irq(&dev->event_lock);
	spin_unlock_irq(&dev->event_lock);
	drm_atomic_helper_cleanup_planes(dev, state);
	drm_atomic_helper_commit_cleanup_done(state);
	drm_atomic_commit_put(state);
}

/*
 * Everything after the swap of a commit whose fences have signalled:
 * a blocking commit's in the ioctl, a waiting nonblocking one's in the
 * worker.
 */
static void atomkms_commit_tail(struct drm_atomic_commit *state)
{
	drm_atomic_helper_wait_for_dependencies(state);
	atomkms_commit_program(state);
	atomkms_commit_finish(state);
}

/* A nonblocking commit that had to wait: all of it, in the worker. */
static void atomkms_commit_work(struct work_struct *work)
{
	struct drm_atomic_commit *state =
		container_of(work, struct drm_atomic_commit, commit_work);

	drm_atomic_helper_wait_for_fences(state->dev, state, false);
	atomkms_commit_tail(state);
}

/* A nonblocking commit programmed in the ioctl: the rest. */
static void atomkms_commit_finish_work(struct work_struct *work)
{
	atomkms_commit_finish(container_of(work, struct drm_atomic_commit,
					   commit_work));
}

static bool atomkms_commit_done(struct drm_crtc_commit *commit)
{
	return !commit || (completion_done(&commit->hw_done) &&
			   completion_done(&commit->flip_done));
}

/*
 * Can @state be programmed now, without waiting? Called after
 * drm_atomic_helper_prepare_planes() (which sets the planes' implicit
 * fences) and before the swap, so the current states are the ones the
 * commit replaces.
 */
static bool atomkms_commit_ready(struct drm_atomic_commit *state)
{
	struct drm_connector_state *conn_state;
	struct drm_crtc_state *crtc_state;
	struct drm_plane_state *plane_state;
	struct drm_connector *conn;
	struct drm_plane *plane;
	struct drm_crtc *crtc;
	int i;

	for_each_new_crtc_in_state(state, crtc, crtc_state, i)
		if (drm_atomic_crtc_needs_modeset(crtc_state) ||
		    !atomkms_commit_done(crtc->state->commit))
			return false;
	for_each_new_connector_in_state(state, conn, conn_state, i)
		if (!atomkms_commit_done(conn->state->commit))
			return false;
	for_each_new_plane_in_state(state, plane, plane_state, i)
		if (!atomkms_commit_done(plane->state->commit) ||
		    (plane_state->fence &&
		     !dma_fence_is_signaled(plane_state->fence)))
			return false;
	return true;
}

/**
 * atomkms_atomic_commit - &drm_mode_config_funcs.atomic_commit
 * @dev: the device
 * @state: the checked state
 * @nonblock: return before the new state is latched
 *
 * Async flips (and async cursor updates) run whole in the ioctl: they
 * wait for no vblank. Blocking commits too, as with the helper.
 *
 * Return: 0, or a negative errno from the setup (-EBUSY: a nonblocking
 * commit while the previous one on a CRTC is still in flight), from
 * preparing the planes or from waiting for fences; never after the swap.
 */
int atomkms_atomic_commit(struct drm_device *dev,
			  struct drm_atomic_commit *state, bool nonblock)
{
	struct drm_crtc_state *crtc_state;
	struct drm_crtc *crtc;
	bool ready;
	int i, ret;

	/* OUT_FENCE_PTR fences live on the CRTC: keep them with the device. */
	for_each_new_crtc_in_state(state, crtc, crtc_state, i) {
		if (!crtc_state->event || !crtc_state->event->base.fence)
			continue;
		ret = atomkms_out_fence_keep(dev, crtc_state->event->base.fence);
		if (ret)
			return ret;
	}

	if (state->async_update)
		return drm_atomic_helper_commit(dev, state, nonblock);

	for_each_new_crtc_in_state(state, crtc, crtc_state, i)
		if (crtc_state->async_flip)
			nonblock = false;

	ret = drm_atomic_helper_setup_commit(state, nonblock);
	if (ret)
		return ret;
	ret = drm_atomic_helper_prepare_planes(dev, state);
	if (ret)
		return ret;
	if (!nonblock) {
		ret = drm_atomic_helper_wait_for_fences(dev, state, true);
		if (ret)
			goto err;
	}
	ready = nonblock && atomkms_commit_ready(state);
	/*
	 * Its fences have all signalled: drop them now, as the other paths
	 * do when they wait, rather than keep them in the plane states until
	 * the planes' next commit.
	 */
	if (ready) {
		ret = drm_atomic_helper_wait_for_fences(dev, state, true);
		if (ret)
			goto err;
	}

	/* The point of no return. */
	ret = drm_atomic_helper_swap_state(state, true);
	if (ret)
		goto err;
	drm_atomic_commit_get(state);

	if (!nonblock) {
		atomkms_commit_tail(state);
	} else if (ready) {
		atomkms_commit_program(state);
		INIT_WORK(&state->commit_work, atomkms_commit_finish_work);
		queue_work(atomkms_commit_wq, &state->commit_work);
	} else {
		INIT_WORK(&state->commit_work, atomkms_commit_work);
		queue_work(atomkms_commit_wq, &state->commit_work);
	}
	return 0;

err:
	drm_atomic_helper_unprepare_planes(dev, state);
	return ret;
}

/**
 * atomkms_commit_init - at module load, the commit workers' queue
 *
 * Return: 0 or -ENOMEM.
 */
int atomkms_commit_init(void)
{
	atomkms_commit_wq = alloc_workqueue("atomkms-commit", WQ_UNBOUND, 0);
	return atomkms_commit_wq ? 0 : -ENOMEM;
}

/**
 * atomkms_commit_exit - at module exit, after the devices are removed:
 * let the last workers finish, releasing what they hold
 */
void atomkms_commit_exit(void)
{
	destroy_workqueue(atomkms_commit_wq);
}
