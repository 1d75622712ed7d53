// SPDX-License-Identifier: GPL-2.0-only
/*
 * EDID generator for the simulated connectors. Pure C: it is built into the
 * module and into test/unit/test_edid.
 *
 * The output is deterministic for a given description: an EDID 1.4 base
 * block (VESA E-EDID 1.4) whose first descriptor is the preferred mode, and
 * one CTA-861 revision 3 extension carrying a Video Data Block.
 */
#include "atomkms_edid.h"

/*
 * PNP ID "AKX": three 5-bit letters, 'A' = 1, big-endian. Registered to
 * no company (hwdata's pnp.ids; test_edid checks it), so that compositors
 * do not log a real vendor's name for a virtual monitor ("AKM", used
 * before, is Asahi Kasei Microsystems).
 */
#define ATOMKMS_EDID_MFG_ID	((('A' - '@') << 10) | (('K' - '@') << 5) | \
				 ('X' - '@'))

/* Fixed date of manufacture: week 1 of 2024. */
#define ATOMKMS_EDID_WEEK	1
#define ATOMKMS_EDID_YEAR	2024

/*
 * Video input: digital, DisplayPort; the colour depth in bits 6:4,
 * (bpc - 4) / 2 for 6 to 16 bits per channel.
 */
#define ATOMKMS_EDID_INPUT	(0x80 | 0x05)
#define ATOMKMS_EDID_DEPTH_SHIFT	4
/* Gamma 2.2, stored as 100 * gamma - 100. */
#define ATOMKMS_EDID_GAMMA	120

/* Feature support byte (0x18). RGB 4:4:4 only is 0 in bits 4:3. */
#define ATOMKMS_EDID_SRGB	0x04
#define ATOMKMS_EDID_PREF_NATIVE	0x02
#define ATOMKMS_EDID_CONTINUOUS	0x01

/* Display descriptor tags. */
#define ATOMKMS_EDID_TAG_RANGE	0xfd
#define ATOMKMS_EDID_TAG_NAME	0xfc
#define ATOMKMS_EDID_TAG_DUMMY	0x10

/* Display Range Limits: rate offset flags and the "range limits only" class. */
#define ATOMKMS_EDID_V_MAX_OFFSET	0x02
#define ATOMKMS_EDID_V_MIN_OFFSET	0x01
#define ATOMKMS_EDID_H_MAX_OFFSET	0x08
#define ATOMKMS_EDID_H_MIN_OFFSET	0x04
#define ATOMKMS_EDID_RANGE_ONLY		0x01
#define ATOMKMS_EDID_RATE_MAX		510U

/* Largest image size: the base block's 255 cm. */
#define ATOMKMS_EDID_SIZE_MAX_MM	2550U

/* Largest values the fields of a Detailed Timing Descriptor hold. */
#define ATOMKMS_EDID_DTD_CLOCK_MAX	65535U	/* 10 kHz units */
#define ATOMKMS_EDID_DTD_ACTIVE_MAX	4095U	/* also blanking */
#define ATOMKMS_EDID_DTD_HSYNC_MAX	1023U	/* offset and width */
#define ATOMKMS_EDID_DTD_VSYNC_MAX	63U
/* Digital separate sync; bit 2 is vsync polarity, bit 1 hsync. */
#define ATOMKMS_EDID_DTD_SEPARATE	0x18
#define ATOMKMS_EDID_DTD_VSYNC_POS	0x04
#define ATOMKMS_EDID_DTD_HSYNC_POS	0x02

/* CTA-861 extension. */
#define ATOMKMS_EDID_CTA_TAG		0x02
#define ATOMKMS_EDID_CTA_REV		3
#define ATOMKMS_EDID_CTA_VIDEO_DB	(2 << 5)
#define ATOMKMS_EDID_CTA_EXT_DB		(7 << 5)
#define ATOMKMS_EDID_CTA_VCDB		0x00
#define ATOMKMS_EDID_CTA_VCDB_QS	0x40	/* RGB range selectable */
#define ATOMKMS_EDID_CTA_VCDB_SCAN	0x0f	/* IT, CE: over- or underscan */
#define ATOMKMS_EDID_CTA_COLORIMETRY	0x05	/* extended tags */
#define ATOMKMS_EDID_CTA_HDR_STATIC	0x06

/**
 * struct atomkms_edid_fixed - a mode from a standard list (DMT or CTA-861)
 * @clock_khz: pixel clock in kHz
 * @hdisplay: active pixels per line
 * @vdisplay: active lines
 * @htotal: pixels per line including blanking
 * @vtotal: lines per frame including blanking
 * @code: established timing (byte offset, bit), standard timing (the two
 *        bytes) or CTA VIC (code[0])
 *
 * The clock and totals give the refresh rate and line rate the range limits
 * must cover; the active size orders the VICs. Each table ends with a zero
 * clock.
 */
struct atomkms_edid_fixed {
	u32 clock_khz;
	u16 hdisplay, vdisplay, htotal, vtotal;
	u8 code[2];
};

/* Established timings I and II (DMT): 640x480, 800x600, 1024x768 at 60 Hz. */
static const struct atomkms_edid_fixed atomkms_edid_established[] = {
	{ 25175, 640, 480, 800, 525, { 0x23, 0x20 } },
	{ 40000, 800, 600, 1056, 628, { 0x23, 0x01 } },
	{ 65000, 1024, 768, 1344, 806, { 0x24, 0x08 } },
	{ 0 }
};

/*
 * Standard timings, as their DMT two-byte codes: 1280x1024, 1600x900 (RB),
 * 1680x1050 and 1920x1200 at 60 Hz.
 */
static const struct atomkms_edid_fixed atomkms_edid_standard[] = {
	{ 108000, 1280, 1024, 1688, 1066, { 0x81, 0x80 } },
	{ 108000, 1600, 900, 1800, 1000, { 0xa9, 0xc0 } },
	{ 146250, 1680, 1050, 2240, 1089, { 0xb3, 0x00 } },
	{ 193250, 1920, 1200, 2592, 1245, { 0xd1, 0x00 } },
	{ 0 }
};

/*
 * CTA-861 VICs: 1920x1080p60, 1280x720p60, 3840x2160p60, 4096x2160p60,
 * 3840x2160p30 and 720x480p59.94.
 */
static const struct atomkms_edid_fixed atomkms_edid_vics[] = {
	{ 148500, 1920, 1080, 2200, 1125, { 16 } },
	{ 74250, 1280, 720, 1650, 750, { 4 } },
	{ 594000, 3840, 2160, 4400, 2250, { 97 } },
	{ 594000, 4096, 2160, 4400, 2250, { 102 } },
	{ 297000, 3840, 2160, 4400, 2250, { 95 } },
	{ 27000, 720, 480, 858, 525, { 3 } },
	{ 0 }
};

#define ATOMKMS_EDID_N_STANDARD	8

/* sRGB primaries and D65 white as CIE x, y in 1/1024: R, G, B, W. */
static const u16 atomkms_edid_srgb[8] = {
	655, 338, 307, 614, 154, 61, 320, 337,
};

/**
 * struct atomkms_edid_hrange - line rates of the modes listed so far
 * @min_khz: lowest line rate, rounded down
 * @max_khz: highest line rate, rounded up
 */
struct atomkms_edid_hrange {
	u32 min_khz, max_khz;
};

/*
 * Does a mode lie within the clock and vertical range limits? Exactly:
 * 640x480 at 59.94 Hz does not fit a 60 Hz minimum.
 */
static bool atomkms_edid_fits(const struct atomkms_edid_desc *desc,
			      u32 clock_khz, u32 htotal, u32 vtotal)
{
	u64 hz_pixels = (u64)clock_khz * 1000;	/* refresh * htotal * vtotal */
	u64 pixels = (u64)htotal * vtotal;

	return clock_khz <= desc->max_clock_khz &&
	       hz_pixels >= desc->min_vrefresh * pixels &&
	       hz_pixels <= desc->max_vrefresh * pixels;
}

static void atomkms_edid_add_hrange(struct atomkms_edid_hrange *h,
				    u32 clock_khz, u32 htotal)
{
	u32 lo = clock_khz / htotal;
	u32 hi = (clock_khz + htotal - 1) / htotal;

	if (!h->max_khz || lo < h->min_khz)
		h->min_khz = lo;
	if (hi > h->max_khz)
		h->max_khz = hi;
}

/* Is one axis ordered, with blanking, and within the DTD's field sizes? */
static bool atomkms_edid_axis_ok(u32 display, u32 sync_start, u32 sync_end,
				 u32 total, u32 sync_max)
{
	if (!display || display > sync_start || sync_start > sync_end ||
	    sync_end > total || total == display)
		return false;
	return display <= ATOMKMS_EDID_DTD_ACTIVE_MAX &&
	       total - display <= ATOMKMS_EDID_DTD_ACTIVE_MAX &&
	       sync_start - display <= sync_max &&
	       sync_end - sync_start <= sync_max;
}

/* Can the preferred mode be a DTD within the range limits? */
static bool atomkms_edid_mode_ok(const struct atomkms_edid_desc *desc,
				 u32 clock10)
{
	const struct atomkms_timing *m = &desc->preferred;

	if (!clock10 || clock10 > ATOMKMS_EDID_DTD_CLOCK_MAX)
		return false;
	if (!atomkms_edid_axis_ok(m->hdisplay, m->hsync_start, m->hsync_end,
				  m->htotal, ATOMKMS_EDID_DTD_HSYNC_MAX))
		return false;
	if (!atomkms_edid_axis_ok(m->vdisplay, m->vsync_start, m->vsync_end,
				  m->vtotal, ATOMKMS_EDID_DTD_VSYNC_MAX))
		return false;
	return atomkms_edid_fits(desc, clock10 * 10, m->htotal, m->vtotal);
}

/*
 * Are the limits sane? They must include 640x480 at 59.94 Hz, which every
 * CTA-861 sink supports, so that it is listed.
 */
static bool atomkms_edid_desc_ok(const struct atomkms_edid_desc *desc)
{
	const struct atomkms_edid_fixed *vga = &atomkms_edid_established[0];

	if (!desc->min_vrefresh || desc->min_vrefresh > desc->max_vrefresh ||
	    desc->max_vrefresh > ATOMKMS_EDID_RATE_MAX)
		return false;
	if (!atomkms_edid_fits(desc, vga->clock_khz, vga->htotal, vga->vtotal))
		return false;
	if (desc->bpc && (desc->bpc < 6 || desc->bpc > 16 || desc->bpc & 1))
		return false;
	return desc->width_mm <= ATOMKMS_EDID_SIZE_MAX_MM &&
	       desc->height_mm <= ATOMKMS_EDID_SIZE_MAX_MM;
}

static void atomkms_edid_checksum(u8 *block)
{
	u8 sum = 0;
	u32 i;

	for (i = 0; i < ATOMKMS_EDID_BLOCK - 1; i++)
		sum += block[i];
	block[ATOMKMS_EDID_BLOCK - 1] = (u8)(0x100 - sum);
}

/* Physical size in cm for the base block: nearest, at least 1. */
static u8 atomkms_edid_cm(u32 mm)
{
	u32 cm = (mm + 5) / 10;

	return cm ? (u8)cm : 1;
}

static void atomkms_edid_chromaticity(u8 *p)
{
	const u16 *c = atomkms_edid_srgb;
	u32 i;

	p[0] = (c[0] & 3) << 6 | (c[1] & 3) << 4 | (c[2] & 3) << 2 | (c[3] & 3);
	p[1] = (c[4] & 3) << 6 | (c[5] & 3) << 4 | (c[6] & 3) << 2 | (c[7] & 3);
	for (i = 0; i < 8; i++)
		p[2 + i] = (u8)(c[i] >> 2);
}

/**
 * atomkms_edid_dtd - write the preferred mode as a Detailed Timing Descriptor
 * @desc: the monitor; atomkms_edid_mode_ok() has checked its mode
 * @clock10: the pixel clock in 10 kHz units
 * @width_mm: image width, 0 if unknown
 * @height_mm: image height, 0 if unknown
 * @p: the 18-byte descriptor
 */
static void atomkms_edid_dtd(const struct atomkms_edid_desc *desc,
			     u32 clock10, u32 width_mm, u32 height_mm, u8 *p)
{
	const struct atomkms_timing *m = &desc->preferred;
	u32 hblank = m->htotal - m->hdisplay;
	u32 vblank = m->vtotal - m->vdisplay;
	u32 hso = m->hsync_start - m->hdisplay;
	u32 hsw = m->hsync_end - m->hsync_start;
	u32 vso = m->vsync_start - m->vdisplay;
	u32 vsw = m->vsync_end - m->vsync_start;

	p[0] = clock10 & 0xff;
	p[1] = clock10 >> 8;
	p[2] = m->hdisplay & 0xff;
	p[3] = hblank & 0xff;
	p[4] = (m->hdisplay >> 8) << 4 | hblank >> 8;
	p[5] = m->vdisplay & 0xff;
	p[6] = vblank & 0xff;
	p[7] = (m->vdisplay >> 8) << 4 | vblank >> 8;
	p[8] = hso & 0xff;
	p[9] = hsw & 0xff;
	p[10] = (vso & 0xf) << 4 | (vsw & 0xf);
	p[11] = (hso >> 8) << 6 | (hsw >> 8) << 4 | (vso >> 4) << 2 | vsw >> 4;
	p[12] = width_mm & 0xff;
	p[13] = height_mm & 0xff;
	p[14] = (width_mm >> 8) << 4 | height_mm >> 8;
	/* p[15], p[16]: no border. */
	p[17] = ATOMKMS_EDID_DTD_SEPARATE;
	if (m->vsync_positive)
		p[17] |= ATOMKMS_EDID_DTD_VSYNC_POS;
	if (m->hsync_positive)
		p[17] |= ATOMKMS_EDID_DTD_HSYNC_POS;
}

/*
 * Fill the 13-byte text of a descriptor: up to 13 characters, then a line
 * feed and space padding. An empty name fails edid-decode --check.
 */
static void atomkms_edid_text(u8 *p, const char *s)
{
	u32 i = 0;

	if (!s || !s[0])
		s = ATOMKMS_EDID_DEFAULT_NAME;
	for (; s[i] && i < ATOMKMS_EDID_NAME_LEN; i++)
		p[i] = (s[i] >= 0x20 && s[i] <= 0x7e) ? s[i] : '_';
	if (i < ATOMKMS_EDID_NAME_LEN)
		p[i++] = 0x0a;
	for (; i < ATOMKMS_EDID_NAME_LEN; i++)
		p[i] = 0x20;
}

/**
 * atomkms_edid_range - write the Display Range Limits descriptor
 * @desc: the monitor
 * @h: line rates of every mode the EDID lists
 * @p: the 18-byte descriptor
 *
 * Rates above 255 use the EDID 1.4 offset flags. The class is always
 * "range limits only", vrr or not: default GTF would claim support for any
 * GTF timing in range, and DRM takes &drm_display_info.monitor_range only
 * from this class (with the continuous-frequency feature set).
 *
 * Return: false if a line rate needs more than 510 kHz.
 */
static bool atomkms_edid_range(const struct atomkms_edid_desc *desc,
			       const struct atomkms_edid_hrange *h, u8 *p)
{
	u32 vmin = desc->min_vrefresh, vmax = desc->max_vrefresh;
	u32 hmin = h->min_khz, hmax = h->max_khz;
	u32 clock10m = (desc->max_clock_khz + 9999) / 10000;
	u8 *end = p + 18;
	u8 flags = 0;

	if (!hmin || hmax > ATOMKMS_EDID_RATE_MAX)
		return false;
	if (vmax > 255) {
		flags |= ATOMKMS_EDID_V_MAX_OFFSET;
		vmax -= 255;
		if (vmin > 255) {
			flags |= ATOMKMS_EDID_V_MIN_OFFSET;
			vmin -= 255;
		}
	}
	if (hmax > 255) {
		flags |= ATOMKMS_EDID_H_MAX_OFFSET;
		hmax -= 255;
		if (hmin > 255) {
			flags |= ATOMKMS_EDID_H_MIN_OFFSET;
			hmin -= 255;
		}
	}
	p[3] = ATOMKMS_EDID_TAG_RANGE;
	p[4] = flags;
	p[5] = (u8)vmin;
	p[6] = (u8)vmax;
	p[7] = (u8)hmin;
	p[8] = (u8)hmax;
	p[9] = clock10m > 255 ? 255 : (u8)clock10m;
	p[10] = ATOMKMS_EDID_RANGE_ONLY;
	p[11] = 0x0a;
	for (p += 12; p < end; p++)
		*p = 0x20;
	return true;
}

/**
 * atomkms_edid_hdr - write an HDR monitor's CTA-861 data blocks
 * @db: where they go, in the CTA-861 extension's data block collection
 *
 * A Colorimetry data block (CTA-861-G 7.5.5: BT.2020 RGB and YCC, no
 * gamut metadata profiles), so that the Colorspace property's BT2020
 * values are ones the sink takes, and an HDR Static Metadata data block
 * (CTA-861.3 4.2) with all three optional luminance bytes: see
 * %ATOMKMS_EDID_HDR_EOTFS.
 *
 * Return: the byte after them.
 */
static u8 *atomkms_edid_hdr(u8 *db)
{
	db[0] = ATOMKMS_EDID_CTA_EXT_DB | 3;
	db[1] = ATOMKMS_EDID_CTA_COLORIMETRY;
	db[2] = (u8)ATOMKMS_EDID_COLORIMETRY;
	db[3] = 0;
	db += 4;
	db[0] = ATOMKMS_EDID_CTA_EXT_DB | 6;
	db[1] = ATOMKMS_EDID_CTA_HDR_STATIC;
	db[2] = (u8)ATOMKMS_EDID_HDR_EOTFS;
	db[3] = (u8)ATOMKMS_EDID_HDR_TYPE1;
	db[4] = ATOMKMS_EDID_HDR_MAX_CV;
	db[5] = ATOMKMS_EDID_HDR_MAX_FALL_CV;
	db[6] = ATOMKMS_EDID_HDR_MIN_CV;
	return db + 7;
}

/**
 * atomkms_edid_cta - write the CTA-861 extension
 * @desc: the monitor
 * @ext: the extension block
 * @h: line rates so far, extended by the VICs listed
 *
 * Data blocks: a Video Data Block of the VICs that fit, if any, then a Video
 * Capability Data Block declaring selectable RGB quantization range, which
 * CTA-861 requires, and both over- and underscan. Byte 3 declares RGB only
 * (no YCbCr, no basic audio, no underscan by default) and one native DTD,
 * the base block's first. An HDR monitor's (@desc->hdr) adds a Colorimetry
 * data block and an HDR Static Metadata data block (atomkms_edid_hdr()).
 */
static void atomkms_edid_cta(const struct atomkms_edid_desc *desc, u8 *ext,
			     struct atomkms_edid_hrange *h)
{
	const struct atomkms_timing *m = &desc->preferred;
	const struct atomkms_edid_fixed *f;
	u8 *db = ext + 4;
	u32 n = 0, pass;
	bool smaller, first;

	ext[0] = ATOMKMS_EDID_CTA_TAG;
	ext[1] = ATOMKMS_EDID_CTA_REV;
	ext[3] = 1;
	/*
	 * The first SVD is the sink's preferred CTA format: list the VICs no
	 * larger than the native mode first, then the larger ones.
	 */
	for (pass = 0; pass < 2; pass++) {
		first = pass == 0;
		for (f = atomkms_edid_vics; f->clock_khz; f++) {
			smaller = f->hdisplay <= m->hdisplay &&
				  f->vdisplay <= m->vdisplay;
			if (smaller != first ||
			    !atomkms_edid_fits(desc, f->clock_khz, f->htotal,
					       f->vtotal))
				continue;
			db[1 + n++] = f->code[0];
			atomkms_edid_add_hrange(h, f->clock_khz, f->htotal);
		}
	}
	if (n) {
		db[0] = ATOMKMS_EDID_CTA_VIDEO_DB | n;
		db += 1 + n;
	}
	db[0] = ATOMKMS_EDID_CTA_EXT_DB | 2;
	db[1] = ATOMKMS_EDID_CTA_VCDB;
	db[2] = ATOMKMS_EDID_CTA_VCDB_QS | ATOMKMS_EDID_CTA_VCDB_SCAN;
	db += 3;
	if (desc->hdr)
		db = atomkms_edid_hdr(db);
	/* No DTDs follow the data blocks. */
	ext[2] = db - ext;
}

/* DisplayID 1.3: an EDID extension of one section. */
#define ATOMKMS_EDID_DISPID_TAG		0x70
#define ATOMKMS_EDID_DISPID_REV		0x13
#define ATOMKMS_EDID_DISPID_MONITOR	3	/* product type */
#define ATOMKMS_EDID_DISPID_PRODUCT	0x00	/* Product Identification */
#define ATOMKMS_EDID_DISPID_PRODUCT_LEN	12
#define ATOMKMS_EDID_DISPID_TIMING1	0x03	/* Type I Detailed Timing */
#define ATOMKMS_EDID_DISPID_TIMING1_LEN	20
#define ATOMKMS_EDID_DISPID_TILED	0x12	/* Tiled Display Topology */
#define ATOMKMS_EDID_DISPID_TILED_LEN	22
#define ATOMKMS_EDID_DISPID_PARAMS	0x01	/* Display Parameters */
#define ATOMKMS_EDID_DISPID_PARAMS_LEN	12
#define ATOMKMS_EDID_DISPID_IFACE	0x0f	/* Display Interface */
#define ATOMKMS_EDID_DISPID_IFACE_LEN	10
#define ATOMKMS_EDID_DISPID_BYTES	(3 + ATOMKMS_EDID_DISPID_PRODUCT_LEN + \
					 3 + ATOMKMS_EDID_DISPID_PARAMS_LEN + \
					 3 + ATOMKMS_EDID_DISPID_IFACE_LEN + \
					 3 + ATOMKMS_EDID_DISPID_TILED_LEN + \
					 3 + ATOMKMS_EDID_DISPID_TIMING1_LEN)
/* Tile capabilities: one physical enclosure (the tiles are one monitor). */
#define ATOMKMS_EDID_DISPID_ONE_BOX	0x80
#define ATOMKMS_EDID_DISPID_PREFERRED	0x80
/* Aspect ratio "not given": compute it from the active size. */
#define ATOMKMS_EDID_DISPID_ASPECT_NONE	8
/* The tiled monitor's product code in its topology ID ("AT"). */
#define ATOMKMS_EDID_TILE_PRODUCT	0x5441

static bool atomkms_edid_tile_ok(const struct atomkms_edid_tile *tile)
{
	return tile->tiles_h >= 1 && tile->tiles_h <= ATOMKMS_EDID_MAX_TILES &&
	       tile->tiles_v >= 1 && tile->tiles_v <= ATOMKMS_EDID_MAX_TILES &&
	       tile->h_loc < tile->tiles_h && tile->v_loc < tile->tiles_v;
}

/* A 16-bit little-endian field, @v minus one. */
static void atomkms_edid_le16m1(u8 *p, u32 v)
{
	p[0] = (v - 1U) & 0xff;
	p[1] = ((v - 1U) >> 8) & 0xff;
}

/*
 * The Type I Detailed Timing of the preferred mode, as the DTD has it (10
 * kHz clock): DisplayID wants a preferred timing of its own. Fields minus
 * one; the sync polarities in the offsets' top bits.
 */
static void atomkms_edid_dispid_timing(const struct atomkms_edid_desc *desc,
				       u32 clock10, u8 *b)
{
	const struct atomkms_timing *m = &desc->preferred;

	b[0] = ATOMKMS_EDID_DISPID_TIMING1;
	b[2] = ATOMKMS_EDID_DISPID_TIMING1_LEN;
	b[3] = (clock10 - 1U) & 0xff;
	b[4] = ((clock10 - 1U) >> 8) & 0xff;
	b[5] = ((clock10 - 1U) >> 16) & 0xff;
	b[6] = ATOMKMS_EDID_DISPID_PREFERRED | ATOMKMS_EDID_DISPID_ASPECT_NONE;
	atomkms_edid_le16m1(b + 7, m->hdisplay);
	atomkms_edid_le16m1(b + 9, m->htotal - m->hdisplay);
	atomkms_edid_le16m1(b + 11, m->hsync_start - m->hdisplay);
	if (m->hsync_positive)
		b[12] |= 0x80;
	atomkms_edid_le16m1(b + 13, m->hsync_end - m->hsync_start);
	atomkms_edid_le16m1(b + 15, m->vdisplay);
	atomkms_edid_le16m1(b + 17, m->vtotal - m->vdisplay);
	atomkms_edid_le16m1(b + 19, m->vsync_start - m->vdisplay);
	if (m->vsync_positive)
		b[20] |= 0x80;
	atomkms_edid_le16m1(b + 21, m->vsync_end - m->vsync_start);
}

/*
 * A DisplayID 1.3 extension block: a monitor's section with its Product
 * Identification, a Tiled Display Topology data block (DisplayID 1.3,
 * section 4.14: the tile's place in the monitor's grid and its size,
 * fields minus one, counts and locations split in a low nibble and two
 * high bits; no bezel; the topology ID that names the monitor), and the
 * preferred mode as a Type I timing. The section's checksum; the EDID
 * block's is the caller's.
 */
static void atomkms_edid_dispid_tile(const struct atomkms_edid_desc *desc,
				     u32 clock10, u8 *ext)
{
	const struct atomkms_edid_tile *tile = desc->tile;
	u32 h = tile->tiles_h - 1U, v = tile->tiles_v - 1U;
	u32 w = desc->preferred.hdisplay, hh = desc->preferred.vdisplay;
	u8 *b = ext + 5, sum = 0;
	u32 i;

	ext[0] = ATOMKMS_EDID_DISPID_TAG;
	ext[1] = ATOMKMS_EDID_DISPID_REV;
	ext[2] = ATOMKMS_EDID_DISPID_BYTES;
	ext[3] = ATOMKMS_EDID_DISPID_MONITOR;
	ext[4] = 0;	/* no further sections */

	/* Product Identification: vendor, product, serial, week, year. */
	b[0] = ATOMKMS_EDID_DISPID_PRODUCT;
	b[2] = ATOMKMS_EDID_DISPID_PRODUCT_LEN;
	b[3] = 'A';
	b[4] = 'K';
	b[5] = 'X';
	b[6] = desc->product & 0xff;
	b[7] = desc->product >> 8;
	for (i = 0; i < 4; i++)
		b[8 + i] = (desc->serial >> (8 * i)) & 0xff;
	b[12] = ATOMKMS_EDID_WEEK;
	b[13] = ATOMKMS_EDID_YEAR - 2000;
	b += 3 + ATOMKMS_EDID_DISPID_PRODUCT_LEN;

	/*
	 * Display Parameters: the tile's image size (0.1 mm) and pixels,
	 * gamma 2.2, 8 bits per colour; then the Display Interface: one
	 * DisplayPort link, RGB 8 bpc.
	 */
	b[0] = ATOMKMS_EDID_DISPID_PARAMS;
	b[2] = ATOMKMS_EDID_DISPID_PARAMS_LEN;
	b[3] = (desc->width_mm * 10U) & 0xff;
	b[4] = (desc->width_mm * 10U) >> 8;
	b[5] = (desc->height_mm * 10U) & 0xff;
	b[6] = (desc->height_mm * 10U) >> 8;
	b[7] = w & 0xff;
	b[8] = w >> 8;
	b[9] = hh & 0xff;
	b[10] = hh >> 8;
	b[12] = ATOMKMS_EDID_GAMMA;
	/* Aspect ratio, long side to short: (value + 100) / 100. */
	b[13] = (u8)((w > hh ? w * 100U / hh : hh * 100U / w) - 100U);
	b[14] = 0x77;		/* 8 bpc, native and overall */
	b += 3 + ATOMKMS_EDID_DISPID_PARAMS_LEN;
	b[0] = ATOMKMS_EDID_DISPID_IFACE;
	b[2] = ATOMKMS_EDID_DISPID_IFACE_LEN;
	b[3] = 0xa1;		/* DisplayPort, one link */
	b[5] = 0x02;		/* RGB 4:4:4 at 8 bpc */
	b += 3 + ATOMKMS_EDID_DISPID_IFACE_LEN;

	b[0] = ATOMKMS_EDID_DISPID_TILED;
	b[2] = ATOMKMS_EDID_DISPID_TILED_LEN;
	b[3] = ATOMKMS_EDID_DISPID_ONE_BOX;
	b[4] = (u8)(((h & 0xf) << 4) | (v & 0xf));
	b[5] = (u8)(((tile->h_loc & 0xf) << 4) | (tile->v_loc & 0xf));
	b[6] = (u8)(((h >> 4) << 6) | ((v >> 4) << 4) |
		    ((tile->h_loc >> 4) << 2) | (tile->v_loc >> 4));
	atomkms_edid_le16m1(b + 7, w);
	atomkms_edid_le16m1(b + 9, hh);
	/* b[11..15]: no bezel. The topology ID: vendor, product, serial. */
	b[16] = 'A';
	b[17] = 'K';
	b[18] = 'X';
	b[19] = ATOMKMS_EDID_TILE_PRODUCT & 0xff;
	b[20] = ATOMKMS_EDID_TILE_PRODUCT >> 8;
	for (i = 0; i < 4; i++)
		b[21 + i] = (tile->group >> (8 * i)) & 0xff;
	b += 3 + ATOMKMS_EDID_DISPID_TILED_LEN;

	atomkms_edid_dispid_timing(desc, clock10, b);

	/* The section checksum covers its header, its blocks and itself. */
	for (i = 1; i < 5 + ATOMKMS_EDID_DISPID_BYTES; i++)
		sum += ext[i];
	ext[5 + ATOMKMS_EDID_DISPID_BYTES] = (u8)(0x100 - sum);
}

/**
 * atomkms_edid_build - build the EDID of a simulated monitor
 * @desc: the monitor
 * @buf: where to write it
 * @buf_size: size of @buf, at least %ATOMKMS_EDID_SIZE
 *
 * Writes a base block and one CTA-861 extension, and for a tile of a
 * tiled monitor (@desc->tile) a DisplayID extension. The established, standard
 * and CTA modes listed are those within @desc's pixel clock and vertical
 * refresh limits; the horizontal limits are computed to cover them all.
 * The limits must include 640x480 at 59.94 Hz (25.175 MHz), mandatory for a
 * CTA-861 sink. The fourth descriptor is a dummy: a serial number string
 * would duplicate @desc->serial, which edid-decode warns about.
 *
 * A preferred mode that does not fit a DTD (4096 pixels or more active, or
 * a clock above 655.35 MHz) is refused rather than encoded another way, such
 * as a DisplayID extension: 4096-wide modes reach userspace as CTA VICs.
 *
 * Return: the number of bytes written, %ATOMKMS_EDID_SIZE (with a tile,
 * %ATOMKMS_EDID_MAX_SIZE); or -%ATOMKMS_ENOSPC if @buf_size is too small,
 * -%ATOMKMS_EINVAL if @desc cannot be encoded (bad range limits, or a
 * preferred mode outside them or not a valid DTD, or a line rate above
 * 510 kHz, or a tile outside its monitor's grid).
 */
int atomkms_edid_build(const struct atomkms_edid_desc *desc, u8 *buf,
		       u32 buf_size)
{
	u32 clock10 = (desc->preferred.clock_khz + 5) / 10;
	struct atomkms_edid_hrange h = { 0, 0 };
	const struct atomkms_edid_fixed *f;
	u32 i, n, width_mm = 0, height_mm = 0;
	u32 size = desc->tile ? ATOMKMS_EDID_MAX_SIZE : ATOMKMS_EDID_SIZE;
	u8 *p;

	if (buf_size < size)
		return -ATOMKMS_ENOSPC;
	if (!atomkms_edid_desc_ok(desc) || !atomkms_edid_mode_ok(desc, clock10) ||
	    (desc->tile && !atomkms_edid_tile_ok(desc->tile)))
		return -ATOMKMS_EINVAL;
	for (i = 0; i < size; i++)
		buf[i] = 0;

	/* Header, vendor and product, version 1.4. */
	for (i = 1; i < 7; i++)
		buf[i] = 0xff;
	buf[8] = ATOMKMS_EDID_MFG_ID >> 8;
	buf[9] = ATOMKMS_EDID_MFG_ID & 0xff;
	buf[10] = desc->product & 0xff;
	buf[11] = desc->product >> 8;
	for (i = 0; i < 4; i++)
		buf[12 + i] = (desc->serial >> (8 * i)) & 0xff;
	buf[16] = ATOMKMS_EDID_WEEK;
	buf[17] = ATOMKMS_EDID_YEAR - 1990;
	buf[18] = 1;
	buf[19] = 4;

	/* Basic display parameters; both sizes or neither. */
	buf[20] = ATOMKMS_EDID_INPUT |
		  ((desc->bpc ? desc->bpc : 8) - 4) / 2 << ATOMKMS_EDID_DEPTH_SHIFT;
	if (desc->width_mm && desc->height_mm) {
		width_mm = desc->width_mm;
		height_mm = desc->height_mm;
		buf[21] = atomkms_edid_cm(width_mm);
		buf[22] = atomkms_edid_cm(height_mm);
	}
	buf[23] = ATOMKMS_EDID_GAMMA;
	buf[24] = ATOMKMS_EDID_SRGB | ATOMKMS_EDID_PREF_NATIVE;
	if (desc->vrr)
		buf[24] |= ATOMKMS_EDID_CONTINUOUS;
	atomkms_edid_chromaticity(buf + 25);

	/* Established and standard timings. */
	for (f = atomkms_edid_established; f->clock_khz; f++) {
		if (!atomkms_edid_fits(desc, f->clock_khz, f->htotal, f->vtotal))
			continue;
		buf[f->code[0]] |= f->code[1];
		atomkms_edid_add_hrange(&h, f->clock_khz, f->htotal);
	}
	p = buf + 0x26;
	for (i = 0; i < 2 * ATOMKMS_EDID_N_STANDARD; i++)
		p[i] = 0x01;
	n = 0;
	for (f = atomkms_edid_standard; f->clock_khz; f++) {
		if (!atomkms_edid_fits(desc, f->clock_khz, f->htotal, f->vtotal))
			continue;
		p[2 * n] = f->code[0];
		p[2 * n + 1] = f->code[1];
		n++;
		atomkms_edid_add_hrange(&h, f->clock_khz, f->htotal);
	}

	/* Descriptors: preferred mode, range limits, name, dummy. */
	atomkms_edid_dtd(desc, clock10, width_mm, height_mm, buf + 0x36);
	atomkms_edid_add_hrange(&h, clock10 * 10, desc->preferred.htotal);
	atomkms_edid_cta(desc, buf + ATOMKMS_EDID_BLOCK, &h);
	if (!atomkms_edid_range(desc, &h, buf + 0x48))
		return -ATOMKMS_EINVAL;
	buf[0x5a + 3] = ATOMKMS_EDID_TAG_NAME;
	atomkms_edid_text(buf + 0x5a + 5, desc->name);
	buf[0x6c + 3] = ATOMKMS_EDID_TAG_DUMMY;

	buf[0x7e] = size / ATOMKMS_EDID_BLOCK - 1;
	if (desc->tile) {
		atomkms_edid_dispid_tile(desc, clock10,
					 buf + 2 * ATOMKMS_EDID_BLOCK);
		atomkms_edid_checksum(buf + 2 * ATOMKMS_EDID_BLOCK);
	}
	atomkms_edid_checksum(buf);
	atomkms_edid_checksum(buf + ATOMKMS_EDID_BLOCK);
	return (int)size;
}

/**
 * atomkms_edid_max_vrefresh - the range limits' top rate for a monitor
 * @m: its preferred mode
 * @hz: the rate its CRTC runs at
 *
 * Range limits are whole hertz, and a mode's rate is rarely one: VESA's
 * 1024x768 "60 Hz" is 65 MHz / (1344 * 806) = 60.004 Hz, which a top of
 * 60 Hz would leave out (and atomkms_edid_build() then refuses the
 * description). The top is the preferred mode's rate rounded up, and at
 * least @hz and 60 Hz.
 *
 * Return: the rate in Hz.
 */
u32 atomkms_edid_max_vrefresh(const struct atomkms_timing *m, u32 hz)
{
	/* Below 2^32: both are 16-bit. */
	u32 pixels = (u32)m->htotal * m->vtotal;
	u32 top = hz > 60 ? hz : 60;
	u64 rate;

	if (!pixels)
		return top;
	rate = div_u64((u64)m->clock_khz * 1000 + pixels - 1, pixels);
	return rate > top ? (u32)rate : top;
}
