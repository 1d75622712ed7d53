/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The topology of an atomkms device as data: its planes, CRTCs, encoders
 * and connectors, with the masks that route them, in the order the
 * device creates them. Pure C, shared by the module and the unit tests.
 *
 * The module parameters only build a default topology
 * (atomkms_topology_from_params()); atomkms_topology_validate() then
 * checks any topology, whoever filled it, rule by named rule; and device
 * creation walks it without deciding anything. Bounded arrays, so that a
 * topology can be handed over whole as platform data.
 */
#ifndef ATOMKMS_TOPOLOGY_H
#define ATOMKMS_TOPOLOGY_H

#include "atomkms_types.h"
#include "atomkms_limits.h"

#define ATOMKMS_TOPO_MAX_CRTCS		8
/* DRM's masks of planes and encoders are 32 bits wide. */
#define ATOMKMS_TOPO_MAX_PLANES		32
#define ATOMKMS_TOPO_MAX_ENCODERS	(2 * ATOMKMS_TOPO_MAX_CRTCS)
#define ATOMKMS_TOPO_MAX_CONNECTORS	ATOMKMS_TOPO_MAX_ENCODERS
/* Planes one CRTC may reach: the compositor's limit (compose.h). */
#define ATOMKMS_TOPO_MAX_CRTC_PLANES	16
/* No plane: a CRTC without a cursor. */
#define ATOMKMS_TOPO_NONE		0xff

/* Entries of GAMMA_LUT and DEGAMMA_LUT (and of the legacy gamma ramp). */
#define ATOMKMS_TOPO_LUT_SIZE		256

/* Scaling limits, 16.16 src/dst ratios: at most 16 times either way. */
#define ATOMKMS_TOPO_SCALE_ONE		0x10000
#define ATOMKMS_TOPO_MIN_SCALE		(ATOMKMS_TOPO_SCALE_ONE / 16)
#define ATOMKMS_TOPO_MAX_SCALE		(16 * ATOMKMS_TOPO_SCALE_ONE)

/* The highest zpos a plane may be given. */
#define ATOMKMS_TOPO_MAX_ZPOS		255

/*
 * Rotations: DRM's DRM_MODE_ROTATE_* and DRM_MODE_REFLECT_* bits (uapi),
 * by the names of the rotation property's values. The compositor honours
 * them all, alone and combined.
 */
#define ATOMKMS_TOPO_ROTATE_0		0x01
#define ATOMKMS_TOPO_ROTATE_90		0x02
#define ATOMKMS_TOPO_ROTATE_180		0x04
#define ATOMKMS_TOPO_ROTATE_270		0x08
#define ATOMKMS_TOPO_REFLECT_X		0x10
#define ATOMKMS_TOPO_REFLECT_Y		0x20
#define ATOMKMS_TOPO_ROTATIONS		0x3f

/* Mode limits: VGA up to the largest framebuffer. */
#define ATOMKMS_TOPO_MIN_MODE_W		640
#define ATOMKMS_TOPO_MIN_MODE_H		480
#define ATOMKMS_TOPO_MAX_MODE_W		8192
#define ATOMKMS_TOPO_MAX_MODE_H		8192
#define ATOMKMS_TOPO_MAX_REFRESH	1000
/* The CRTCs' pixel clock limit (ATOMKMS_MAX_CLOCK_KHZ), in kHz. */
#define ATOMKMS_TOPO_MAX_CLOCK_KHZ	3000000ULL

/*
 * Connector types: the values of DRM's DRM_MODE_CONNECTOR_* (uapi), by
 * the names drm_get_connector_type_name() prints. Unknown (0) and
 * Writeback (18) are not a monitor's and are refused.
 */
#define ATOMKMS_TOPO_CONN_VGA		1
#define ATOMKMS_TOPO_CONN_DVII		2
#define ATOMKMS_TOPO_CONN_DVID		3
#define ATOMKMS_TOPO_CONN_LVDS		7
#define ATOMKMS_TOPO_CONN_DP		10
#define ATOMKMS_TOPO_CONN_HDMIA		11
#define ATOMKMS_TOPO_CONN_EDP		14
#define ATOMKMS_TOPO_CONN_VIRTUAL	15
#define ATOMKMS_TOPO_CONN_DSI		16
#define ATOMKMS_TOPO_CONN_WRITEBACK	18
#define ATOMKMS_TOPO_CONN_MAX		20

/* Tiled monitors: group ids 1 to this, at most 16 tiles a side. */
#define ATOMKMS_TOPO_MAX_TILE_GROUP	255
#define ATOMKMS_TOPO_MAX_TILES		16

/* The largest EDID a connector takes: 32 blocks of 128 bytes. */
#define ATOMKMS_TOPO_MAX_EDID		4096

/* A sink's HDCP (content protection): none, 1.4 only, or 2.2 (and 1.4). */
#define ATOMKMS_TOPO_HDCP_NONE		0
#define ATOMKMS_TOPO_HDCP_1_4		1
#define ATOMKMS_TOPO_HDCP_2_2		2
/* How long its authentication takes by default, and at most (ms). */
#define ATOMKMS_TOPO_HDCP_DELAY_MS	100
/*
 * A monitor's bits per colour channel, as its EDID's video input says:
 * 8 to 16, even; 10 by default (a deep-colour monitor).
 */
#define ATOMKMS_TOPO_BPC_DEFAULT	10
#define ATOMKMS_TOPO_BPC_MIN		8
#define ATOMKMS_TOPO_BPC_MAX		16
#define ATOMKMS_TOPO_HDCP_MAX_DELAY_MS	10000

/* The values of DRM's enum drm_plane_type (tied to it in atomkms_drv.c). */
enum atomkms_topo_plane_type {
	ATOMKMS_TOPO_OVERLAY = 0,
	ATOMKMS_TOPO_PRIMARY = 1,
	ATOMKMS_TOPO_CURSOR = 2,
};

/**
 * struct atomkms_topo_plane - a universal plane
 * @type: primary, overlay or cursor (&enum atomkms_topo_plane_type)
 * @pipe: the CRTC it is created with (planes are listed pipe by pipe)
 * @possible_crtcs: the CRTCs it may feed, a bit per CRTC index
 * @zpos: its initial zpos
 * @zpos_min: lowest zpos userspace may give it
 * @zpos_max: highest
 * @zpos_mutable: userspace may change its zpos within @zpos_min to
 *                @zpos_max; otherwise the three are equal
 * @min_scale: smallest src/dst ratio (16.16) it scales by
 * @max_scale: largest; both %ATOMKMS_TOPO_SCALE_ONE: no scaling
 * @formats: the formats it scans out, bit i for atomkms_formats[i] (the
 *           compositor's table)
 * @rotations: the rotations it offers (%ATOMKMS_TOPO_ROTATE_0, ...)
 */
struct atomkms_topo_plane {
	u8 type;
	u8 pipe;
	u8 rotations;
	bool zpos_mutable;
	u32 possible_crtcs;
	u32 zpos, zpos_min, zpos_max;
	int min_scale, max_scale;
	u64 formats;
};

/**
 * struct atomkms_topo_crtc - a display pipe
 * @primary: index of its primary plane
 * @cursor: index of its cursor plane, or %ATOMKMS_TOPO_NONE
 * @lut_size: entries of its gamma and degamma LUTs
 */
struct atomkms_topo_crtc {
	u8 primary;
	u8 cursor;
	u16 lut_size;
};

/* Encoder kinds: a display's, or a writeback connector's. */
enum atomkms_topo_encoder_kind {
	ATOMKMS_TOPO_ENC_VIRTUAL,
	ATOMKMS_TOPO_ENC_WRITEBACK,
};

/**
 * struct atomkms_topo_encoder - an encoder
 * @kind: &enum atomkms_topo_encoder_kind
 * @pipe: the CRTC it is created with (encoders are listed pipe by pipe, so
 *        an encoder's index here is its DRM index)
 * @possible_crtcs: the CRTCs that may drive it
 * @possible_clones: the encoders it may share a CRTC with, itself included
 *
 * A writeback encoder stands for a writeback connector with its encoder:
 * DRM creates the two together.
 */
struct atomkms_topo_encoder {
	u8 kind;
	u8 pipe;
	u32 possible_crtcs;
	u32 possible_clones;
};

/**
 * struct atomkms_topo_connector - a display connector (a monitor)
 * @encoder: index of its encoder
 * @connected: a monitor is plugged in
 * @pref_width: width of the monitor's preferred mode
 * @pref_height: its height
 * @refresh: its refresh rate, in Hz
 * @max_width: widest mode the monitor offers
 * @max_height: tallest
 * @type: DRM connector type (%ATOMKMS_TOPO_CONN_VIRTUAL, ...)
 * @non_desktop: the monitor is a headset (the non-desktop property)
 * @vrr: the monitor varies its refresh (adaptive sync): the connector is
 *       vrr_capable, within its EDID's range limits
 * @hdcp: the monitor's HDCP (%ATOMKMS_TOPO_HDCP_NONE, _1_4 or _2_2): with
 *        any, the connector has the content protection properties
 * @hdcp_delay_ms: how long its HDCP authentication takes
 * @tile_group: 0, or the tiled monitor (1 to %ATOMKMS_TOPO_MAX_TILE_GROUP)
 *              this connector is one tile of: its generated EDID carries
 *              a DisplayID tiled-display block, the DRM core gives the
 *              connector a TILE property, and the CRTCs driving the
 *              group's tiles are genlocked (atomkms_tile.c)
 * @tiles_h: tiles across the monitor, with @tile_group
 * @tiles_v: tiles down
 * @tile_h_loc: this tile's column, from 0
 * @tile_v_loc: its row; the tile's size is the preferred mode's
 * @bpc: the monitor's bits per colour channel, which its generated EDID
 *       declares (%ATOMKMS_TOPO_BPC_MIN to _MAX, even)
 * @hdr: the monitor does HDR: its generated EDID has an HDR static
 *       metadata block, and the connector the HDR_OUTPUT_METADATA and
 *       Colorspace properties (atomkms_hdr.c)
 */
struct atomkms_topo_connector {
	u8 encoder;
	bool connected;
	u8 type;
	bool non_desktop;
	bool vrr;
	u8 hdcp;
	u16 hdcp_delay_ms;
	u8 bpc;
	bool hdr;
	u16 pref_width, pref_height, refresh;
	u16 max_width, max_height;
	u8 tile_group, tiles_h, tiles_v, tile_h_loc, tile_v_loc;
};

/**
 * struct atomkms_topology - a whole device
 * @num_planes: entries of @planes
 * @num_crtcs: entries of @crtcs
 * @num_encoders: entries of @encoders
 * @num_connectors: entries of @connectors (writeback ones not counted:
 *                  they come with their writeback encoder)
 * @planes: the planes, in creation order
 * @crtcs: the CRTCs; index i is DRM CRTC index i
 * @encoders: the encoders, in creation order
 * @connectors: the display connectors, in creation order
 * @limits: the simulated display engine's limits (issue 15), none by
 *          default (atomkms_limits_init()); a DRM plane's index in
 *          @planes is its index in the limits' &atomkms_limits_hw_plane
 *          drm_planes masks
 */
struct atomkms_topology {
	u32 num_planes, num_crtcs, num_encoders, num_connectors;
	struct atomkms_topo_plane planes[ATOMKMS_TOPO_MAX_PLANES];
	struct atomkms_topo_crtc crtcs[ATOMKMS_TOPO_MAX_CRTCS];
	struct atomkms_topo_encoder encoders[ATOMKMS_TOPO_MAX_ENCODERS];
	struct atomkms_topo_connector connectors[ATOMKMS_TOPO_MAX_CONNECTORS];
	struct atomkms_limits limits;
};

/**
 * struct atomkms_params - the module parameters a default topology is
 * built from (README: "Module parameters")
 * @num_crtcs: display pipes
 * @num_overlays: overlay planes per CRTC
 * @shared_overlays: every overlay may feed every CRTC
 * @cursor: a cursor plane per CRTC
 * @num_connectors: Virtual connectors, on the first CRTCs; negative: one
 *                  per CRTC
 * @writeback: writeback connectors at all
 * @writeback_mask: on which CRTCs
 * @vrr_mask: which Virtual connectors are vrr_capable, a bit each
 * @hdcp_mask: which connectors' monitors do HDCP 2.2 (and 1.4), a bit each
 * @hdcp_delay_ms: how long their authentication takes (0: the default)
 * @bpc: the connectors' monitors' bits per colour channel (0: the default,
 *       %ATOMKMS_TOPO_BPC_DEFAULT)
 * @hdr_mask: which connectors' monitors do HDR, a bit each
 * @crossbar: any CRTC may drive any Virtual connector, several at once,
 *            but the last connector, which cannot be cloned
 * @refresh: the preferred refresh rate of the connector on each CRTC
 * @num_refresh: entries given in @refresh; the CRTCs beyond take the last
 *               (60 Hz if none)
 * @max_scale_factor: planes scale up and down by at most this factor
 * @mutable_zpos: primary and overlay planes share one mutable zpos range,
 *                0 to the number of overlays (the cursor stays on top);
 *                otherwise the primary is fixed at 0, overlays 1 up
 * @max_width: widest mode the connectors offer
 * @max_height: tallest
 * @pref_width: width of the connectors' preferred mode
 * @pref_height: its height
 * @connector_types: the type of each connector, in order
 * @num_connector_types: entries given in @connector_types; connectors
 *                       beyond them are Virtual
 * @tiles_h: 0, or tiles across one tiled monitor: the first @tiles_h x
 *           @tiles_v connectors are its tiles, in rows, each of the
 *           preferred mode's size, fixed-rate (tile group 1)
 * @tiles_v: tiles down (0 with @tiles_h: one row)
 * @limits: the simulated display engine's limits (a preset, and numbers
 *          replacing its own: atomkms_limits_from_params()), or NULL for
 *          none
 */
struct atomkms_params {
	u32 num_crtcs;
	u32 num_overlays;
	bool shared_overlays;
	bool cursor;
	int num_connectors;
	bool writeback;
	u32 writeback_mask;
	u32 vrr_mask;
	u32 hdcp_mask;
	u32 hdcp_delay_ms;
	u32 bpc;
	u32 hdr_mask;
	bool crossbar;
	u32 refresh[ATOMKMS_TOPO_MAX_CRTCS];
	u32 num_refresh;
	u32 max_scale_factor;
	bool mutable_zpos;
	u32 max_width, max_height;
	u32 pref_width, pref_height;
	u8 connector_types[ATOMKMS_TOPO_MAX_CRTCS];
	u32 num_connector_types;
	u32 tiles_h, tiles_v;
	const struct atomkms_limits_params *limits;
};

/* A configured plane's zpos values given (the others are placed). */
#define ATOMKMS_CFG_ZPOS_MUTABLE	0x1
#define ATOMKMS_CFG_ZPOS_INITIAL	0x2
#define ATOMKMS_CFG_ZPOS_MIN		0x4
#define ATOMKMS_CFG_ZPOS_MAX		0x8

/**
 * struct atomkms_config_plane_caps - a plane's capabilities, as configured
 * @formats_set: @formats was given; otherwise the type's default (every
 *               format; a cursor ARGB8888 and XRGB8888)
 * @formats: the formats, as &atomkms_topo_plane's
 * @rotations: the rotations (DRM's bits), 0 for all
 * @max_scale_factor: scaling by up to this, 1 to 16 (0: 4, a cursor 1)
 * @zpos_set: which of the zpos values were given (%ATOMKMS_CFG_ZPOS_*);
 *            the others are as atomkms_topology_from_config() places them
 * @zpos_mutable: whether userspace may move the plane
 * @zpos: its initial zpos
 * @zpos_min: the lowest zpos it takes
 * @zpos_max: the highest zpos it takes
 *
 * configfs's plane directories hold one each, and copy it into
 * &atomkms_config when the device is enabled.
 */
struct atomkms_config_plane_caps {
	bool formats_set;
	u64 formats;
	u8 rotations;
	u8 max_scale_factor;
	u8 zpos_set;
	bool zpos_mutable;
	u16 zpos, zpos_min, zpos_max;
};

/**
 * struct atomkms_config - a topology as configfs describes it (vkms's
 * layout: objects in the order they were made, routes as masks of them)
 * @num_planes: entries of @planes
 * @num_crtcs: entries of @crtcs
 * @num_encoders: entries of @encoders
 * @num_connectors: entries of @connectors
 * @planes: @type (enum atomkms_topo_plane_type), @possible_crtcs, and
 *          the plane's capabilities @caps
 * @crtcs: @writeback (it has a writeback connector) and @refresh (Hz of
 *         the preferred mode of the connectors it drives)
 * @encoders: @possible_crtcs
 * @connectors: @possible_encoders, @connected, @type (0: Virtual),
 *              @non_desktop, @no_vrr (no adaptive sync: not vrr_capable),
 *              the preferred mode @pref_width x @pref_height
 *              at @pref_refresh Hz (0: 1920x1080 at the refresh of its
 *              encoder's CRTC; a refresh of 0 alone: that CRTC's), and
 *              the EDID written for it, @edid_len bytes at @edid (0: none),
 *              which the device uses if @edid_enabled; its monitor's
 *              @hdcp and @hdcp_delay_ms (0: the default), @bpc (0:
 *              %ATOMKMS_TOPO_BPC_DEFAULT), @hdr; its tile of a
 *              tiled monitor, as &atomkms_topo_connector's (@tile_group
 *              0: none; @tiles_h or @tiles_v 0: 1)
 * @limits: the device's limits, as &atomkms_params' (NULL: none)
 */
struct atomkms_config {
	u32 num_planes, num_crtcs, num_encoders, num_connectors;
	struct {
		u8 type;
		u32 possible_crtcs;
		struct atomkms_config_plane_caps caps;
	} planes[ATOMKMS_TOPO_MAX_PLANES];
	struct {
		bool writeback;
		u16 refresh;
	} crtcs[ATOMKMS_TOPO_MAX_CRTCS];
	struct {
		u32 possible_crtcs;
	} encoders[ATOMKMS_TOPO_MAX_ENCODERS];
	struct {
		u32 possible_encoders;
		bool connected;
		u8 type;
		bool non_desktop;
		bool no_vrr;
		bool edid_enabled;
		u8 hdcp;
		u16 hdcp_delay_ms;
		u8 bpc;
		bool hdr;
		u16 pref_width, pref_height, pref_refresh;
		u8 tile_group, tiles_h, tiles_v, tile_h_loc, tile_v_loc;
		const u8 *edid;
		u32 edid_len;
	} connectors[ATOMKMS_TOPO_MAX_CONNECTORS];
	const struct atomkms_limits_params *limits;
};

int atomkms_topology_from_params(const struct atomkms_params *p,
				 struct atomkms_topology *t, const char **why);
int atomkms_topology_from_config(const struct atomkms_config *c,
				 struct atomkms_topology *t, const char **why);
int atomkms_topology_validate(const struct atomkms_topology *t,
			      const char **why);
int atomkms_topology_writeback(const struct atomkms_topology *t, u32 crtc);

int atomkms_topo_connector_type(const char *name, u32 len);
const char *atomkms_topo_connector_type_name(u32 type);
int atomkms_topo_parse_mode(const char *s, u32 len, u16 *w, u16 *h, u16 *hz,
			    const char **why);
const char *atomkms_topo_check_preferred(u32 w, u32 h, u32 hz);
bool atomkms_topo_bpc_ok(u32 bpc);
const char *atomkms_topo_check_edid(const u8 *buf, u32 len);

u64 atomkms_topo_formats_all(void);
u64 atomkms_topo_formats_cursor(void);
int atomkms_topo_parse_formats(const char *s, u32 len, u64 *formats,
			       const char **why);
u32 atomkms_topo_print_formats(u64 formats, char *buf, u32 size);
int atomkms_topo_parse_rotations(const char *s, u32 len, u8 *rotations,
				 const char **why);
u32 atomkms_topo_print_rotations(u8 rotations, char *buf, u32 size);

#endif /* ATOMKMS_TOPOLOGY_H */
