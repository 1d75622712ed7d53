// SPDX-License-Identifier: GPL-2.0-only
/*
 * Out-fences, kept with their device until userspace lets go.
 *
 * The DRM core of 6.12 builds a commit's out-fences on the object that
 * signals them: a CRTC's (OUT_FENCE_PTR) on the drm_crtc, a writeback
 * job's on the drm_writeback_connector. The fence's lock is that object's
 * fence_lock, and its driver and timeline names are read through the
 * object and its drm_device, for as long as the fence lives, signalled
 * or not (a sync_file's SYNC_IOC_FILE_INFO takes the lock and asks for
 * both names; closing a polled one takes the lock). The fence has no
 * release hook, and a sync_file keeps it alive past the device's removal
 * and the last close of the device, after which that memory is freed.
 *
 * So every out-fence is kept here, with a reference on it and one on its
 * device, until ours is the fence's last reference: a work item looks
 * every tenth of a second while any is kept, and releases the fence
 * itself when refcount_dec_if_one() says nobody else can reach it. The
 * module stays loaded (rmmod answers EBUSY) while any is kept.
 */
#include <linux/dma-fence.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include <drm/drm_drv.h>

#include "atomkms_drv.h"

struct atomkms_kept_fence {
	struct list_head link;
	struct dma_fence *fence;
	struct drm_device *drm;
};

static LIST_HEAD(atomkms_kept_fences);
static DEFINE_SPINLOCK(atomkms_kept_lock);

static void atomkms_out_fence_reap(struct work_struct *work);
static DECLARE_DELAYED_WORK(atomkms_out_fence_reaper, atomkms_out_fence_reap);

#define ATOMKMS_REAP_PERIOD	(HZ / 10)

/*
 * Ours was the last reference: release the fence as dma_fence_put()
 * would, with kref_put()'s ordering (refcount_dec_if_one() only orders
 * what came before it).
 */
static bool atomkms_kept_fence_last(struct atomkms_kept_fence *kept)
{
	if (!refcount_dec_if_one(&kept->fence->refcount.refcount))
		return false;
	smp_acquire__after_ctrl_dep();
	dma_fence_release(&kept->fence->refcount);
	return true;
}

static void atomkms_out_fence_reap(struct work_struct *work)
{
	struct atomkms_kept_fence *kept, *next;
	LIST_HEAD(done);
	bool empty;

	spin_lock(&atomkms_kept_lock);
	list_for_each_entry_safe(kept, next, &atomkms_kept_fences, link)
		if (atomkms_kept_fence_last(kept))
			list_move(&kept->link, &done);
	empty = list_empty(&atomkms_kept_fences);
	if (!empty)
		schedule_delayed_work(&atomkms_out_fence_reaper,
				      ATOMKMS_REAP_PERIOD);
	spin_unlock(&atomkms_kept_lock);

	/* May release a device: outside the lock. */
	list_for_each_entry_safe(kept, next, &done, link) {
		drm_dev_put(kept->drm);
		kfree(kept);
	}
	/* Taken when the list became non-empty; module exit waits for us. */
	if (empty)
		module_put(THIS_MODULE);
}

/**
 * atomkms_out_fence_keep - keep an out-fence and its device
 * @drm: the device
 * @fence: a CRTC's or a writeback job's out-fence
 *
 * Called before the commit's point of no return, where it may still fail.
 *
 * Return: 0 or -ENOMEM.
 */
int atomkms_out_fence_keep(struct drm_device *drm, struct dma_fence *fence)
{
	struct atomkms_kept_fence *kept = kzalloc(sizeof(*kept), GFP_KERNEL);

	if (!kept)
		return -ENOMEM;
	kept->fence = dma_fence_get(fence);
	kept->drm = drm;
	drm_dev_get(drm);

	spin_lock(&atomkms_kept_lock);
	if (list_empty(&atomkms_kept_fences)) {
		__module_get(THIS_MODULE);
		schedule_delayed_work(&atomkms_out_fence_reaper,
				      ATOMKMS_REAP_PERIOD);
	}
	list_add_tail(&kept->link, &atomkms_kept_fences);
	spin_unlock(&atomkms_kept_lock);
	return 0;
}

/**
 * atomkms_out_fence_exit - at module exit, wait for the reaper's last run
 *
 * The module cannot be unloaded while a fence is kept; the reaper's run
 * that dropped the last one may still be returning.
 */
void atomkms_out_fence_exit(void)
{
	cancel_delayed_work_sync(&atomkms_out_fence_reaper);
}
