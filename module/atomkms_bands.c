// SPDX-License-Identifier: GPL-2.0-only
/*
 * Banded composition: a CRTC's frame, when it is large enough to pay, is
 * composed by several workers at once, the CRTC's own composition work
 * and band workers on an unbound, high priority workqueue. The frame is
 * cut into %ATOMKMS_BANDS_PER_WORKER bands of whole CRC chunks a worker
 * (atomkms_band_split()), and each worker takes the next band left until
 * none is, so that a worker held back (a vCPU the host does not run, an
 * interrupt) leaves its share to the others. The composition work waits
 * for its workers, then takes the frame's CRC from the bands
 * (atomkms_compose_crc(): the same value whatever the split and whoever
 * composed which band) before it reports CRCs or signals writeback.
 *
 * Each worker has line buffers of its own, allocated with the CRTC for
 * its widest mode, so that no frame allocates. The workers a CRTC gets
 * are what the machine's possible CPUs can use, at most
 * %ATOMKMS_MAX_BANDS - 1; module parameter compose_workers caps the
 * bands of a frame (0: one a CPU online) and compose_band_pixels sets the
 * smallest frame split.
 */
#include <linux/cpumask.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>

#include <drm/drm_managed.h>

#include "atomkms_bands.h"

static unsigned int compose_workers;

static int atomkms_compose_workers_set(const char *val,
				       const struct kernel_param *kp)
{
	unsigned int n;
	int ret = kstrtouint(val, 0, &n);

	if (ret || n > ATOMKMS_MAX_BANDS) {
		pr_err("atomkms: compose_workers must be 0 (one a CPU) to %u, not %s\n",
		       ATOMKMS_MAX_BANDS, val);
		return -EINVAL;
	}
	WRITE_ONCE(compose_workers, n);
	return 0;
}

static const struct kernel_param_ops atomkms_compose_workers_ops = {
	.set = atomkms_compose_workers_set,
	.get = param_get_uint,
};

module_param_cb(compose_workers, &atomkms_compose_workers_ops,
		&compose_workers, 0644);
MODULE_PARM_DESC(compose_workers,
		 "Workers composing a large frame: 0 one a CPU online (default), 1 single, up to "
		 __stringify(ATOMKMS_MAX_BANDS));

/*
 * Below this many pixels a frame is composed in one band: waking a
 * second worker costs more than it saves (figures in the README).
 */
static unsigned int compose_band_pixels = 1920 * 1080;
module_param(compose_band_pixels, uint, 0644);
MODULE_PARM_DESC(compose_band_pixels,
		 "Smallest frame, in pixels, composed by several workers (default 2073600, 1920x1080)");

/* Compose the bands left, one at a time; return the first error. */
static int atomkms_bands_take(struct atomkms_bands *bands, void *scratch)
{
	unsigned int i;
	int ret = 0, err;

	while ((i = atomic_fetch_inc(&bands->next)) < bands->parts) {
		err = atomkms_compose_band(bands->frame, scratch,
					   &bands->band[i]);
		if (!ret)
			ret = err;
	}
	return ret;
}

static void atomkms_band_work(struct work_struct *work)
{
	struct atomkms_band_worker *w =
		container_of(work, struct atomkms_band_worker, work);

	w->ret = atomkms_bands_take(w->bands, w->scratch);
}

/**
 * atomkms_bands_plan - how many workers compose a frame
 * @bands: the CRTC's bands
 * @frame: the frame
 *
 * Return: 1 for a frame smaller than compose_band_pixels, else the
 * workers compose_workers asks for (0: one a CPU online), within the
 * workers the CRTC has and the frame's CRC chunks.
 */
unsigned int atomkms_bands_plan(const struct atomkms_bands *bands,
				const struct atomkms_frame *frame)
{
	unsigned int n = READ_ONCE(compose_workers);
	u32 chunks = DIV_ROUND_UP(frame->height, ATOMKMS_CRC_CHUNK_LINES);

	if ((u64)frame->width * frame->height < READ_ONCE(compose_band_pixels))
		return 1;
	if (!n)
		n = num_online_cpus();
	n = min3(n, bands->count + 1, chunks);
	return max(n, 1u);
}

/**
 * atomkms_bands_compose - compose a frame by several workers, and wait
 * @bands: the CRTC's bands
 * @frame: the frame; with @n > 1 its &atomkms_frame.line_hook, if set,
 *         runs in every band, on several CPUs at once
 * @scratch: the CRTC's own line buffers, for the bands the caller takes
 * @n: the workers, the caller among them, from atomkms_bands_plan()
 *
 * Return: 0, the frame composed and its CRC in @frame->crc if asked, or
 * the error of a band (atomkms_compose_band()).
 */
int atomkms_bands_compose(struct atomkms_bands *bands,
			  const struct atomkms_frame *frame, void *scratch,
			  unsigned int n)
{
	unsigned int i;
	int ret;

	if (n <= 1 || n > bands->count + 1)
		return atomkms_compose_frame(frame, scratch);

	bands->frame = frame;
	bands->parts = min_t(u32, n * ATOMKMS_BANDS_PER_WORKER,
			     DIV_ROUND_UP(frame->height,
					  ATOMKMS_CRC_CHUNK_LINES));
	for (i = 0; i < bands->parts; i++)
		atomkms_band_split(&bands->band[i], frame->height,
				   bands->parts, i);
	atomic_set(&bands->next, 0);
	for (i = 1; i < n; i++)
		queue_work(bands->wq, &bands->workers[i - 1].work);
	ret = atomkms_bands_take(bands, scratch);
	for (i = 1; i < n; i++) {
		flush_work(&bands->workers[i - 1].work);
		if (!ret)
			ret = bands->workers[i - 1].ret;
	}
	bands->frame = NULL;
	if (!ret && frame->crc)
		*frame->crc = atomkms_compose_crc(bands->band, bands->parts);
	return ret;
}

static void atomkms_bands_fini(struct drm_device *drm, void *data)
{
	struct atomkms_bands *bands = data;
	unsigned int i;

	if (bands->wq)
		destroy_workqueue(bands->wq);
	for (i = 0; i < bands->count; i++)
		kvfree(bands->workers[i].scratch);
	kfree(bands->workers);
}

/**
 * atomkms_bands_init - set up a CRTC's band workers
 * @drm: the device
 * @bands: the CRTC's bands
 * @index: the CRTC's index, for the workqueue's name
 * @max_width: the widest mode the CRTC may scan out
 *
 * One worker for every possible CPU but the first, at most
 * %ATOMKMS_MAX_BANDS - 1, each with line buffers for @max_width; none on
 * a one-CPU machine. Call before the CRTC's composition work is set up:
 * the workers are freed after it is gone.
 *
 * Return: 0 or a negative errno; freed with the drm_device.
 */
int atomkms_bands_init(struct drm_device *drm, struct atomkms_bands *bands,
		       unsigned int index, u32 max_width)
{
	unsigned int i, count = min(num_possible_cpus(), ATOMKMS_MAX_BANDS) - 1;
	int ret;

	bands->count = 0;
	if (!count)
		return 0;
	bands->workers = kcalloc(count, sizeof(*bands->workers), GFP_KERNEL);
	if (!bands->workers)
		return -ENOMEM;
	ret = drmm_add_action_or_reset(drm, atomkms_bands_fini, bands);
	if (ret)
		return ret;
	for (i = 0; i < count; i++) {
		struct atomkms_band_worker *w = &bands->workers[i];

		w->scratch = kvmalloc(atomkms_compose_scratch_size(max_width),
				      GFP_KERNEL);
		if (!w->scratch)
			return -ENOMEM;
		bands->count++;
		ret = atomkms_compose_scratch_init(w->scratch, max_width);
		if (ret)
			return ret;
		INIT_WORK(&w->work, atomkms_band_work);
		w->bands = bands;
	}
	bands->wq = alloc_workqueue("atomkms-crtc%u-bands",
				    WQ_UNBOUND | WQ_HIGHPRI, 0, index);
	if (!bands->wq)
		return -ENOMEM;
	return 0;
}
