/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * EDID generator for the simulated connectors: an EDID 1.4 base block and
 * one CTA-861 extension, built from a small description of the monitor.
 * Pure C, shared by the module and the userspace unit tests.
 */
#ifndef ATOMKMS_EDID_H
#define ATOMKMS_EDID_H

#include "atomkms_timing.h"
#include "atomkms_types.h"

/*
 * Size of one EDID block; atomkms_edid_build() writes two, and a third,
 * a DisplayID extension, for a tile of a tiled monitor.
 */
#define ATOMKMS_EDID_BLOCK		128U
#define ATOMKMS_EDID_SIZE		(2 * ATOMKMS_EDID_BLOCK)
#define ATOMKMS_EDID_MAX_SIZE		(3 * ATOMKMS_EDID_BLOCK)
/* Tiles across or down a tiled monitor: DisplayID 1.3's 6-bit fields. */
#define ATOMKMS_EDID_MAX_TILES		64U

/*
 * An HDR monitor's HDR Static Metadata data block (CTA-861.3, 4.2): the
 * EOTFs it takes, a bit each (bit n is the HDR infoframe's EOTF n:
 * traditional gamma SDR, SMPTE ST 2084 and BT.2100 HLG; not traditional
 * gamma HDR), static metadata descriptor type 1, and its luminances as
 * code values: max 50 * 2^(CV/32) cd/m^2 (138: 993.6, "1000 nits"), max
 * frame-average the same way (96: 400), min max * (CV/255)^2 / 100 (18:
 * 0.0495, "0.05").
 */
#define ATOMKMS_EDID_HDR_EOTFS		(BIT(0) | BIT(2) | BIT(3))
#define ATOMKMS_EDID_HDR_TYPE1		BIT(0)
#define ATOMKMS_EDID_HDR_MAX_CV		138
#define ATOMKMS_EDID_HDR_MAX_FALL_CV	96
#define ATOMKMS_EDID_HDR_MIN_CV		18
/* Its Colorimetry data block: BT.2020 YCC (bit 6) and RGB (bit 7). */
#define ATOMKMS_EDID_COLORIMETRY	(BIT(6) | BIT(7))

/* Longest monitor name a Display Product Name descriptor holds. */
#define ATOMKMS_EDID_NAME_LEN		13U
/* The name written for a NULL or empty &atomkms_edid_desc.name. */
#define ATOMKMS_EDID_DEFAULT_NAME	"atomkms"

/**
 * struct atomkms_edid_tile - one tile of a tiled monitor
 * @group: which monitor: its DisplayID topology ID is atomkms's vendor
 *         ID, a product code of its own and @group as serial number, so
 *         that the tiles of one group, and only they, share it
 * @tiles_h: tiles across the monitor, 1 to %ATOMKMS_EDID_MAX_TILES
 * @tiles_v: tiles down
 * @h_loc: this tile's column, from 0
 * @v_loc: its row
 *
 * A tile's size is the monitor's preferred mode's, which DisplayID also
 * gives as its native resolution.
 */
struct atomkms_edid_tile {
	u32 group;
	u8 tiles_h, tiles_v, h_loc, v_loc;
};

/**
 * struct atomkms_edid_desc - the monitor an EDID describes
 * @name: monitor name, at most %ATOMKMS_EDID_NAME_LEN characters (longer
 *        names are cut, non-printable characters become '_'); NULL or ""
 *        for %ATOMKMS_EDID_DEFAULT_NAME
 * @product: product code, e.g. the connector index
 * @serial: serial number (the base block's binary one)
 * @preferred: native mode, the first Detailed Timing Descriptor; it must
 *             fit a DTD (active and blanking below 4096, clock at most
 *             655350 kHz) and lie within the range limits below
 * @min_vrefresh: lowest vertical refresh in Hz, 1 to 59
 * @max_vrefresh: highest vertical refresh in Hz, 60 to 510
 * @max_clock_khz: highest pixel clock in kHz, at least the preferred one
 *                 and at least 25175: CTA-861 needs 640x480 at 59.94 Hz
 * @width_mm: physical width of the image in mm, at most 2550 (255 cm);
 *            0 if unknown, which makes both sizes unknown
 * @height_mm: physical height of the image in mm, at most 2550
 * @vrr: the refresh range is continuous (adaptive sync): sets the EDID 1.4
 *       continuous-frequency feature, so that DRM fills
 *       &drm_display_info.monitor_range from the range limits
 * @tile: NULL, or the tile of a tiled monitor this is: a DisplayID
 *        extension with a Tiled Display Topology data block follows the
 *        CTA-861 one (from which DRM sets the connector's TILE property)
 * @bpc: bits per colour channel the monitor takes (the base block's video
 *       input colour depth, which DRM reads into &drm_display_info.bpc):
 *       6, 8, 10, 12, 14 or 16; 0 for 8
 * @hdr: an HDR monitor: the CTA-861 extension also carries a Colorimetry
 *       data block (BT.2020 RGB and YCC) and an HDR Static Metadata data
 *       block (CTA-861.3), from which DRM fills
 *       &drm_connector.hdr_sink_metadata: the EOTFs
 *       %ATOMKMS_EDID_HDR_EOTFS, static metadata type 1 and the
 *       luminances %ATOMKMS_EDID_HDR_MAX_CV, _MAX_FALL_CV and _MIN_CV
 */
struct atomkms_edid_desc {
	const char *name;
	u16 product;
	u32 serial;
	struct atomkms_timing preferred;
	u32 min_vrefresh, max_vrefresh;
	u32 max_clock_khz;
	u16 width_mm, height_mm;
	bool vrr;
	const struct atomkms_edid_tile *tile;
	u8 bpc;
	bool hdr;
};

int atomkms_edid_build(const struct atomkms_edid_desc *desc, u8 *buf,
		       u32 buf_size);
u32 atomkms_edid_max_vrefresh(const struct atomkms_timing *m, u32 hz);

#endif /* ATOMKMS_EDID_H */
