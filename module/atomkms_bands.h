/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Banded composition (atomkms_bands.c): a CRTC's large frame split into
 * bands of lines composed at once by several workers.
 */
#ifndef ATOMKMS_BANDS_H
#define ATOMKMS_BANDS_H

#include <linux/atomic.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include "atomkms_compose.h"

/* Most workers a frame is composed by: the CRTC's own and 7 more. */
#define ATOMKMS_MAX_BANDS	8
/*
 * Bands a frame is cut into for each worker: a worker that the host or
 * the scheduler holds back leaves its share to the others.
 */
#define ATOMKMS_BANDS_PER_WORKER	4
#define ATOMKMS_MAX_PARTS	(ATOMKMS_MAX_BANDS * ATOMKMS_BANDS_PER_WORKER)

struct atomkms_bands;

/**
 * struct atomkms_band_worker - a worker of the bands' workqueue
 * @work: composes the bands of @bands->frame it takes, until none is left
 * @bands: the CRTC's bands
 * @scratch: its line buffers, sized for the CRTC's widest mode
 * @ret: the first error of atomkms_compose_band(), or 0
 */
struct atomkms_band_worker {
	struct work_struct work;
	struct atomkms_bands *bands;
	void *scratch;
	int ret;
};

/**
 * struct atomkms_bands - a CRTC's band workers
 * @wq: unbound, high priority queue of @workers' work
 * @workers: the workers of bands 1 to @count, allocated at CRTC creation
 * @count: entries in @workers: what the machine's CPUs can use
 * @frame: the frame being composed, while the bands run
 * @parts: the bands @frame is cut into, %ATOMKMS_BANDS_PER_WORKER a worker
 * @next: the next band to take, for the CRTC's work and its workers
 * @band: the bands of @frame and their shares of its CRC
 *
 * Used by the CRTC's composition work alone (an ordered queue), which
 * waits for every band it queued before it returns.
 */
struct atomkms_bands {
	struct workqueue_struct *wq;
	struct atomkms_band_worker *workers;
	unsigned int count;
	const struct atomkms_frame *frame;
	unsigned int parts;
	atomic_t next;
	struct atomkms_band band[ATOMKMS_MAX_PARTS];
};

int atomkms_bands_init(struct drm_device *drm, struct atomkms_bands *bands,
		       unsigned int index, u32 max_width);
unsigned int atomkms_bands_plan(const struct atomkms_bands *bands,
				const struct atomkms_frame *frame);
int atomkms_bands_compose(struct atomkms_bands *bands,
			  const struct atomkms_frame *frame, void *scratch,
			  unsigned int n);

#endif /* ATOMKMS_BANDS_H */
