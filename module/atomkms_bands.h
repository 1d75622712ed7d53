/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Banded composition (atomkms_bands.c): a CRTC's large frame split into
 * bands of lines composed at once by several workers.
 */
#ifndef ATOMKMS_BANDS_H
#define ATOMKMS_BANDS_H

#include <linux/types.h>
#include <linux/workqueue.h>

#include "atomkms_compose.h"

/* Most bands a frame is split into: the CRTC's own worker and 7 more. */
#define ATOMKMS_MAX_BANDS	8

struct atomkms_bands;

/**
 * struct atomkms_band_worker - one band composed on the bands' workqueue
 * @work: composes @bands->band[@index] of @bands->frame
 * @bands: the CRTC's bands
 * @index: its band, from 1 (band 0 is the CRTC's own worker's)
 * @scratch: its line buffers, sized for the CRTC's widest mode
 * @ret: atomkms_compose_band()'s result
 */
struct atomkms_band_worker {
	struct work_struct work;
	struct atomkms_bands *bands;
	unsigned int index;
	void *scratch;
	int ret;
};

/**
 * struct atomkms_bands - a CRTC's band workers
 * @wq: unbound, high priority queue of @workers' work
 * @workers: the workers of bands 1 to @count, allocated at CRTC creation
 * @count: entries in @workers: what the machine's CPUs can use
 * @frame: the frame being composed, while the bands run
 * @band: the bands of @frame and their shares of its CRC, band 0 the
 *        caller's
 *
 * Used by the CRTC's composition work alone (an ordered queue), which
 * waits for every band it queued before it returns.
 */
struct atomkms_bands {
	struct workqueue_struct *wq;
	struct atomkms_band_worker *workers;
	unsigned int count;
	const struct atomkms_frame *frame;
	struct atomkms_band band[ATOMKMS_MAX_BANDS];
};

int atomkms_bands_init(struct drm_device *drm, struct atomkms_bands *bands,
		       unsigned int index, u32 max_width);
unsigned int atomkms_bands_plan(const struct atomkms_bands *bands,
				const struct atomkms_frame *frame);
int atomkms_bands_compose(struct atomkms_bands *bands,
			  const struct atomkms_frame *frame, void *scratch,
			  unsigned int n);

#endif /* ATOMKMS_BANDS_H */
