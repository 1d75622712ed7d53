// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulated scanout, the kernel side of the compositor: runs the pure-C
 * core (module/core/atomkms_compose.c)
 * for a CRTC after each vblank while someone consumes the result, and
 * reports CRCs through the DRM debugfs CRC API (source "auto").
 *
 * The vblank timer only records which frames want a CRC and queues the
 * work; the work composes the committed state that atomic_flush published
 * and emits one CRC entry per frame it covers, so frames it fell behind on
 * are still reported with their own numbers. A queued writeback job gets
 * the next frame composed into its buffer, then its fence signalled. A
 * large frame is composed in bands by several workers (atomkms_bands.c),
 * which the work waits for.
 */
#include <linux/circ_buf.h>
#include <linux/debugfs.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <drm/drm_debugfs_crc.h>
#include <drm/drm_framebuffer.h>
#include <drm/drm_property.h>
#include <drm/drm_managed.h>
#include <drm/drm_print.h>
#include <drm/drm_vblank.h>
#include <drm/drm_writeback.h>

#include "atomkms_drv.h"
#include "atomkms_scanout.h"
#include "atomkms_simd_choice.h"

/* Read at each frame: off, every frame is %ATOMKMS_FRAME_GENERAL. */
static bool compose_fast_paths = true;
module_param(compose_fast_paths, bool, 0644);
MODULE_PARM_DESC(compose_fast_paths,
		 "Compositor fast paths and occlusion culling (default on; the output is the same)");

/*
 * Room left in the CRC queue userspace reads from debugfs. Entries beyond
 * it would be dropped by drm_crtc_add_crc_entry() with an error message
 * per frame; a reader that stalls just loses the oldest frames instead.
 * Called under the scanout lock, so with interrupts off.
 */
static unsigned int atomkms_crc_space(struct drm_crtc *crtc)
{
	struct drm_crtc_crc *crc = &crtc->crc;
	unsigned int space = 0;

	spin_lock(&crc->lock);
	if (crc->entries)
		space = CIRC_SPACE(crc->head, crc->tail, DRM_CRC_ENTRIES_NR);
	spin_unlock(&crc->lock);
	return space;
}

/* Copy what a composition reads, and hold its buffers. Under the scanout lock. */
static void atomkms_snapshot_take(struct atomkms_frame_snapshot *snap,
				  const struct atomkms_crtc_state *state)
{
	const struct drm_crtc_state *cs = &state->base;
	unsigned int i;

	snap->frame = state->frame;
	snap->frame.flags = READ_ONCE(compose_fast_paths) ?
			    0 : ATOMKMS_FRAME_GENERAL;
	snap->frame.planes = snap->planes;
	snap->frame.color = &snap->color;
	for (i = 0; i < state->frame.num_planes; i++) {
		snap->jobs[i] = *state->planes[i].job;
		snap->planes[i] = state->planes[i];
		snap->planes[i].job = &snap->jobs[i];
		snap->fbs[i] = state->fbs[i];
		drm_framebuffer_get(snap->fbs[i]);
		snap->owners[i] =
			atomkms_job_plane_state(state->planes[i].job)->base.plane;
	}
	snap->color = state->color;
	snap->fit = state->fit;
	snap->fit_buf = atomkms_fit_buf_get(state->fit_buf);
	snap->blobs[0] = cs->degamma_lut;
	snap->blobs[1] = cs->ctm;
	snap->blobs[2] = cs->gamma_lut;
	/* drm_property_blob_get() takes no NULL; drm_property_blob_put() does. */
	for (i = 0; i < ARRAY_SIZE(snap->blobs); i++)
		if (snap->blobs[i])
			drm_property_blob_get(snap->blobs[i]);
}

static void atomkms_snapshot_release(struct atomkms_frame_snapshot *snap)
{
	unsigned int i;

	for (i = 0; i < snap->frame.num_planes; i++)
		drm_framebuffer_put(snap->fbs[i]);
	for (i = 0; i < ARRAY_SIZE(snap->blobs); i++)
		drm_property_blob_put(snap->blobs[i]);
	atomkms_fit_buf_put(snap->fit_buf);
	snap->fit_buf = NULL;
}

static void atomkms_send_event(struct drm_crtc *crtc,
			       struct drm_pending_vblank_event *event)
{
	spin_lock_irq(&crtc->dev->event_lock);
	drm_crtc_send_vblank_event(crtc, event);
	spin_unlock_irq(&crtc->dev->event_lock);
}

/* Same memory layout: a job made for @a reads @b within bounds. */
static bool atomkms_fb_same_layout(const struct drm_framebuffer *a,
				   const struct drm_framebuffer *b)
{
	unsigned int i;

	if (a->format != b->format || a->width != b->width ||
	    a->height != b->height || a->modifier != b->modifier)
		return false;
	for (i = 0; i < a->format->num_planes; i++)
		if (a->pitches[i] != b->pitches[i])
			return false;
	return true;
}

/*
 * Called by the core before each line of a frame composed in one band.
 * An async flip that came in while this composition runs latches here, as
 * on hardware that flips mid-scanout: the rest of the frame reads the new
 * framebuffers, and only then does the flip's event go out, so userspace
 * never writes into a buffer this frame still reads. A frame composed in
 * several bands at once has no such hook: it reads the framebuffers it
 * started with to the end, and the flip's event goes out after it.
 */
static void atomkms_compose_line_hook(void *ctx, u32 y)
{
	struct atomkms_crtc *akcrtc = ctx;
	struct atomkms_frame_snapshot *snap = &akcrtc->scanout.snap;
	struct drm_framebuffer *old[ATOMKMS_COMPOSE_MAX_PLANES];
	struct drm_pending_vblank_event *event;
	struct atomkms_crtc_state *state;
	unsigned int i, j, n = 0;

	if (!READ_ONCE(akcrtc->scanout.async_event))
		return;

	spin_lock_irq(&akcrtc->scanout.lock);
	event = akcrtc->scanout.async_event;
	akcrtc->scanout.async_event = NULL;
	state = akcrtc->scanout.active;
	for (j = 0; state && j < state->frame.num_planes; j++) {
		struct drm_framebuffer *fb = state->fbs[j];
		struct drm_plane *plane =
			atomkms_job_plane_state(state->planes[j].job)->base.plane;

		for (i = 0; i < snap->frame.num_planes; i++) {
			if (snap->owners[i] != plane || snap->fbs[i] == fb ||
			    !atomkms_fb_same_layout(snap->fbs[i], fb))
				continue;
			old[n++] = snap->fbs[i];
			drm_framebuffer_get(fb);
			snap->fbs[i] = fb;
			snap->planes[i].src = state->planes[j].src;
		}
	}
	spin_unlock_irq(&akcrtc->scanout.lock);

	if (event)
		atomkms_send_event(&akcrtc->base, event);
	while (n--)
		drm_framebuffer_put(old[n]);
}

/**
 * atomkms_scanout_defer_async_event - hold an async flip's event
 * @akcrtc: the CRTC, whose new state atomkms_scanout_publish() has
 *          just handed over
 * @event: the flip's event
 *
 * Return: true if a composition is reading the old framebuffer: it sends
 * @event once it has switched to the new one. False if none is: the
 * caller sends @event now.
 */
bool atomkms_scanout_defer_async_event(struct atomkms_crtc *akcrtc,
				       struct drm_pending_vblank_event *event)
{
	bool defer;

	spin_lock_irq(&akcrtc->scanout.lock);
	defer = akcrtc->scanout.composing && !akcrtc->scanout.async_event;
	if (defer)
		akcrtc->scanout.async_event = event;
	spin_unlock_irq(&akcrtc->scanout.lock);
	return defer;
}

/*
 * What one run of the worker does, taken under the scanout lock: the
 * frames to give a CRC, the writeback jobs to complete, and the state
 * they were asked for in.
 */
struct atomkms_scanout_round {
	struct atomkms_crtc_state *state;
	u64 start, end, generation, epoch;
	unsigned int wb_jobs;
	struct atomkms_writeback wb;
	bool crc;
};

/* Take the pending work, and the snapshot to compose it from. */
static bool atomkms_scanout_claim(struct atomkms_crtc *akcrtc,
				  struct atomkms_scanout_round *r)
{
	struct atomkms_scanout *so = &akcrtc->scanout;
	bool work;

	spin_lock_irq(&so->lock);
	r->state = so->active;
	r->start = so->frame_start;
	r->end = so->frame_end;
	r->crc = so->crc_enabled && so->frame_pending;
	so->frame_pending = false;
	r->wb_jobs = r->state ? so->wb_jobs : 0;
	so->wb_jobs -= r->wb_jobs;
	r->wb = so->wb_target;
	r->generation = so->generation;
	r->epoch = so->crc_epoch;
	work = r->state && (r->crc || r->wb_jobs);
	if (work) {
		atomkms_snapshot_take(&so->snap, r->state);
		so->composing = true;
	}
	spin_unlock_irq(&so->lock);
	return work;
}

/*
 * Report the frame's CRC for every frame of the round, to the reader it
 * was composed for, or to nobody: the debugfs file may have been closed
 * and reopened meanwhile, and its new queue exists before
 * set_crc_source() is called. Entries are added under the scanout lock,
 * which atomkms_crc_set_source() takes.
 */
static void atomkms_scanout_report_crc(struct atomkms_crtc *akcrtc,
				       struct atomkms_scanout_round *r,
				       u64 value)
{
	struct atomkms_scanout *so = &akcrtc->scanout;
	struct drm_crtc *crtc = &akcrtc->base;
	u32 words[ATOMKMS_CRC_WORDS];
	unsigned int space;
	u64 n;

	spin_lock_irq(&so->lock);
	if (so->crc_epoch != r->epoch) {
		spin_unlock_irq(&so->lock);
		return;
	}
	/*
	 * Vblanks that passed while we composed showed the same committed
	 * state: report them now rather than one composition later.
	 */
	if (so->generation == r->generation && so->frame_pending) {
		r->end = so->frame_end;
		so->frame_pending = false;
	}
	space = atomkms_crc_space(crtc);
	if (r->end - r->start >= space) {
		drm_dbg_driver(crtc->dev,
			       "[CRTC:%d:%s] CRC reader behind, frames %llu-%llu dropped\n",
			       crtc->base.id, crtc->name, r->start, r->end - space);
		r->start = r->end + 1 - space;
	}
	atomkms_crc_words(value, words);
	for (n = r->start; n <= r->end; n++)
		drm_crtc_add_crc_entry(crtc, true, n, words);
	spin_unlock_irq(&so->lock);
}

static void atomkms_scanout_worker(struct work_struct *work)
{
	struct atomkms_crtc *akcrtc =
		container_of(work, struct atomkms_crtc, scanout.work);
	struct atomkms_frame_snapshot *snap = &akcrtc->scanout.snap;
	struct drm_crtc *crtc = &akcrtc->base;
	struct drm_pending_vblank_event *event;
	struct atomkms_scanout *so = &akcrtc->scanout;
	struct atomkms_scanout_round r;
	unsigned int i, workers;
	u64 value = 0, t0, ns;
	int ret;

	if (!atomkms_scanout_claim(akcrtc, &r))
		return;

	/* A fitted frame is two passes of one worker (atomkms_fit_compose()). */
	workers = snap->fit.mode && snap->fit_buf ? 1 :
		  atomkms_bands_plan(&so->bands, &snap->frame);
	snap->frame.crc = r.crc ? &value : NULL;
	snap->frame.wb = r.wb_jobs ? &r.wb : NULL;
	snap->frame.line_hook = workers == 1 ? atomkms_compose_line_hook : NULL;
	snap->frame.hook_ctx = akcrtc;
	snap->frame.simd = atomkms_simd_get();
	t0 = ktime_get_ns();
	if (snap->fit.mode && snap->fit_buf)
		ret = atomkms_fit_compose(&snap->frame, &snap->fit,
					  snap->fit_buf->data,
					  snap->fit_buf->size, so->scratch);
	else
		ret = atomkms_bands_compose(&so->bands, &snap->frame,
					    so->scratch, workers);
	ns = ktime_get_ns() - t0;

	/* An async flip that came in during the last line latches now. */
	spin_lock_irq(&akcrtc->scanout.lock);
	if (!ret) {
		so->stats.frames++;
		so->stats.workers = workers;
		so->stats.last_ns = ns;
		so->stats.max_ns = max(so->stats.max_ns, ns);
		so->stats.total_ns += ns;
	}
	akcrtc->scanout.composing = false;
	event = akcrtc->scanout.async_event;
	akcrtc->scanout.async_event = NULL;
	spin_unlock_irq(&akcrtc->scanout.lock);
	if (event)
		atomkms_send_event(crtc, event);
	atomkms_snapshot_release(snap);
	if (ret)
		drm_dbg_driver(crtc->dev, "[CRTC:%d:%s] frame not composed: %d\n",
			       crtc->base.id, crtc->name, ret);

	/* Jobs queued faster than frames all complete with the newest. */
	for (i = 0; i < r.wb_jobs; i++)
		drm_writeback_signal_completion(&akcrtc->wb, ret);
	if (r.crc && !ret)
		atomkms_scanout_report_crc(akcrtc, &r, value);
}

/**
 * atomkms_scanout_cancel_wb - fail the writeback jobs the CRTC never ran
 * @akcrtc: the CRTC, being switched off with its compositor stopped
 */
void atomkms_scanout_cancel_wb(struct atomkms_crtc *akcrtc)
{
	unsigned int wb_jobs;

	spin_lock_irq(&akcrtc->scanout.lock);
	wb_jobs = akcrtc->scanout.wb_jobs;
	akcrtc->scanout.wb_jobs = 0;
	spin_unlock_irq(&akcrtc->scanout.lock);

	while (wb_jobs--)
		drm_writeback_signal_completion(&akcrtc->wb, -ECANCELED);
}

/**
 * atomkms_scanout_vblank - note a vblank for the compositor
 * @akcrtc: the CRTC, from its vblank timer (hard interrupt context)
 */
void atomkms_scanout_vblank(struct atomkms_crtc *akcrtc)
{
	bool queue = false;
	u64 frame;

	spin_lock(&akcrtc->scanout.lock);
	if (akcrtc->scanout.active && akcrtc->scanout.wb_jobs)
		queue = true;
	if (akcrtc->scanout.crc_enabled && akcrtc->scanout.active) {
		frame = drm_crtc_accurate_vblank_count(&akcrtc->base);
		if (!akcrtc->scanout.frame_pending)
			akcrtc->scanout.frame_start = frame;
		else
			drm_dbg_driver(akcrtc->base.dev,
				       "[CRTC:%d] compositor behind: frames %llu-%llu\n",
				       akcrtc->base.base.id,
				       akcrtc->scanout.frame_start, frame);
		akcrtc->scanout.frame_end = frame;
		akcrtc->scanout.frame_pending = true;
		queue = true;
	}
	spin_unlock(&akcrtc->scanout.lock);

	if (queue)
		queue_work(akcrtc->scanout.wq, &akcrtc->scanout.work);
}

/**
 * atomkms_scanout_publish - hand the compositor a new committed state
 * @akcrtc: the CRTC
 * @akstate: its new state, whose frame this builds, or NULL when the CRTC
 *           is switched off
 */
void atomkms_scanout_publish(struct atomkms_crtc *akcrtc,
			     struct atomkms_crtc_state *akstate)
{
	spin_lock_irq(&akcrtc->scanout.lock);
	if (akstate)
		atomkms_crtc_build_frame(&akcrtc->base, akstate);
	akcrtc->scanout.active = akstate;
	akcrtc->scanout.generation++;
	if (akstate && akstate->wb_queued) {
		akcrtc->scanout.wb_jobs++;
		akcrtc->scanout.wb_target = akstate->wb;
	}
	spin_unlock_irq(&akcrtc->scanout.lock);
}

static const char *const atomkms_crc_sources[] = { "auto" };

static bool atomkms_crc_source_valid(const char *src)
{
	return !src || !*src || !strcmp(src, "auto");
}

int atomkms_crc_verify_source(struct drm_crtc *crtc, const char *src,
			      size_t *values_cnt)
{
	if (!atomkms_crc_source_valid(src)) {
		drm_dbg_driver(crtc->dev, "[CRTC:%d:%s] unknown CRC source %s\n",
			       crtc->base.id, crtc->name, src);
		return -EINVAL;
	}
	*values_cnt = ATOMKMS_CRC_WORDS;
	return 0;
}

int atomkms_crc_set_source(struct drm_crtc *crtc, const char *src)
{
	struct atomkms_crtc *akcrtc = to_atomkms_crtc(crtc);

	if (!atomkms_crc_source_valid(src))
		return -EINVAL;

	spin_lock_irq(&akcrtc->scanout.lock);
	akcrtc->scanout.crc_enabled = src && *src;
	akcrtc->scanout.crc_epoch++;
	akcrtc->scanout.frame_pending = false;
	spin_unlock_irq(&akcrtc->scanout.lock);
	return 0;
}

const char *const *atomkms_crc_get_sources(struct drm_crtc *crtc,
					   size_t *count)
{
	*count = ARRAY_SIZE(atomkms_crc_sources);
	return atomkms_crc_sources;
}

/*
 * debugfs atomkms_compose_time: the compositions since the CRTC was made
 * or the file last written to, timed from the first line to the CRC.
 */
static int atomkms_compose_time_show(struct seq_file *m, void *unused)
{
	struct atomkms_crtc *akcrtc = m->private;
	struct atomkms_compose_stats st;

	spin_lock_irq(&akcrtc->scanout.lock);
	st = akcrtc->scanout.stats;
	spin_unlock_irq(&akcrtc->scanout.lock);
	seq_printf(m, "frames=%llu workers=%u last_us=%llu avg_us=%llu max_us=%llu\n",
		   st.frames, st.workers, div_u64(st.last_ns, 1000),
		   st.frames ? div64_u64(st.total_ns, st.frames * 1000) : 0,
		   div_u64(st.max_ns, 1000));
	return 0;
}

static int atomkms_compose_time_open(struct inode *inode, struct file *file)
{
	return single_open(file, atomkms_compose_time_show, inode->i_private);
}

/* Any write starts the counts again. */
static ssize_t atomkms_compose_time_write(struct file *file,
					  const char __user *buf, size_t len,
					  loff_t *ppos)
{
	struct atomkms_crtc *akcrtc =
		((struct seq_file *)file->private_data)->private;

	spin_lock_irq(&akcrtc->scanout.lock);
	akcrtc->scanout.stats = (struct atomkms_compose_stats){ };
	spin_unlock_irq(&akcrtc->scanout.lock);
	return len;
}

static const struct file_operations atomkms_compose_time_fops = {
	.owner = THIS_MODULE,
	.open = atomkms_compose_time_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.write = atomkms_compose_time_write,
	.release = single_release,
};

/**
 * atomkms_scanout_debugfs_init - the CRTC's atomkms_compose_time file
 * @akcrtc: the CRTC, whose debugfs directory exists (late_register)
 */
void atomkms_scanout_debugfs_init(struct atomkms_crtc *akcrtc)
{
	debugfs_create_file("atomkms_compose_time", 0644,
			    akcrtc->base.debugfs_entry, akcrtc,
			    &atomkms_compose_time_fops);
}

static void atomkms_scanout_fini(struct drm_device *drm, void *data)
{
	struct atomkms_crtc *akcrtc = data;

	destroy_workqueue(akcrtc->scanout.wq);
	kvfree(akcrtc->scanout.scratch);
}

/**
 * atomkms_scanout_init - set up a CRTC's compositor
 * @akcrtc: the CRTC
 * @index: its index, for the workqueue's name
 * @max_width: the widest mode it may scan out
 *
 * Allocates the line buffers once, for @max_width, its own and its band
 * workers', so that neither a commit nor a frame ever allocates.
 *
 * Return: 0 or a negative errno; freed with the drm_device.
 */
int atomkms_scanout_init(struct atomkms_crtc *akcrtc, unsigned int index,
			 u32 max_width)
{
	struct drm_device *drm = akcrtc->base.dev;
	int ret;

	spin_lock_init(&akcrtc->scanout.lock);
	INIT_WORK(&akcrtc->scanout.work, atomkms_scanout_worker);

	/* First: freed after the work that queues them is gone. */
	ret = atomkms_bands_init(drm, &akcrtc->scanout.bands, index, max_width);
	if (ret)
		return ret;

	akcrtc->scanout.scratch = kvmalloc(atomkms_compose_scratch_size(max_width),
					   GFP_KERNEL);
	if (!akcrtc->scanout.scratch)
		return -ENOMEM;
	ret = atomkms_compose_scratch_init(akcrtc->scanout.scratch, max_width);
	if (ret) {
		kvfree(akcrtc->scanout.scratch);
		return ret;
	}

	akcrtc->scanout.wq = alloc_ordered_workqueue("atomkms-crtc%u",
						     WQ_HIGHPRI, index);
	if (!akcrtc->scanout.wq) {
		kvfree(akcrtc->scanout.scratch);
		return -ENOMEM;
	}

	return drmm_add_action_or_reset(drm, atomkms_scanout_fini, akcrtc);
}
