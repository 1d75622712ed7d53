/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The panel fitter: a CRTC whose mode is smaller than its monitor's
 * native mode, on the native timings, scans out the native raster and
 * the composed mode-size image is scaled into it as the connector's
 * "scaling mode" says. Pure C, built into the module, the unit tests and
 * the guest tests that predict the fitted image.
 *
 * A fitted frame is composed twice: the planes (and the colour pipeline)
 * at the mode's size into an intermediate image, in XRGB8888 or, at 10
 * bits per channel, XRGB2101010; then that image as the one plane of a
 * native-size frame, scaled bilinearly into the destination rectangle
 * on a black background, whose CRC and writeback are the output's.
 */
#ifndef ATOMKMS_FIT_H
#define ATOMKMS_FIT_H

#include "atomkms_types.h"
#include "atomkms_compose.h"

/* The connector's "scaling mode" values (DRM_MODE_SCALE_*). */
#define ATOMKMS_FIT_NONE	0	/* the mode goes to the sink as is */
#define ATOMKMS_FIT_FULL	1	/* stretched to the whole raster */
#define ATOMKMS_FIT_CENTER	2	/* unscaled, centred, black borders */
#define ATOMKMS_FIT_ASPECT	3	/* largest same-aspect fit, centred */

/**
 * struct atomkms_fit - where a mode-size image goes in the output raster
 * @mode: ATOMKMS_FIT_FULL, _CENTER or _ASPECT (a frame with
 *        ATOMKMS_FIT_NONE is not fitted)
 * @width: the mode's (the composed image's) width
 * @height: its height
 * @out_width: the output raster's (the native mode's) width
 * @out_height: its height
 * @x: the destination rectangle in the output raster
 * @y: see @x
 * @w: see @x
 * @h: see @x
 */
struct atomkms_fit {
	u32 mode;
	u32 width;
	u32 height;
	u32 out_width;
	u32 out_height;
	u32 x;
	u32 y;
	u32 w;
	u32 h;
};

int atomkms_fit_init(struct atomkms_fit *fit, u32 mode, u32 width, u32 height,
		     u32 out_width, u32 out_height);
u32 atomkms_fit_format(u8 bpc);
size_t atomkms_fit_buffer_size(u32 width, u32 height);
int atomkms_fit_compose(const struct atomkms_frame *frame,
			const struct atomkms_fit *fit, void *buf, size_t size,
			void *scratch);

#endif /* ATOMKMS_FIT_H */
