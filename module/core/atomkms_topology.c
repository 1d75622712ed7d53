// SPDX-License-Identifier: GPL-2.0-only
/*
 * The topology as data: the default one the module parameters describe,
 * and the rules every topology must keep. Pure C: built into the module
 * and into test/unit/test_topology.
 */
#include "atomkms_topology.h"
#include "atomkms_formats.h"

static u32 atomkms_topo_crtc_mask(u32 num_crtcs)
{
	return (u32)((1ull << num_crtcs) - 1);
}

static u8 atomkms_topo_add_plane(struct atomkms_topology *t, u8 type, u32 pipe,
				 u32 possible_crtcs, u32 zpos, u32 zpos_min,
				 u32 zpos_max, int min_scale, int max_scale)
{
	struct atomkms_topo_plane *pl = &t->planes[t->num_planes];

	*pl = (struct atomkms_topo_plane){
		.type = type, .pipe = (u8)pipe,
		.possible_crtcs = possible_crtcs,
		.zpos = zpos, .zpos_min = zpos_min, .zpos_max = zpos_max,
		.min_scale = min_scale, .max_scale = max_scale,
		.formats = type == ATOMKMS_TOPO_CURSOR ?
			   atomkms_topo_formats_cursor() :
			   atomkms_topo_formats_all(),
		.rotations = ATOMKMS_TOPO_ROTATIONS,
		/* Overlays move; callers make other planes mutable. */
		.zpos_mutable = type == ATOMKMS_TOPO_OVERLAY,
	};
	return (u8)t->num_planes++;
}

static u8 atomkms_topo_add_encoder(struct atomkms_topology *t, u8 kind,
				   u32 pipe)
{
	struct atomkms_topo_encoder *enc = &t->encoders[t->num_encoders];

	enc->kind = kind;
	enc->pipe = (u8)pipe;
	enc->possible_crtcs = BIT(pipe);
	enc->possible_clones = BIT(t->num_encoders);
	return (u8)t->num_encoders++;
}

/*
 * Crossbar: every CRTC may drive every Virtual encoder, and the encoders
 * but the last may share one (clone mode). The last cannot be cloned with
 * another display, like an internal panel that takes a CRTC of its own:
 * so both valid and invalid clone sets exist for atomic_check to tell
 * apart.
 */
static void atomkms_topo_crossbar(struct atomkms_topology *t)
{
	u32 all = atomkms_topo_crtc_mask(t->num_crtcs), clones = 0, i;

	for (i = 0; i + 1 < t->num_connectors; i++)
		clones |= BIT(t->connectors[i].encoder);
	for (i = 0; i < t->num_connectors; i++) {
		struct atomkms_topo_encoder *enc =
			&t->encoders[t->connectors[i].encoder];

		enc->possible_crtcs = all;
		if (i + 1 < t->num_connectors)
			enc->possible_clones = clones;
	}
}

/*
 * A writeback encoder taps the frame its CRTC scans out, as a display
 * engine's writeback does: it may be cloned with every display encoder
 * that CRTC may drive (weston's writeback screenshots need it).
 */
static void atomkms_topo_writeback_clones(struct atomkms_topology *t)
{
	u32 w, e;

	for (w = 0; w < t->num_encoders; w++) {
		struct atomkms_topo_encoder *wb = &t->encoders[w];

		if (wb->kind != ATOMKMS_TOPO_ENC_WRITEBACK)
			continue;
		for (e = 0; e < t->num_encoders; e++) {
			struct atomkms_topo_encoder *enc = &t->encoders[e];

			if (enc->kind != ATOMKMS_TOPO_ENC_VIRTUAL ||
			    !(enc->possible_crtcs & wb->possible_crtcs))
				continue;
			enc->possible_clones |= BIT(w);
			wb->possible_clones |= BIT(e);
		}
	}
}

/* A monitor's largest and preferred modes: NULL, or what is wrong. */
static const char *atomkms_topo_check_modes(u32 max_w, u32 max_h, u32 pref_w,
					    u32 pref_h)
{
	if (max_w < ATOMKMS_TOPO_MIN_MODE_W || max_w > ATOMKMS_TOPO_MAX_MODE_W ||
	    max_h < ATOMKMS_TOPO_MIN_MODE_H || max_h > ATOMKMS_TOPO_MAX_MODE_H)
		return "connectors: the largest mode must be 640x480 to 8192x8192";
	if (pref_w > max_w || pref_h > max_h)
		return "connectors: the preferred mode is larger than the largest";
	return NULL;
}

/* The connector on CRTC @i: its own rate, or the last one given, or 60. */
static u32 atomkms_params_refresh(const struct atomkms_params *p, u32 i)
{
	u32 hz;

	if (!p->num_refresh)
		return 60;
	hz = p->refresh[i < p->num_refresh ? i : p->num_refresh - 1];
	/* Out of range either way; kept so for the connector rule. */
	return hz > 0xffff ? 0xffff : hz;
}

/**
 * atomkms_topo_bpc_ok - can a monitor have this many bits per channel
 * @bpc: the value
 *
 * Return: @bpc is a monitor depth atomkms drives: 8 to 16, even.
 */
bool atomkms_topo_bpc_ok(u32 bpc)
{
	return bpc >= ATOMKMS_TOPO_BPC_MIN && bpc <= ATOMKMS_TOPO_BPC_MAX &&
	       !(bpc & 1);
}

/* What from_params() refuses before it builds anything. */
static const char *atomkms_params_check(const struct atomkms_params *p)
{
	u32 per_crtc;

	if (p->num_crtcs < 1 || p->num_crtcs > ATOMKMS_TOPO_MAX_CRTCS)
		return "num_crtcs must be 1 to 8";
	if (p->num_connectors > (int)p->num_crtcs)
		return "num_connectors must be 0 to num_crtcs";
	if (p->num_overlays > ATOMKMS_TOPO_MAX_PLANES)
		return "planes: at most 32 in all (DRM's plane masks are 32 bits)";
	per_crtc = 1 + p->num_overlays + (p->cursor ? 1 : 0);
	if (per_crtc * p->num_crtcs > ATOMKMS_TOPO_MAX_PLANES)
		return "planes: at most 32 in all (DRM's plane masks are 32 bits)";
	if (p->max_scale_factor < 1 || p->max_scale_factor > 16)
		return "max_scale_factor must be 1 to 16";
	if (p->hdcp_delay_ms > ATOMKMS_TOPO_HDCP_MAX_DELAY_MS)
		return "hdcp_delay_ms must be at most 10000";
	if (p->bpc && !atomkms_topo_bpc_ok(p->bpc))
		return "bpc must be 8, 10, 12, 14 or 16";
	if (p->num_refresh > ATOMKMS_TOPO_MAX_CRTCS)
		return "refresh: at most 8 rates";
	if (p->tiles_v && !p->tiles_h)
		return "tiles_down needs tiles_across";
	if (p->tiles_h > ATOMKMS_TOPO_MAX_TILES ||
	    p->tiles_v > ATOMKMS_TOPO_MAX_TILES)
		return "tiles_across and tiles_down must be at most 16";
	if (p->tiles_h && p->tiles_h * (p->tiles_v ? p->tiles_v : 1) >
	    (p->num_connectors < 0 ? p->num_crtcs : (u32)p->num_connectors))
		return "tiles_across x tiles_down must be at most num_connectors";
	/* Checked here too: no connector may be there to check them on. */
	return atomkms_topo_check_modes(p->max_width, p->max_height,
					p->pref_width, p->pref_height);
}

/*
 * Connector @i's tile of the parameters' tiled monitor, if it has one: a
 * tile is a fixed-rate monitor, whatever vrr_mask says (genlocked CRTCs
 * keep the mode's period).
 */
static void atomkms_topo_param_tile(const struct atomkms_params *p,
				    struct atomkms_topo_connector *c, u32 i)
{
	u32 across = p->tiles_h, down = p->tiles_v ? p->tiles_v : 1;

	if (!across || i >= across * down)
		return;
	c->tile_group = 1;
	c->tiles_h = (u8)across;
	c->tiles_v = (u8)down;
	c->tile_h_loc = (u8)(i % across);
	c->tile_v_loc = (u8)(i / across);
	c->vrr = false;
}

/**
 * atomkms_topology_from_params - the default topology of the parameters
 * @p: the module parameters
 * @t: filled in
 * @why: on error, which rule the parameters break
 *
 * Each CRTC i gets, in this order: a primary plane (zpos 0), its
 * overlays (zpos 1 up, after the previous CRTCs' when shared; mutable
 * within 1 to the overlays' number, with mutable_zpos 0 to it, as the
 * primary's then is), a cursor on top of every overlay, the CRTC, then a
 * Virtual encoder and connector if i < num_connectors, and a writeback
 * connector if writeback_mask has bit i. The routing follows: each encoder on its own CRTC, or with
 * crossbar any CRTC's; writeback encoders cloned with the displays of
 * their CRTC. The result is not validated: call
 * atomkms_topology_validate().
 *
 * The limits are @p->limits' profile (atomkms_limits_from_params(),
 * which validates it), none without.
 *
 * Return: 0, or -EINVAL if the parameters cannot make a topology at all
 * (or their limits are no profile).
 */
int atomkms_topology_from_params(const struct atomkms_params *p,
				 struct atomkms_topology *t, const char **why)
{
	const char *err = atomkms_params_check(p);
	u32 n = p->num_crtcs, conns, max_overlay, all, i, j, zmin;
	int min_scale, max_scale;

	memset(t, 0, sizeof(*t));
	atomkms_limits_init(&t->limits);
	if (err) {
		*why = err;
		return -ATOMKMS_EINVAL;
	}
	conns = p->num_connectors < 0 ? n : (u32)p->num_connectors;
	max_overlay = p->num_overlays * (p->shared_overlays ? n : 1);
	all = atomkms_topo_crtc_mask(n);
	min_scale = ATOMKMS_TOPO_SCALE_ONE / (int)p->max_scale_factor;
	max_scale = ATOMKMS_TOPO_SCALE_ONE * (int)p->max_scale_factor;
	/* With mutable_zpos, primaries and overlays share 0..max_overlay. */
	zmin = p->mutable_zpos ? 0 : 1;

	t->num_crtcs = n;
	for (i = 0; i < n; i++) {
		struct atomkms_topo_crtc *crtc = &t->crtcs[i];

		crtc->primary = atomkms_topo_add_plane(t, ATOMKMS_TOPO_PRIMARY,
						       i, BIT(i), 0, 0,
						       p->mutable_zpos ?
						       max_overlay : 0,
						       min_scale, max_scale);
		t->planes[crtc->primary].zpos_mutable = p->mutable_zpos;
		for (j = 0; j < p->num_overlays; j++) {
			u32 zpos = 1 + j;

			if (p->shared_overlays)
				zpos += i * p->num_overlays;
			atomkms_topo_add_plane(t, ATOMKMS_TOPO_OVERLAY, i,
					       p->shared_overlays ? all : BIT(i),
					       zpos, zmin, max_overlay,
					       min_scale, max_scale);
		}
		crtc->cursor = ATOMKMS_TOPO_NONE;
		if (p->cursor)
			crtc->cursor = atomkms_topo_add_plane(t,
							      ATOMKMS_TOPO_CURSOR,
							      i, BIT(i),
							      max_overlay + 1,
							      max_overlay + 1,
							      max_overlay + 1,
							      ATOMKMS_TOPO_SCALE_ONE,
							      ATOMKMS_TOPO_SCALE_ONE);
		crtc->lut_size = ATOMKMS_TOPO_LUT_SIZE;

		if (i < conns) {
			struct atomkms_topo_connector *c =
				&t->connectors[t->num_connectors++];

			c->encoder = atomkms_topo_add_encoder(t,
							      ATOMKMS_TOPO_ENC_VIRTUAL,
							      i);
			c->connected = true;
			c->type = i < p->num_connector_types ?
				  p->connector_types[i] :
				  ATOMKMS_TOPO_CONN_VIRTUAL;
			c->vrr = !!(p->vrr_mask & BIT(i));
			c->hdcp = p->hdcp_mask & BIT(i) ? ATOMKMS_TOPO_HDCP_2_2 :
				  ATOMKMS_TOPO_HDCP_NONE;
			c->hdcp_delay_ms = (u16)(p->hdcp_delay_ms ?
						 p->hdcp_delay_ms :
						 ATOMKMS_TOPO_HDCP_DELAY_MS);
			c->bpc = (u8)(p->bpc ? p->bpc : ATOMKMS_TOPO_BPC_DEFAULT);
			c->hdr = !!(p->hdr_mask & BIT(i));
			c->pref_width = (u16)p->pref_width;
			c->pref_height = (u16)p->pref_height;
			c->refresh = (u16)atomkms_params_refresh(p, i);
			c->max_width = (u16)p->max_width;
			c->max_height = (u16)p->max_height;
			atomkms_topo_param_tile(p, c, i);
		}
		if (p->writeback && (p->writeback_mask & BIT(i)))
			atomkms_topo_add_encoder(t, ATOMKMS_TOPO_ENC_WRITEBACK, i);
	}
	if (p->crossbar)
		atomkms_topo_crossbar(t);
	atomkms_topo_writeback_clones(t);
	return p->limits ? atomkms_limits_from_params(p->limits, &t->limits,
						      why) : 0;
}

/* The lowest set bit of nonzero @mask. */
static u32 atomkms_topo_first(u32 mask)
{
	u32 i = 0;

	while (!(mask & BIT(i)))
		i++;
	return i;
}

/* A connector's own attributes: its type, preferred mode and EDID. */
static const char *atomkms_config_check_connector(const struct atomkms_config *c,
						  u32 i)
{
	u32 type = c->connectors[i].type;
	u32 w = c->connectors[i].pref_width, h = c->connectors[i].pref_height;
	u32 hz = c->connectors[i].pref_refresh;

	if (type && !atomkms_topo_connector_type_name(type))
		return "connectors: unknown connector type";
	if ((w || h) && atomkms_topo_check_preferred(w, h, hz ? hz : 60))
		return atomkms_topo_check_preferred(w, h, hz ? hz : 60);
	if (c->connectors[i].edid_len &&
	    atomkms_topo_check_edid(c->connectors[i].edid, c->connectors[i].edid_len))
		return atomkms_topo_check_edid(c->connectors[i].edid,
					  c->connectors[i].edid_len);
	if (c->connectors[i].edid_enabled && !c->connectors[i].edid_len)
		return "connectors: edid_enabled without an EDID written";
	return NULL;
}

/* A configured plane's own capabilities, before they are placed. */
static const char *atomkms_config_check_plane(const struct atomkms_config *c,
					      u32 k)
{
	if (c->planes[k].caps.formats_set &&
	    (!c->planes[k].caps.formats ||
	     (c->planes[k].caps.formats & ~atomkms_topo_formats_all())))
		return "planes: supported_formats must name at least one format";
	if (c->planes[k].caps.max_scale_factor > 16)
		return "max_scale_factor must be 1 to 16";
	return NULL;
}

/* What from_config() refuses before it builds anything. */
static const char *atomkms_config_check(const struct atomkms_config *c)
{
	u32 crtcs, i;

	if (c->num_crtcs < 1 || c->num_crtcs > ATOMKMS_TOPO_MAX_CRTCS)
		return "crtcs: 1 to 8";
	if (c->num_planes > ATOMKMS_TOPO_MAX_PLANES)
		return "planes: at most 32 in all (DRM's plane masks are 32 bits)";
	if (c->num_encoders > ATOMKMS_TOPO_MAX_ENCODERS)
		return "encoders: at most 16";
	if (c->num_connectors > ATOMKMS_TOPO_MAX_CONNECTORS)
		return "connectors: at most 16";
	crtcs = atomkms_topo_crtc_mask(c->num_crtcs);
	for (i = 0; i < c->num_planes; i++) {
		const char *err = atomkms_config_check_plane(c, i);

		if (!c->planes[i].possible_crtcs ||
		    (c->planes[i].possible_crtcs & ~crtcs))
			return "planes: each needs a possible CRTC, and they must exist";
		if (err)
			return err;
	}
	for (i = 0; i < c->num_encoders; i++)
		if (!c->encoders[i].possible_crtcs ||
		    (c->encoders[i].possible_crtcs & ~crtcs))
			return "encoders: each needs a possible CRTC, and they must exist";
	for (i = 0; i < c->num_connectors; i++) {
		u32 e = c->connectors[i].possible_encoders;
		const char *err;

		if (!e || (e & (e - 1)) || e >> c->num_encoders)
			return "connectors: each needs exactly one possible encoder";
		err = atomkms_config_check_connector(c, i);
		if (err)
			return err;
	}
	return NULL;
}

/*
 * The zpos of configured plane @k whose placed values (from its type and
 * position) are @z and @zmin to @zmax, with the values given instead:
 * mutable, its range; immutable, fixed at its initial zpos. Return: is it
 * mutable?
 */
static bool atomkms_config_zpos(const struct atomkms_config *c, u32 k,
				u32 *z, u32 *zmin, u32 *zmax, u32 overlays)
{
	u8 set = c->planes[k].caps.zpos_set;
	bool mutable = c->planes[k].type == ATOMKMS_TOPO_OVERLAY;

	if (set & ATOMKMS_CFG_ZPOS_MUTABLE)
		mutable = c->planes[k].caps.zpos_mutable;
	if (set & ATOMKMS_CFG_ZPOS_INITIAL)
		*z = c->planes[k].caps.zpos;
	if (!mutable) {
		*zmin = *z;
		*zmax = *z;
		return false;
	}
	if (c->planes[k].type != ATOMKMS_TOPO_OVERLAY) {
		/* Made mutable: anywhere in the stack, cursors' place too. */
		*zmin = 0;
		*zmax = overlays + 1;
	}
	if (set & ATOMKMS_CFG_ZPOS_MIN)
		*zmin = c->planes[k].caps.zpos_min;
	if (set & ATOMKMS_CFG_ZPOS_MAX)
		*zmax = c->planes[k].caps.zpos_max;
	return true;
}

/*
 * The planes of configuration @c, pipe by pipe (a plane's pipe is its
 * first possible CRTC), in the order they were made within a pipe; each
 * CRTC's first primary and first cursor plane are its own.
 */
static void atomkms_config_planes(const struct atomkms_config *c,
				  struct atomkms_topology *t)
{
	u32 overlays = 0, i, k;

	for (k = 0; k < c->num_planes; k++)
		overlays += c->planes[k].type == ATOMKMS_TOPO_OVERLAY;
	for (i = 0; i < c->num_crtcs; i++) {
		struct atomkms_topo_crtc *crtc = &t->crtcs[i];
		u32 zpos = 1;

		crtc->primary = ATOMKMS_TOPO_NONE;
		crtc->cursor = ATOMKMS_TOPO_NONE;
		crtc->lut_size = ATOMKMS_TOPO_LUT_SIZE;
		for (k = 0; k < c->num_planes; k++) {
			u32 mask = c->planes[k].possible_crtcs, z = 0;
			u32 zmin = 0, zmax = 0, f = c->planes[k].caps.max_scale_factor;
			u8 type = c->planes[k].type, p;
			struct atomkms_topo_plane *pl;
			bool mutable;

			if (atomkms_topo_first(mask) != i)
				continue;
			if (type == ATOMKMS_TOPO_OVERLAY) {
				z = zpos++;
				zmin = 1;
				zmax = overlays;
			} else if (type == ATOMKMS_TOPO_CURSOR) {
				z = overlays + 1;
				zmin = z;
				zmax = z;
			}
			mutable = atomkms_config_zpos(c, k, &z, &zmin, &zmax,
						      overlays);
			if (!f)
				f = type == ATOMKMS_TOPO_CURSOR ? 1 : 4;
			p = atomkms_topo_add_plane(t, type, i, mask, z, zmin,
						   zmax,
						   ATOMKMS_TOPO_SCALE_ONE / (int)f,
						   ATOMKMS_TOPO_SCALE_ONE * (int)f);
			pl = &t->planes[p];
			pl->zpos_mutable = mutable;
			if (c->planes[k].caps.formats_set)
				pl->formats = c->planes[k].caps.formats;
			if (c->planes[k].caps.rotations)
				pl->rotations = c->planes[k].caps.rotations;
			if (type == ATOMKMS_TOPO_PRIMARY &&
			    crtc->primary == ATOMKMS_TOPO_NONE)
				crtc->primary = p;
			if (type == ATOMKMS_TOPO_CURSOR &&
			    crtc->cursor == ATOMKMS_TOPO_NONE)
				crtc->cursor = p;
		}
	}
}

/**
 * atomkms_topology_from_config - the topology of a configfs device
 * @c: the configuration
 * @t: filled in
 * @why: on error, which rule the configuration breaks
 *
 * Planes and encoders are listed pipe by pipe (an object's pipe is its
 * first possible CRTC), each CRTC's writeback encoder after its display
 * encoders; connectors keep their order, each with the monitor of the
 * module parameters' default (1920x1080 preferred, up to 4096x2160) at
 * the refresh of its encoder's first CRTC. Unless a plane's zpos is given,
 * overlays get zpos 1 up, pipe by pipe, each movable over them all;
 * cursors sit above, and primaries at 0, both immutable (made mutable,
 * their range is the whole stack, 0 to the overlays' number + 1). Planes
 * scale by 1/4 to 4 (cursors not at all) and offer every rotation and
 * every format (cursors ARGB8888 and XRGB8888), unless @c says otherwise.
 * The result is not validated: call
 * atomkms_topology_validate(), which names what a bad configuration
 * breaks (a CRTC without a primary plane, a plane on a CRTC not its own).
 *
 * The limits are @c->limits' profile, as for atomkms_topology_from_params().
 *
 * Return: 0, or -EINVAL if @c cannot make a topology at all (or its
 * limits are no profile).
 */
int atomkms_topology_from_config(const struct atomkms_config *c,
				 struct atomkms_topology *t, const char **why)
{
	const char *err = atomkms_config_check(c);
	u8 enc_of[ATOMKMS_TOPO_MAX_ENCODERS];
	u32 i, e;

	memset(t, 0, sizeof(*t));
	atomkms_limits_init(&t->limits);
	if (err) {
		*why = err;
		return -ATOMKMS_EINVAL;
	}
	t->num_crtcs = c->num_crtcs;
	atomkms_config_planes(c, t);
	for (i = 0; i < c->num_crtcs; i++) {
		for (e = 0; e < c->num_encoders; e++) {
			u32 mask = c->encoders[e].possible_crtcs;

			if (atomkms_topo_first(mask) != i)
				continue;
			enc_of[e] = atomkms_topo_add_encoder(t,
							     ATOMKMS_TOPO_ENC_VIRTUAL,
							     i);
			t->encoders[enc_of[e]].possible_crtcs = mask;
		}
		if (c->crtcs[i].writeback)
			atomkms_topo_add_encoder(t, ATOMKMS_TOPO_ENC_WRITEBACK, i);
	}
	for (i = 0; i < c->num_connectors; i++) {
		struct atomkms_topo_connector *tc = &t->connectors[i];
		u16 w = c->connectors[i].pref_width;
		u16 h = c->connectors[i].pref_height;

		e = atomkms_topo_first(c->connectors[i].possible_encoders);
		*tc = (struct atomkms_topo_connector){
			.encoder = enc_of[e],
			.connected = c->connectors[i].connected,
			.type = c->connectors[i].type ? c->connectors[i].type :
				ATOMKMS_TOPO_CONN_VIRTUAL,
			.non_desktop = c->connectors[i].non_desktop,
			.vrr = !c->connectors[i].no_vrr,
			.hdcp = c->connectors[i].hdcp,
			.hdcp_delay_ms = c->connectors[i].hdcp_delay_ms ?
					 c->connectors[i].hdcp_delay_ms :
					 ATOMKMS_TOPO_HDCP_DELAY_MS,
			.bpc = c->connectors[i].bpc ? c->connectors[i].bpc :
			       ATOMKMS_TOPO_BPC_DEFAULT,
			.hdr = c->connectors[i].hdr,
			.pref_width = w ? w : 1920, .pref_height = h ? h : 1080,
			.max_width = w > 4096 ? w : 4096,
			.max_height = h > 2160 ? h : 2160,
			.refresh = c->connectors[i].pref_refresh ?
				   c->connectors[i].pref_refresh :
				   c->crtcs[t->encoders[enc_of[e]].pipe].refresh,
		};
		if (c->connectors[i].tile_group) {
			tc->tile_group = c->connectors[i].tile_group;
			tc->tiles_h = c->connectors[i].tiles_h ?
				      c->connectors[i].tiles_h : 1;
			tc->tiles_v = c->connectors[i].tiles_v ?
				      c->connectors[i].tiles_v : 1;
			tc->tile_h_loc = c->connectors[i].tile_h_loc;
			tc->tile_v_loc = c->connectors[i].tile_v_loc;
		}
	}
	t->num_connectors = c->num_connectors;
	atomkms_topo_writeback_clones(t);
	return c->limits ? atomkms_limits_from_params(c->limits, &t->limits,
						      why) : 0;
}

/* The rules. Each returns NULL, or what is wrong. */

static const char *atomkms_topo_check_counts(const struct atomkms_topology *t)
{
	if (t->num_crtcs < 1 || t->num_crtcs > ATOMKMS_TOPO_MAX_CRTCS)
		return "crtcs: 1 to 8";
	if (t->num_planes > ATOMKMS_TOPO_MAX_PLANES)
		return "planes: at most 32 in all (DRM's plane masks are 32 bits)";
	if (t->num_encoders > ATOMKMS_TOPO_MAX_ENCODERS)
		return "encoders: at most 16";
	if (t->num_connectors > ATOMKMS_TOPO_MAX_CONNECTORS)
		return "connectors: at most 16";
	return NULL;
}

/* Objects are listed pipe by pipe, as the device creates them. */
static const char *atomkms_topo_check_order(const struct atomkms_topology *t)
{
	u32 i;

	for (i = 0; i < t->num_planes; i++)
		if (t->planes[i].pipe >= t->num_crtcs ||
		    (i && t->planes[i].pipe < t->planes[i - 1].pipe))
			return "planes: listed pipe by pipe, each on an existing CRTC";
	for (i = 0; i < t->num_encoders; i++)
		if (t->encoders[i].pipe >= t->num_crtcs ||
		    (i && t->encoders[i].pipe < t->encoders[i - 1].pipe))
			return "encoders: listed pipe by pipe, each on an existing CRTC";
	return NULL;
}

static const char *atomkms_topo_check_plane(const struct atomkms_topology *t,
					    const struct atomkms_topo_plane *pl)
{
	u32 all = atomkms_topo_crtc_mask(t->num_crtcs);

	if (pl->type > ATOMKMS_TOPO_CURSOR)
		return "planes: primary, overlay or cursor";
	if (!(pl->possible_crtcs & BIT(pl->pipe)) || (pl->possible_crtcs & ~all))
		return "planes: possible CRTCs must exist and include the plane's own";
	if (pl->zpos_max > ATOMKMS_TOPO_MAX_ZPOS)
		return "planes: zpos must be 0 to 255";
	if (pl->zpos_min > pl->zpos_max)
		return "planes: zpos_min above zpos_max";
	if (pl->zpos < pl->zpos_min || pl->zpos > pl->zpos_max)
		return "planes: zpos outside its range";
	if (!pl->zpos_mutable && pl->zpos_min != pl->zpos_max)
		return "planes: an immutable zpos has no range";
	if (!pl->formats || (pl->formats & ~atomkms_topo_formats_all()))
		return "planes: formats must be a non-empty set of the compositor's";
	if (!(pl->rotations & ATOMKMS_TOPO_ROTATE_0) ||
	    (pl->rotations & ~ATOMKMS_TOPO_ROTATIONS))
		return "planes: rotations: rotate-0 and any of rotate-90/180/270, reflect-x/y";
	if (pl->min_scale < ATOMKMS_TOPO_MIN_SCALE ||
	    pl->min_scale > ATOMKMS_TOPO_SCALE_ONE ||
	    pl->max_scale < ATOMKMS_TOPO_SCALE_ONE ||
	    pl->max_scale > ATOMKMS_TOPO_MAX_SCALE)
		return "planes: scaling limits must be 1/16 to 1 and 1 to 16";
	if (pl->type == ATOMKMS_TOPO_CURSOR &&
	    (pl->min_scale != ATOMKMS_TOPO_SCALE_ONE ||
	     pl->max_scale != ATOMKMS_TOPO_SCALE_ONE))
		return "planes: cursors do not scale";
	return NULL;
}

/* Is plane @p CRTC @i's own plane of @type (its primary or cursor)? */
static bool atomkms_topo_own_plane(const struct atomkms_topology *t, u32 p,
				   u32 i, u8 type)
{
	return p < t->num_planes && t->planes[p].type == type &&
	       t->planes[p].pipe == i && t->planes[p].possible_crtcs == BIT(i);
}

static const char *atomkms_topo_check_crtcs(const struct atomkms_topology *t)
{
	u32 i, p, primaries = 0, cursors = 0;

	for (i = 0; i < t->num_crtcs; i++) {
		const struct atomkms_topo_crtc *crtc = &t->crtcs[i];
		u32 reach = 0;

		if (!atomkms_topo_own_plane(t, crtc->primary, i,
					    ATOMKMS_TOPO_PRIMARY))
			return "crtcs: each has a primary plane of its own";
		primaries++;
		if (crtc->cursor != ATOMKMS_TOPO_NONE) {
			if (!atomkms_topo_own_plane(t, crtc->cursor, i,
						    ATOMKMS_TOPO_CURSOR))
				return "crtcs: a cursor plane is the CRTC's own";
			cursors++;
		}
		if (crtc->lut_size != ATOMKMS_TOPO_LUT_SIZE)
			return "crtcs: LUTs have 256 entries";
		for (p = 0; p < t->num_planes; p++)
			reach += !!(t->planes[p].possible_crtcs & BIT(i));
		if (reach > ATOMKMS_TOPO_MAX_CRTC_PLANES)
			return "crtcs: at most 16 planes may feed one CRTC (the compositor's)";
	}
	for (p = 0; p < t->num_planes; p++) {
		primaries -= t->planes[p].type == ATOMKMS_TOPO_PRIMARY;
		cursors -= t->planes[p].type == ATOMKMS_TOPO_CURSOR;
	}
	if (primaries || cursors)
		return "planes: every primary and cursor plane belongs to one CRTC";
	return NULL;
}

static const char *
atomkms_topo_check_encoders(const struct atomkms_topology *t)
{
	u32 all = atomkms_topo_crtc_mask(t->num_crtcs), i, j, wb = 0;

	for (i = 0; i < t->num_encoders; i++) {
		const struct atomkms_topo_encoder *enc = &t->encoders[i];

		if (enc->kind > ATOMKMS_TOPO_ENC_WRITEBACK)
			return "encoders: Virtual or writeback";
		if (!(enc->possible_crtcs & BIT(enc->pipe)) ||
		    (enc->possible_crtcs & ~all))
			return "encoders: possible CRTCs must exist and include the encoder's own";
		if (enc->kind == ATOMKMS_TOPO_ENC_WRITEBACK) {
			if (enc->possible_crtcs != BIT(enc->pipe))
				return "encoders: a writeback connector taps one CRTC";
			if (wb & BIT(enc->pipe))
				return "encoders: one writeback connector per CRTC";
			wb |= BIT(enc->pipe);
		}
		if (!(enc->possible_clones & BIT(i)))
			return "encoders: each is in its own possible clones";
		if (enc->possible_clones >> t->num_encoders)
			return "encoders: possible clones must exist";
		for (j = 0; j < t->num_encoders; j++)
			if (!!(enc->possible_clones & BIT(j)) !=
			    !!(t->encoders[j].possible_clones & BIT(i)))
				return "encoders: possible clones are mutual";
	}
	return NULL;
}

static const char *
atomkms_topo_check_connector(const struct atomkms_topology *t, u32 i)
{
	const struct atomkms_topo_connector *c = &t->connectors[i];
	u32 j;

	if (c->encoder >= t->num_encoders ||
	    t->encoders[c->encoder].kind != ATOMKMS_TOPO_ENC_VIRTUAL)
		return "connectors: each has a Virtual encoder";
	for (j = 0; j < i; j++)
		if (t->connectors[j].encoder == c->encoder)
			return "connectors: each has an encoder of its own";
	if (c->refresh < 1 || c->refresh > ATOMKMS_TOPO_MAX_REFRESH)
		return "connectors: refresh must be 1 to 1000 Hz";
	if (!atomkms_topo_connector_type_name(c->type))
		return "connectors: unknown connector type";
	if (!atomkms_topo_bpc_ok(c->bpc))
		return "connectors: bpc must be 8, 10, 12, 14 or 16";
	return atomkms_topo_check_modes(c->max_width, c->max_height,
					c->pref_width, c->pref_height);
}

/*
 * A tiled monitor: its tiles fill its grid, one connector each, and
 * agree on the grid, the tile size and the refresh (their CRTCs are
 * genlocked: one period); none varies its refresh.
 */
static const char *atomkms_topo_check_tiles(const struct atomkms_topology *t,
					    u32 i)
{
	const struct atomkms_topo_connector *c = &t->connectors[i], *o;
	u32 j, n = 0;

	if (!c->tile_group)
		return NULL;
	if (c->tiles_h < 1 || c->tiles_h > ATOMKMS_TOPO_MAX_TILES ||
	    c->tiles_v < 1 || c->tiles_v > ATOMKMS_TOPO_MAX_TILES)
		return "connectors: a tiled monitor has 1 to 16 tiles across and down";
	if (c->tiles_h * c->tiles_v < 2)
		return "connectors: a tiled monitor has at least two tiles";
	if (c->tile_h_loc >= c->tiles_h || c->tile_v_loc >= c->tiles_v)
		return "connectors: a tile's location lies within its monitor's tiles";
	if (c->vrr)
		return "connectors: tiles are fixed-rate (vrr 0): their CRTCs are genlocked";
	for (j = 0; j < t->num_connectors; j++) {
		o = &t->connectors[j];
		if (o->tile_group != c->tile_group)
			continue;
		n++;
		if (o->tiles_h != c->tiles_h || o->tiles_v != c->tiles_v)
			return "connectors: a monitor's tiles agree on tiles across and down";
		if (o->pref_width != c->pref_width ||
		    o->pref_height != c->pref_height ||
		    o->refresh != c->refresh)
			return "connectors: a monitor's tiles have one tile size and refresh";
		if (j != i && o->tile_h_loc == c->tile_h_loc &&
		    o->tile_v_loc == c->tile_v_loc)
			return "connectors: each tile location has one connector";
	}
	if (n != (u32)c->tiles_h * c->tiles_v)
		return "connectors: a tiled monitor has a connector for every tile";
	return NULL;
}

/* Does plane @p on CRTC @crtc fit a hardware plane of the limits' pool? */
static bool atomkms_topo_hw_plane_for(const struct atomkms_topology *t, u32 p,
				      u32 crtc)
{
	const struct atomkms_topo_plane *pl = &t->planes[p];
	u32 j;

	for (j = 0; j < t->limits.num_hw_planes; j++) {
		const struct atomkms_limits_hw_plane *hw =
			&t->limits.hw_planes[j];

		if ((hw->possible_crtcs & BIT(crtc)) &&
		    (hw->drm_planes & BIT(p)) && (hw->types & BIT(pl->type)) &&
		    (hw->formats & pl->formats))
			return true;
	}
	return false;
}

/*
 * The limits against the topology (the profile's own consistency is
 * atomkms_limits_validate()'s): with a pool of hardware planes, every
 * CRTC's primary plane, and its cursor, must have one it may use, or the
 * CRTC could never light up (or show its cursor).
 */
static const char *atomkms_topo_check_limits(const struct atomkms_topology *t)
{
	u32 i;

	if (t->limits.num_hw_planes == ATOMKMS_LIMIT_NONE)
		return NULL;
	if (t->limits.num_hw_planes > ATOMKMS_LIMITS_MAX_HW_PLANES)
		return "limits: at most 32 hardware planes";
	for (i = 0; i < t->num_crtcs; i++) {
		if (!atomkms_topo_hw_plane_for(t, t->crtcs[i].primary, i))
			return "limits: each CRTC's primary plane fits a hardware plane";
		if (t->crtcs[i].cursor != ATOMKMS_TOPO_NONE &&
		    !atomkms_topo_hw_plane_for(t, t->crtcs[i].cursor, i))
			return "limits: each cursor plane fits a hardware plane";
	}
	return NULL;
}

static const char *atomkms_topo_check_outputs(const struct atomkms_topology *t)
{
	u32 i, displays = 0;
	const char *err;

	for (i = 0; i < t->num_connectors; i++) {
		err = atomkms_topo_check_connector(t, i);
		if (!err)
			err = atomkms_topo_check_tiles(t, i);
		if (err)
			return err;
	}
	for (i = 0; i < t->num_encoders; i++)
		displays += t->encoders[i].kind == ATOMKMS_TOPO_ENC_VIRTUAL;
	if (displays != t->num_connectors)
		return "encoders: each Virtual encoder has a connector";
	if (!t->num_encoders)
		return "connectors: none at all (with no display, a writeback connector is needed)";
	return NULL;
}

/**
 * atomkms_topology_validate - check a topology before a device is built
 * @t: the topology
 * @why: on error, the rule it breaks, named in a sentence
 *
 * Its limits are checked against the topology; whoever fills them checks
 * the profile itself with atomkms_limits_validate().
 *
 * Return: 0, or -EINVAL.
 */
int atomkms_topology_validate(const struct atomkms_topology *t,
			      const char **why)
{
	const char *err;
	u32 i;

	err = atomkms_topo_check_counts(t);
	if (!err)
		err = atomkms_topo_check_order(t);
	for (i = 0; !err && i < t->num_planes; i++)
		err = atomkms_topo_check_plane(t, &t->planes[i]);
	if (!err)
		err = atomkms_topo_check_crtcs(t);
	if (!err)
		err = atomkms_topo_check_encoders(t);
	if (!err)
		err = atomkms_topo_check_outputs(t);
	if (!err)
		err = atomkms_topo_check_limits(t);
	if (err) {
		*why = err;
		return -ATOMKMS_EINVAL;
	}
	return 0;
}

/**
 * atomkms_topology_writeback - the writeback encoder of a CRTC
 * @t: a valid topology
 * @crtc: the CRTC's index
 *
 * Return: the encoder's index, or -1 if the CRTC has none.
 */
int atomkms_topology_writeback(const struct atomkms_topology *t, u32 crtc)
{
	u32 i;

	for (i = 0; i < t->num_encoders; i++)
		if (t->encoders[i].kind == ATOMKMS_TOPO_ENC_WRITEBACK &&
		    t->encoders[i].pipe == crtc)
			return (int)i;
	return -1;
}

/* DRM's connector type names (drm_get_connector_type_name()), by type. */
static const char *const atomkms_topo_conn_names[ATOMKMS_TOPO_CONN_MAX + 1] = {
	[1] = "VGA", [2] = "DVI-I", [3] = "DVI-D", [4] = "DVI-A",
	[5] = "Composite", [6] = "SVIDEO", [7] = "LVDS", [8] = "Component",
	[9] = "DIN", [10] = "DP", [11] = "HDMI-A", [12] = "HDMI-B",
	[13] = "TV", [14] = "eDP", [15] = "Virtual", [16] = "DSI",
	[17] = "DPI", [19] = "SPI", [20] = "USB",
};

/**
 * atomkms_topo_connector_type_name - the name of a connector type
 * @type: a DRM connector type
 *
 * Return: its name as DRM prints it, or NULL for a type a monitor cannot
 * have (Unknown, Writeback, out of range).
 */
const char *atomkms_topo_connector_type_name(u32 type)
{
	return type <= ATOMKMS_TOPO_CONN_MAX ? atomkms_topo_conn_names[type] :
	       NULL;
}

/**
 * atomkms_topo_connector_type - a connector type by its name
 * @name: the name, as drm_get_connector_type_name() prints it (one
 *        trailing newline allowed, as echo writes it)
 * @len: its length
 *
 * Return: the DRM connector type, or -EINVAL.
 */
int atomkms_topo_connector_type(const char *name, u32 len)
{
	u32 i;

	if (len && name[len - 1] == '\n')
		len--;
	for (i = 1; i <= ATOMKMS_TOPO_CONN_MAX; i++) {
		const char *n = atomkms_topo_conn_names[i];

		if (n && strlen(n) == len && !memcmp(n, name, len))
			return (int)i;
	}
	return -ATOMKMS_EINVAL;
}

/* Reads a decimal number of at most 5 digits at *@s; 0 if none. */
static u32 atomkms_topo_number(const char **s, const char *end, bool *ok)
{
	u32 v = 0, digits = 0;

	while (*s < end && **s >= '0' && **s <= '9') {
		v = v * 10 + (u32)(**s - '0');
		(*s)++;
		if (++digits > 5)
			*ok = false;
	}
	if (!digits)
		*ok = false;
	return v;
}

/**
 * atomkms_topo_parse_mode - parse "WIDTHxHEIGHT" or "WIDTHxHEIGHT@REFRESH"
 * @s: the text (one trailing newline allowed)
 * @len: its length
 * @w: the width
 * @h: the height
 * @hz: the refresh rate, 0 if not given
 * @why: on error, what is wrong
 *
 * The mode must be one the generated EDID can describe:
 * atomkms_topo_check_preferred() (at 60 Hz if no rate is given).
 *
 * Return: 0 or -EINVAL.
 */
int atomkms_topo_parse_mode(const char *s, u32 len, u16 *w, u16 *h, u16 *hz,
			    const char **why)
{
	const char *end = s + len, *err;
	u32 vw, vh, vhz = 0;
	bool ok = true;

	if (len && end[-1] == '\n')
		end--;
	vw = atomkms_topo_number(&s, end, &ok);
	if (s < end && *s == 'x')
		s++;
	else
		ok = false;
	vh = atomkms_topo_number(&s, end, &ok);
	if (s < end && *s == '@') {
		s++;
		vhz = atomkms_topo_number(&s, end, &ok);
		if (!vhz)
			ok = false;
	}
	if (!ok || s != end) {
		*why = "preferred_mode: not WIDTHxHEIGHT or WIDTHxHEIGHT@REFRESH";
		return -ATOMKMS_EINVAL;
	}
	err = atomkms_topo_check_preferred(vw, vh, vhz ? vhz : 60);
	if (err) {
		*why = err;
		return -ATOMKMS_EINVAL;
	}
	*w = (u16)vw;
	*h = (u16)vh;
	*hz = (u16)vhz;
	return 0;
}

/* The pixel clock limit of an EDID Detailed Timing Descriptor, kHz. */
#define ATOMKMS_TOPO_DTD_MAX_KHZ	655350ULL

/* The CVT reduced-blanking pixel clock of @w x @h at @hz, about, in kHz. */
static u64 atomkms_topo_cvt_rb_khz(u32 w, u32 h, u32 hz)
{
	/* Lines of the frame: the active ones over 1 - 460 us * hz. */
	u64 lines = div_u64((u64)h * 1000000, 1000000 - 460 * hz);

	return div_u64((u64)(w + 160) * lines * hz, 1000);
}

/**
 * atomkms_topo_check_preferred - can the generated EDID describe a mode?
 * @w: width, 640 to 4095 (a DTD's active field is 12 bits)
 * @h: height, 480 to 4095
 * @hz: refresh, 1 to 1000
 *
 * The preferred mode is CVT with reduced blanking (160 pixels of
 * horizontal blanking, at least 460 us of vertical), the generated EDID's
 * first Detailed Timing Descriptor, whose pixel clock must fit the DTD's
 * 655.35 MHz. A faster mode (2880x1800 at 120 Hz: 695 MHz) is described
 * there at 60 Hz instead, which must fit; the mode list still prefers it
 * at @hz, up to the CRTCs' 3 GHz pixel clock.
 *
 * Return: NULL, or why not.
 */
const char *atomkms_topo_check_preferred(u32 w, u32 h, u32 hz)
{
	if (w < ATOMKMS_TOPO_MIN_MODE_W || w > 4095 ||
	    h < ATOMKMS_TOPO_MIN_MODE_H || h > 4095)
		return "preferred_mode: 640x480 to 4095x4095 (an EDID DTD's limit)";
	if (hz < 1 || hz > ATOMKMS_TOPO_MAX_REFRESH)
		return "preferred_mode: refresh must be 1 to 1000 Hz";
	if (atomkms_topo_cvt_rb_khz(w, h, hz) > ATOMKMS_TOPO_DTD_MAX_KHZ &&
	    atomkms_topo_cvt_rb_khz(w, h, 60) > ATOMKMS_TOPO_DTD_MAX_KHZ)
		return "preferred_mode: even at 60 Hz, a clock above a DTD's 655.35 MHz";
	if (atomkms_topo_cvt_rb_khz(w, h, hz) > ATOMKMS_TOPO_MAX_CLOCK_KHZ)
		return "preferred_mode: its pixel clock is above the CRTCs' 3 GHz";
	return NULL;
}

/* An EDID block, and the base block's fixed header. */
#define ATOMKMS_TOPO_EDID_BLOCK	128U

/**
 * atomkms_topo_check_edid - is an EDID written by userspace whole and sound?
 * @buf: its bytes
 * @len: their number
 *
 * Checks what DRM's own parser would otherwise repair or drop in silence:
 * the length (a multiple of 128 bytes, 128 to %ATOMKMS_TOPO_MAX_EDID),
 * the base block's fixed header, every block's checksum, and that the
 * base block's extension count (byte 126) accounts for exactly the blocks
 * written, so that a truncated EDID or one with trailing bytes is refused.
 * (An EDID whose HDMI Forum EEODB declares more blocks than byte 126 is
 * refused too.)
 *
 * Return: NULL, or what is wrong.
 */
const char *atomkms_topo_check_edid(const u8 *buf, u32 len)
{
	static const u8 header[8] = { 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0 };
	u32 b, i;

	if (!len || len % ATOMKMS_TOPO_EDID_BLOCK || len > ATOMKMS_TOPO_MAX_EDID)
		return "edid: its length must be a multiple of 128 bytes, 128 to 4096";
	if (memcmp(buf, header, sizeof(header)))
		return "edid: the base block's header is not 00 ff ff ff ff ff ff 00";
	for (b = 0; b < len / ATOMKMS_TOPO_EDID_BLOCK; b++) {
		u8 sum = 0;

		for (i = 0; i < ATOMKMS_TOPO_EDID_BLOCK; i++)
			sum += buf[b * ATOMKMS_TOPO_EDID_BLOCK + i];
		if (sum)
			return "edid: a block's checksum is wrong";
	}
	if (buf[126] + 1U != len / ATOMKMS_TOPO_EDID_BLOCK)
		return "edid: the extension count (byte 126) does not match the blocks written";
	return NULL;
}

/**
 * atomkms_topo_formats_all - every format of the compositor's table
 *
 * Return: the set, bit i for atomkms_formats[i].
 */
u64 atomkms_topo_formats_all(void)
{
	return atomkms_num_formats >= 64 ? ~0ULL :
	       (1ULL << atomkms_num_formats) - 1;
}

/* The bit of @fourcc in a set of formats, or 0 if the compositor has none. */
static u64 atomkms_topo_format_bit(u32 fourcc)
{
	u32 i;

	for (i = 0; i < atomkms_num_formats && i < 64; i++)
		if (atomkms_formats[i].fourcc == fourcc)
			return 1ULL << i;
	return 0;
}

/**
 * atomkms_topo_formats_cursor - a cursor plane's formats by default
 *
 * Return: ARGB8888 and XRGB8888, as every display engine's cursor has.
 */
u64 atomkms_topo_formats_cursor(void)
{
	return atomkms_topo_format_bit(ATOMKMS_FMT_ARGB8888) |
	       atomkms_topo_format_bit(ATOMKMS_FMT_XRGB8888);
}

/* Is @c a separator of a list written to an attribute? */
static bool atomkms_topo_sep(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == ',';
}

/* The next token of [*s, end): its start, and its length in *len. */
static const char *atomkms_topo_token(const char **s, const char *end,
				      u32 *len)
{
	const char *t;

	while (*s < end && atomkms_topo_sep(**s))
		(*s)++;
	t = *s;
	while (*s < end && !atomkms_topo_sep(**s))
		(*s)++;
	*len = (u32)(*s - t);
	return t;
}

/**
 * atomkms_topo_parse_formats - apply a write to a plane's supported_formats
 * @s: the text: tokens +FOURCC (add), -FOURCC (remove), +* (add every
 *     format of the compositor), -* (remove all), separated by spaces,
 *     commas or newlines, applied in order (vkms's syntax, several at once)
 * @len: its length
 * @formats: the set to change (bit i for atomkms_formats[i]); changed only
 *           if every token is good
 * @why: on error, what is wrong
 *
 * A FOURCC is DRM's four characters, as drm_info and modetest print them
 * (XR24, AR24, NV12, P010, YUYV, ...). The set may become empty here;
 * enabling the device refuses a plane without formats.
 *
 * Return: 0 or -EINVAL.
 */
int atomkms_topo_parse_formats(const char *s, u32 len, u64 *formats,
			       const char **why)
{
	const char *end = s + len, *t;
	u64 set = *formats, bit;
	u32 n, tokens = 0;

	for (t = atomkms_topo_token(&s, end, &n); n;
	     t = atomkms_topo_token(&s, end, &n), tokens++) {
		if ((t[0] != '+' && t[0] != '-') || (n != 2 && n != 5) ||
		    (n == 2 && t[1] != '*')) {
			*why = "supported_formats: +FOURCC, -FOURCC, +* or -* (e.g. +XR24)";
			return -ATOMKMS_EINVAL;
		}
		if (n == 2) {
			bit = atomkms_topo_formats_all();
		} else {
			bit = atomkms_topo_format_bit(ATOMKMS_FOURCC(t[1], t[2],
								     t[3], t[4]));
			if (!bit) {
				*why = "supported_formats: not a format the compositor reads";
				return -ATOMKMS_EINVAL;
			}
		}
		if (t[0] == '+')
			set |= bit;
		else
			set &= ~bit;
	}
	if (!tokens) {
		*why = "supported_formats: +FOURCC, -FOURCC, +* or -* (e.g. +XR24)";
		return -ATOMKMS_EINVAL;
	}
	*formats = set;
	return 0;
}

/**
 * atomkms_topo_print_formats - a set of formats, one fourcc a line
 * @formats: the set
 * @buf: where to write (NUL-terminated)
 * @size: its size, at least 5 bytes a format and 1
 *
 * In the compositor's table order, as supported_formats shows them.
 *
 * Return: the length written.
 */
u32 atomkms_topo_print_formats(u64 formats, char *buf, u32 size)
{
	u32 i, n = 0;

	for (i = 0; i < atomkms_num_formats && i < 64; i++) {
		u32 f = atomkms_formats[i].fourcc;

		if (!(formats & (1ULL << i)) || n + 6 > size)
			continue;
		buf[n++] = (char)(f & 0xff);
		buf[n++] = (char)((f >> 8) & 0xff);
		buf[n++] = (char)((f >> 16) & 0xff);
		buf[n++] = (char)(f >> 24);
		buf[n++] = '\n';
	}
	if (size)
		buf[n < size ? n : size - 1] = 0;
	return n;
}

/* The rotation property's value names (drm_blend.c), by bit. */
static const char *const atomkms_topo_rotation_names[6] = {
	"rotate-0", "rotate-90", "rotate-180", "rotate-270",
	"reflect-x", "reflect-y",
};

/**
 * atomkms_topo_parse_rotations - parse a plane's supported_rotations
 * @s: the text: the rotation property's value names (rotate-0, rotate-90,
 *     rotate-180, rotate-270, reflect-x, reflect-y) separated by spaces,
 *     commas or newlines; or their DRM bitmask as a number (0x3f: all)
 * @len: its length
 * @rotations: the set (%ATOMKMS_TOPO_ROTATE_0, ...), set only if good
 * @why: on error, what is wrong
 *
 * The set must hold rotate-0, DRM's default rotation.
 *
 * Return: 0 or -EINVAL.
 */
int atomkms_topo_parse_rotations(const char *s, u32 len, u8 *rotations,
				 const char **why)
{
	const char *end = s + len, *t;
	u32 set = 0, n, i, v;
	bool ok = true;

	t = atomkms_topo_token(&s, end, &n);
	if (n && t[0] >= '0' && t[0] <= '9') {
		/* A number: decimal, or hexadecimal after 0x. */
		u32 base = n > 2 && t[0] == '0' && (t[1] | 0x20) == 'x' ? 16 : 10;

		for (i = base == 16 ? 2 : 0, v = 0; i < n && ok; i++) {
			char c = (char)(t[i] | 0x20);
			u32 d = c >= '0' && c <= '9' ? (u32)(c - '0') :
				base == 16 && c >= 'a' && c <= 'f' ?
				(u32)(c - 'a' + 10) : 99;

			ok = d < base && v < 0x1000;
			v = v * base + d;
		}
		set = ok ? v : ~0u;
		atomkms_topo_token(&s, end, &n);
		ok = ok && !n;
	} else {
		for (; n && ok; t = atomkms_topo_token(&s, end, &n)) {
			for (i = 0; i < 6; i++)
				if (strlen(atomkms_topo_rotation_names[i]) == n &&
				    !memcmp(atomkms_topo_rotation_names[i], t, n))
					break;
			ok = i < 6;
			set |= BIT(i);
		}
	}
	if (!ok || !set || (set & ~ATOMKMS_TOPO_ROTATIONS)) {
		*why = "supported_rotations: rotate-0/90/180/270, reflect-x/y or a bitmask";
		return -ATOMKMS_EINVAL;
	}
	if (!(set & ATOMKMS_TOPO_ROTATE_0)) {
		*why = "supported_rotations: must include rotate-0 (DRM's default rotation)";
		return -ATOMKMS_EINVAL;
	}
	*rotations = (u8)set;
	return 0;
}

/**
 * atomkms_topo_print_rotations - a set of rotations by name
 * @rotations: the set
 * @buf: where to write (NUL-terminated)
 * @size: its size (64 bytes hold them all)
 *
 * Return: the length written: the names separated by spaces, a newline.
 */
u32 atomkms_topo_print_rotations(u8 rotations, char *buf, u32 size)
{
	u32 i, n = 0;

	for (i = 0; i < 6; i++) {
		u32 l = (u32)strlen(atomkms_topo_rotation_names[i]);

		if (!(rotations & BIT(i)) || n + l + 2 > size)
			continue;
		if (n)
			buf[n - 1] = ' ';
		memcpy(buf + n, atomkms_topo_rotation_names[i], l);
		n += l;
		buf[n++] = '\n';
	}
	if (size)
		buf[n < size ? n : size - 1] = 0;
	return n;
}
