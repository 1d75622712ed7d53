// SPDX-License-Identifier: GPL-2.0-only
/*
 * Encoders and connectors: the topology's display connectors (Virtual,
 * HDMI-A, eDP, ... as it says), each with its encoder and a monitor
 * (preferred mode, generated or written EDID, link status), and the
 * routing of every encoder, writeback ones included, as the topology
 * lists it.
 */
#include <drm/drm_atomic_state_helper.h>
#include <drm/drm_connector.h>
#include <drm/drm_edid.h>
#include <drm/drm_encoder.h>
#include <drm/drm_managed.h>
#include <drm/drm_print.h>
#include <drm/drm_modeset_helper_vtables.h>
#include <drm/drm_probe_helper.h>

#include "atomkms_drv.h"
#include "atomkms_edid.h"

/* The pixel clock an EDID detailed timing holds at most, in kHz. */
#define ATOMKMS_OUTPUT_DTD_MAX_KHZ	655350

static void atomkms_connector_debugfs_init(struct drm_connector *connector,
					   struct dentry *root)
{
	struct atomkms_output *out =
		container_of(connector, struct atomkms_output, connector);

	atomkms_hdcp_debugfs_init(&out->hdcp, root);
	if (out->hdr)
		atomkms_hdr_debugfs_init(connector, root);
}

/* The deepest output: "max bpc" runs from 8 to this. */
#define ATOMKMS_OUTPUT_MAX_BPC	10
/*
 * "max bpc" at reset, as amdgpu's: 8, so that deep colour is asked for.
 * An 8-bit client that checks a colour pipeline's result against 8-bit
 * colours (igt's kms_color@ctm-*: a CTM of 0.5 is 0x8000, which 8-bit
 * framebuffers can only approach) would otherwise see the CRC of its
 * 10 bits. The core's attach leaves the maximum in the state.
 */
#define ATOMKMS_OUTPUT_DEFAULT_BPC	8

static void atomkms_connector_reset(struct drm_connector *connector)
{
	drm_atomic_helper_connector_reset(connector);
	if (connector->state) {
		connector->state->max_requested_bpc = ATOMKMS_OUTPUT_DEFAULT_BPC;
		/* Full aspect at reset, as i915's eDP (atomkms_scaling.c). */
		connector->state->scaling_mode = DRM_MODE_SCALE_ASPECT;
	}
}

/* Probe, then note the native mode the panel fitter fits to. */
static int atomkms_connector_fill_modes(struct drm_connector *connector,
					u32 max_width, u32 max_height)
{
	int count;

	count = drm_helper_probe_single_connector_modes(connector, max_width,
							max_height);
	atomkms_scaling_note_native(container_of(connector,
						 struct atomkms_output,
						 connector));
	return count;
}

static const struct drm_connector_funcs atomkms_connector_funcs = {
	.fill_modes		= atomkms_connector_fill_modes,
	.reset			= atomkms_connector_reset,
	.atomic_duplicate_state	= drm_atomic_helper_connector_duplicate_state,
	.atomic_destroy_state	= drm_atomic_helper_connector_destroy_state,
	.debugfs_init		= atomkms_connector_debugfs_init,
};

/* The preferred mode: DMT at 60 Hz, CVT reduced blanking otherwise. */
static struct drm_display_mode *
atomkms_preferred_mode(struct drm_device *drm,
		       const struct atomkms_topo_connector *c)
{
	struct drm_display_mode *mode = NULL;

	if (c->refresh == 60)
		mode = drm_mode_find_dmt(drm, c->pref_width, c->pref_height,
					 60, false);
	if (!mode)
		mode = drm_cvt_mode(drm, c->pref_width, c->pref_height,
				    c->refresh, true, false, false);
	if (mode)
		mode->type = DRM_MODE_TYPE_DRIVER | DRM_MODE_TYPE_PREFERRED;
	return mode;
}

/*
 * A monitor whose preferred mode the CRTCs cannot scan out (a refresh
 * rate or size whose CVT timing needs a pixel clock above the limit, or a
 * frame longer than a second) would be left with no preferred mode once
 * probing drops it: the device is refused instead, saying why.
 */
static int atomkms_output_check_preferred(struct drm_device *drm,
					  unsigned int index)
{
	const struct atomkms_topo_connector *c =
		&to_atomkms_device(drm)->topo.connectors[index];
	enum atomkms_timing_status status;
	struct drm_display_mode *mode;
	struct atomkms_timing t;

	mode = atomkms_preferred_mode(drm, c);
	if (!mode)
		return -ENOMEM;
	atomkms_timing_from_mode(&t, mode, false);
	status = atomkms_timing_check(&t);
	if (status != ATOMKMS_TIMING_OK)
		drm_err(drm, "connector %u: its preferred mode " DRM_MODE_FMT
			" cannot be scanned out: %s\n", index,
			DRM_MODE_ARG(mode), atomkms_timing_status_str(status));
	drm_mode_destroy(drm, mode);
	return status == ATOMKMS_TIMING_OK ? 0 : -EINVAL;
}

/*
 * The encoder a connector type has on real hardware: a DAC for VGA,
 * TMDS for DVI, HDMI and DisplayPort (as i915 and amdgpu name theirs),
 * the panels' own for LVDS, DSI and DPI, a TV DAC for analogue TV.
 */
static int atomkms_encoder_type(u32 connector_type)
{
	switch (connector_type) {
	case DRM_MODE_CONNECTOR_VGA:
		return DRM_MODE_ENCODER_DAC;
	case DRM_MODE_CONNECTOR_DVII:
	case DRM_MODE_CONNECTOR_DVID:
	case DRM_MODE_CONNECTOR_DVIA:
	case DRM_MODE_CONNECTOR_HDMIA:
	case DRM_MODE_CONNECTOR_HDMIB:
	case DRM_MODE_CONNECTOR_DisplayPort:
	case DRM_MODE_CONNECTOR_eDP:
		return DRM_MODE_ENCODER_TMDS;
	case DRM_MODE_CONNECTOR_LVDS:
		return DRM_MODE_ENCODER_LVDS;
	case DRM_MODE_CONNECTOR_DSI:
		return DRM_MODE_ENCODER_DSI;
	case DRM_MODE_CONNECTOR_DPI:
		return DRM_MODE_ENCODER_DPI;
	case DRM_MODE_CONNECTOR_Composite:
	case DRM_MODE_CONNECTOR_SVIDEO:
	case DRM_MODE_CONNECTOR_Component:
	case DRM_MODE_CONNECTOR_9PinDIN:
	case DRM_MODE_CONNECTOR_TV:
		return DRM_MODE_ENCODER_TVDAC;
	default:
		return DRM_MODE_ENCODER_VIRTUAL;
	}
}

/*
 * What the topology says of the monitor beyond its EDID: a headset
 * (non_desktop) stays one whatever the EDID says.
 */
static void atomkms_connector_update_props(struct drm_connector *connector,
					   const struct atomkms_topo_connector *c,
					   bool written)
{
	struct drm_display_info *info = &connector->display_info;
	bool vrr;

	if (c->non_desktop) {
		info->non_desktop = true;
		drm_object_property_set_value(&connector->base,
					      connector->dev->mode_config.non_desktop_property,
					      1);
	}
	/*
	 * Adaptive sync where the topology gives it (vrr_mask), and with a
	 * written EDID only if it says a range.
	 */
	vrr = c->vrr && (!written ||
			 info->monitor_range.max_vfreq > info->monitor_range.min_vfreq);
	WRITE_ONCE(container_of(connector, struct atomkms_output, connector)->vrr,
		   vrr);
	drm_connector_set_vrr_capable_property(connector, vrr);
}

/* Build the EDID @desc describes and make it the connector's. */
static int atomkms_connector_set_edid(struct drm_connector *connector,
				      const struct atomkms_edid_desc *desc)
{
	const struct drm_edid *drm_edid;
	u8 buf[ATOMKMS_EDID_MAX_SIZE];
	int len;

	len = atomkms_edid_build(desc, buf, sizeof(buf));
	if (len < 0)
		return len;
	drm_edid = drm_edid_alloc(buf, len);
	drm_edid_connector_update(connector, drm_edid);
	drm_edid_free(drm_edid);
	return 0;
}

/*
 * Describe the monitor in an EDID built from its preferred mode, so that
 * userspace reading the EDID blob sees what the mode list says.
 *
 * A preferred mode whose pixel clock is above what an EDID detailed
 * timing holds (655.35 MHz: 2880x1800 at 120 Hz is 695 MHz) is described
 * at 60 Hz instead, with range limits up to its rate, as laptop panels
 * whose fast mode is in a DisplayID block describe theirs in the base
 * block. Return: true if so (the EDID's 60 Hz mode is then not the
 * preferred one).
 */
static bool atomkms_connector_update_edid(struct drm_connector *connector,
					  const struct drm_display_mode *pref,
					  unsigned int index,
					  const struct atomkms_topo_connector *c)
{
	/*
	 * A tile of a tiled monitor: a DisplayID tiled-display block, which
	 * drm_edid_connector_update() turns into the connector's tile group
	 * and TILE property. The tile is the preferred mode's size.
	 */
	struct atomkms_edid_tile tile = {
		.group = c->tile_group,
		.tiles_h = c->tiles_h,
		.tiles_v = c->tiles_v,
		.h_loc = c->tile_h_loc,
		.v_loc = c->tile_v_loc,
	};
	unsigned int hz = c->refresh;
	struct atomkms_edid_desc desc = {
		.product = index,
		.serial = index + 1,
		.min_vrefresh = 30,
		.max_clock_khz = max(pref->clock, 600000),
		/* A 96 dpi panel. */
		.width_mm = pref->hdisplay * 254 / 960,
		.height_mm = pref->vdisplay * 254 / 960,
		/*
		 * Range limits with the continuous-frequency feature, on
		 * every monitor: the range of refresh rates it accepts (for
		 * VRR, debugfs vrr_range), as many a fixed-rate monitor's
		 * EDID declares; whether it varies the rate frame to frame
		 * is vrr_capable's to say.
		 */
		.vrr = true,
		.tile = c->tile_group ? &tile : NULL,
		/* The monitor's depth (bpc), into &drm_display_info.bpc. */
		.bpc = c->bpc,
		/* HDR: the blocks that fill &drm_connector.hdr_sink_metadata. */
		.hdr = c->hdr,
	};
	char name[ATOMKMS_EDID_NAME_LEN + 1];
	struct drm_display_mode *slow;
	bool fallback = false;
	int ret;

	atomkms_timing_from_mode(&desc.preferred, pref, false);
	desc.max_vrefresh = atomkms_edid_max_vrefresh(&desc.preferred, hz);
	snprintf(name, sizeof(name), "atomkms-%u", index);
	desc.name = name;
	ret = atomkms_connector_set_edid(connector, &desc);
	if (ret && pref->clock > ATOMKMS_OUTPUT_DTD_MAX_KHZ) {
		slow = drm_cvt_mode(connector->dev, pref->hdisplay,
				    pref->vdisplay, 60, true, false, false);
		if (slow) {
			atomkms_timing_from_mode(&desc.preferred, slow, false);
			drm_mode_destroy(connector->dev, slow);
			ret = atomkms_connector_set_edid(connector, &desc);
			fallback = !ret;
		}
	}
	if (ret) {
		drm_dbg_kms(connector->dev,
			    "[CONNECTOR:%d:%s] no EDID for " DRM_MODE_FMT ": %d\n",
			    connector->base.id, connector->name,
			    DRM_MODE_ARG(pref), ret);
		drm_edid_connector_update(connector, NULL);
	}
	return fallback;
}

/**
 * atomkms_output_vrr_capable - does a connector's monitor vary its refresh
 * @connector: a connector of the device, of any kind
 *
 * Return: what its vrr_capable property says (set at each probe from the
 * topology and the EDID in use); false for a writeback connector.
 */
bool atomkms_output_vrr_capable(struct drm_connector *connector)
{
	if (connector->funcs != &atomkms_connector_funcs)
		return false;
	return READ_ONCE(container_of(connector, struct atomkms_output,
				      connector)->vrr);
}

/**
 * atomkms_output_hdcp - a connector's content protection
 * @connector: a connector of the device, of any kind
 *
 * Return: its HDCP state machine if its sink is HDCP-capable, else NULL
 * (a writeback connector, or a sink without HDCP).
 */
struct atomkms_hdcp *atomkms_output_hdcp(struct drm_connector *connector)
{
	struct atomkms_output *out;

	if (connector->funcs != &atomkms_connector_funcs)
		return NULL;
	out = container_of(connector, struct atomkms_output, connector);
	return out->hdcp.version != ATOMKMS_TOPO_HDCP_NONE ? &out->hdcp : NULL;
}

/**
 * atomkms_output_set_hdcp_delay - how long connector @index's sink takes
 *                                 to authenticate, from now on
 * @akdev: the device
 * @index: the connector's index in the topology
 * @delay_ms: milliseconds, 1 to %ATOMKMS_TOPO_HDCP_MAX_DELAY_MS
 */
void atomkms_output_set_hdcp_delay(struct atomkms_device *akdev,
				   unsigned int index, unsigned int delay_ms)
{
	atomkms_hdcp_set_delay(&akdev->outputs[index]->hdcp, delay_ms);
}

static int atomkms_connector_atomic_check(struct drm_connector *connector,
					  struct drm_atomic_commit *state)
{
	struct atomkms_output *out =
		container_of(connector, struct atomkms_output, connector);
	int ret;

	ret = atomkms_scaling_connector_check(connector, state);
	if (ret)
		return ret;
	if (out->hdr) {
		ret = atomkms_hdr_atomic_check(connector, state);
		if (ret)
			return ret;
	}
	return atomkms_hdcp_atomic_check(&out->hdcp, state);
}

static int atomkms_connector_get_modes(struct drm_connector *connector)
{
	struct atomkms_output *out =
		container_of(connector, struct atomkms_output, connector);
	struct atomkms_device *akdev = to_atomkms_device(connector->dev);
	const struct atomkms_topo_connector *c =
		&akdev->topo.connectors[out->index];
	struct drm_display_mode *pref, *mode;
	bool slow = false;
	int count;

	/* debugfs edid_override first, as drm_edid_read() would. */
	count = drm_edid_override_connector_update(connector);
	if (count) {
		atomkms_connector_update_props(connector, c, true);
		return count;
	}

	/* The EDID written through configfs: its modes alone. */
	if (out->edid) {
		drm_edid_connector_update(connector, out->edid);
		atomkms_connector_update_props(connector, c, true);
		return drm_edid_connector_add_modes(connector);
	}

	pref = atomkms_preferred_mode(connector->dev, c);
	if (pref)
		slow = atomkms_connector_update_edid(connector, pref,
						     out->index, c);

	/* The EDID's modes, then the VESA DMT modes that fit (to 4096x2160). */
	count = drm_edid_connector_add_modes(connector);
	/* One preferred mode: the topology's, not the EDID's 60 Hz twin. */
	if (slow)
		list_for_each_entry(mode, &connector->probed_modes, head)
			mode->type &= ~DRM_MODE_TYPE_PREFERRED;
	count += drm_add_modes_noedid(connector, c->max_width, c->max_height);
	if (pref) {
		drm_mode_probed_add(connector, pref);
		count++;
	}
	atomkms_connector_update_props(connector, c, false);
	return count;
}

/* Whether a monitor is plugged in is the topology's to say. */
static int atomkms_connector_detect(struct drm_connector *connector,
				    struct drm_modeset_acquire_ctx *ctx,
				    bool force)
{
	struct atomkms_output *out =
		container_of(connector, struct atomkms_output, connector);
	struct atomkms_device *akdev = to_atomkms_device(connector->dev);

	return akdev->topo.connectors[out->index].connected ?
	       connector_status_connected : connector_status_disconnected;
}

/*
 * Probe connector @index again, so that its status and modes are current
 * for clients that read them without probing, then send a hotplug event
 * naming it (a uevent with CONNECTOR=, and the DRM clients' hotplug).
 */
static void atomkms_output_reprobe(struct atomkms_device *akdev,
				   unsigned int index)
{
	struct drm_device *drm = &akdev->drm;
	struct drm_connector *connector = &akdev->outputs[index]->connector;

	mutex_lock(&drm->mode_config.mutex);
	connector->funcs->fill_modes(connector, drm->mode_config.max_width,
				     drm->mode_config.max_height);
	mutex_unlock(&drm->mode_config.mutex);
	drm_kms_helper_connector_hotplug_event(connector);
}

/**
 * atomkms_output_set_connected - plug or unplug a monitor
 * @akdev: the device
 * @index: the connector's index in the topology
 * @connected: plugged in
 *
 * Probes the connector again and sends a hotplug event naming it
 * (atomkms_output_reprobe()).
 */
void atomkms_output_set_connected(struct atomkms_device *akdev,
				  unsigned int index, bool connected)
{
	struct drm_device *drm = &akdev->drm;

	mutex_lock(&drm->mode_config.mutex);
	akdev->topo.connectors[index].connected = connected;
	mutex_unlock(&drm->mode_config.mutex);
	atomkms_hdcp_set_connected(&akdev->outputs[index]->hdcp, connected);
	atomkms_output_reprobe(akdev, index);
}

/**
 * atomkms_output_check_edid - does DRM's EDID parser take an EDID?
 * @edid: its bytes, already checked by atomkms_topo_check_edid()
 * @len: their number
 *
 * Return: 0, -EINVAL if drm_edid_valid() refuses it, or -ENOMEM.
 */
int atomkms_output_check_edid(const u8 *edid, size_t len)
{
	const struct drm_edid *drm_edid = drm_edid_alloc(edid, len);
	bool valid;

	if (!drm_edid)
		return -ENOMEM;
	valid = drm_edid_valid(drm_edid);
	drm_edid_free(drm_edid);
	return valid ? 0 : -EINVAL;
}

/**
 * atomkms_output_set_edid - use a written EDID, or the generated one again
 * @akdev: the device
 * @index: the connector's index in the topology
 * @edid: the EDID's bytes (copied), already checked by
 *        atomkms_topo_check_edid(); NULL for the generated EDID
 * @len: their number
 *
 * DRM's parser must accept it too (drm_edid_valid()). The connector is
 * then probed again and a hotplug event sent, as when a monitor is
 * swapped.
 *
 * Return: 0, -EINVAL for an EDID DRM refuses, or -ENOMEM.
 */
int atomkms_output_set_edid(struct atomkms_device *akdev, unsigned int index,
			    const u8 *edid, size_t len)
{
	struct atomkms_output *out = akdev->outputs[index];
	struct drm_device *drm = &akdev->drm;
	const struct drm_edid *drm_edid = NULL, *old;

	if (edid) {
		drm_edid = drm_edid_alloc(edid, len);
		if (!drm_edid)
			return -ENOMEM;
		if (!drm_edid_valid(drm_edid)) {
			drm_dbg_kms(drm, "[CONNECTOR:%d:%s] DRM refuses the EDID written\n",
				    out->connector.base.id, out->connector.name);
			drm_edid_free(drm_edid);
			return -EINVAL;
		}
	}
	mutex_lock(&drm->mode_config.mutex);
	old = out->edid;
	out->edid = drm_edid;
	mutex_unlock(&drm->mode_config.mutex);
	drm_edid_free(old);
	atomkms_output_reprobe(akdev, index);
	return 0;
}

/**
 * atomkms_output_set_link_status - a link that failed, or is good again
 * @akdev: the device
 * @index: the connector's index in the topology
 * @bad: set the link-status property to BAD (else GOOD)
 *
 * As a DisplayPort link that failed training: userspace hears a hotplug
 * event, finds link-status BAD and sets the mode again.
 */
void atomkms_output_set_link_status(struct atomkms_device *akdev,
				    unsigned int index, bool bad)
{
	struct drm_connector *connector = &akdev->outputs[index]->connector;

	drm_connector_set_link_status_property(connector, bad ?
					       DRM_MODE_LINK_STATUS_BAD :
					       DRM_MODE_LINK_STATUS_GOOD);
	atomkms_hdcp_set_link_ok(&akdev->outputs[index]->hdcp, !bad);
	drm_kms_helper_connector_hotplug_event(connector);
}

/**
 * atomkms_output_link_bad - is the link-status property BAD?
 * @akdev: the device
 * @index: the connector's index in the topology
 *
 * Return: true if BAD (userspace resets it with a commit that sets GOOD).
 */
bool atomkms_output_link_bad(struct atomkms_device *akdev, unsigned int index)
{
	struct drm_connector *connector = &akdev->outputs[index]->connector;
	struct drm_device *drm = &akdev->drm;
	bool bad;

	drm_modeset_lock(&drm->mode_config.connection_mutex, NULL);
	bad = connector->state->link_status == DRM_MODE_LINK_STATUS_BAD;
	drm_modeset_unlock(&drm->mode_config.connection_mutex);
	return bad;
}

static void atomkms_output_release(struct drm_device *drm, void *data)
{
	struct atomkms_output *out = data;

	drm_edid_free(out->edid);
}

static const struct drm_connector_helper_funcs atomkms_connector_helper_funcs = {
	.get_modes = atomkms_connector_get_modes,
	.detect_ctx = atomkms_connector_detect,
	.atomic_check = atomkms_connector_atomic_check,
};

/**
 * atomkms_output_create - create a display connector and its encoder
 * @akdev: the device
 * @index: the connector's index in the topology
 *
 * The encoder's routing is set once every encoder exists, by
 * atomkms_output_routing().
 *
 * Return: 0 or a negative errno; freed with the drm_device.
 */
int atomkms_output_create(struct atomkms_device *akdev, unsigned int index)
{
	const struct atomkms_topo_connector *c = &akdev->topo.connectors[index];
	struct drm_device *drm = &akdev->drm;
	struct atomkms_output *out;
	int ret;

	/* The topology's connector types are DRM's. */
	BUILD_BUG_ON(ATOMKMS_TOPO_CONN_VGA != DRM_MODE_CONNECTOR_VGA);
	BUILD_BUG_ON(ATOMKMS_TOPO_CONN_HDMIA != DRM_MODE_CONNECTOR_HDMIA);
	BUILD_BUG_ON(ATOMKMS_TOPO_CONN_VIRTUAL != DRM_MODE_CONNECTOR_VIRTUAL);
	BUILD_BUG_ON(ATOMKMS_TOPO_CONN_DSI != DRM_MODE_CONNECTOR_DSI);
	BUILD_BUG_ON(ATOMKMS_TOPO_MAX_CLOCK_KHZ != ATOMKMS_MAX_CLOCK_KHZ);
	BUILD_BUG_ON(DRM_MODE_CONNECTOR_DisplayPort != ATOMKMS_TOPO_CONN_DP);
	BUILD_BUG_ON(ATOMKMS_TOPO_CONN_WRITEBACK != DRM_MODE_CONNECTOR_WRITEBACK);
	BUILD_BUG_ON(ATOMKMS_TOPO_CONN_MAX != DRM_MODE_CONNECTOR_USB);

	ret = atomkms_output_check_preferred(drm, index);
	if (ret)
		return ret;

	out = drmm_kzalloc(drm, sizeof(*out), GFP_KERNEL);
	if (!out)
		return -ENOMEM;
	out->index = index;
	akdev->outputs[index] = out;
	ret = drmm_add_action_or_reset(drm, atomkms_output_release, out);
	if (ret)
		return ret;

	ret = drmm_encoder_init(drm, &out->encoder, NULL,
				atomkms_encoder_type(c->type), NULL);
	if (ret)
		return ret;

	ret = drmm_connector_init(drm, &out->connector,
				  &atomkms_connector_funcs, c->type, NULL);
	if (ret)
		return ret;
	drm_connector_helper_add(&out->connector,
				 &atomkms_connector_helper_funcs);
	spin_lock_init(&out->native_lock);
	/*
	 * The core gives Virtual connectors no EDID property (every other
	 * type has one); ours carry an EDID like a monitor's, so they need
	 * it (else every probe's update fails with -EINVAL and userspace
	 * never sees the EDID).
	 */
	if (c->type == DRM_MODE_CONNECTOR_VIRTUAL)
		drm_connector_attach_edid_property(&out->connector);

	/*
	 * HDR metadata (HDR_OUTPUT_METADATA): on HDMI and DisplayPort
	 * connectors, the caps being the EDID's
	 * (&drm_connector.hdr_sink_metadata); and with Colorspace on any
	 * connector whose monitor does HDR (hdr_mask, configfs hdr).
	 */
	out->hdr = c->hdr;
	ret = atomkms_hdr_init(&out->connector, c->hdr);
	if (ret)
		return ret;

	/*
	 * Adaptive sync, if the topology says so (vrr_mask): the CRTC then
	 * varies its refresh with VRR_ENABLED (atomkms_crtc.c). Every
	 * connector has the property, so that userspace can tell a monitor
	 * without VRR (0) from a driver without it.
	 */
	/*
	 * Content protection, if the monitor does HDCP (hdcp_mask, configfs
	 * hdcp): the properties and the simulated authentication.
	 */
	ret = atomkms_hdcp_init(&out->hdcp, &out->connector, c->hdcp,
				c->hdcp_delay_ms, c->connected);
	if (ret)
		return ret;

	/*
	 * "max bpc": the deepest output userspace allows, 8 until it asks
	 * for more. The CRTC sends
	 * min(it, the monitor's EDID depth), at 8 or 10 bits per channel,
	 * the depths the compositor's CRC covers (atomkms_crtc_check_bpc()).
	 * The core's attach writes the value into the connector's state,
	 * which drm_mode_config_reset() makes only later: make one now.
	 */
	atomkms_connector_reset(&out->connector);
	if (!out->connector.state)
		return -ENOMEM;
	ret = drm_connector_attach_max_bpc_property(&out->connector, 8,
						    ATOMKMS_OUTPUT_MAX_BPC);
	if (ret)
		return ret;
	out->connector.state->max_requested_bpc = ATOMKMS_OUTPUT_DEFAULT_BPC;

	/* "scaling mode", Full aspect at reset: the panel fitter. */
	ret = atomkms_scaling_attach(&out->connector);
	if (ret)
		return ret;

	ret = drm_connector_attach_vrr_capable_property(&out->connector);
	if (ret)
		return ret;
	out->vrr = akdev->topo.connectors[index].vrr;
	drm_connector_set_vrr_capable_property(&out->connector, out->vrr);

	return drm_connector_attach_encoder(&out->connector, &out->encoder);
}

/**
 * atomkms_output_routing - which CRTCs drive which encoders, and clones
 * @akdev: the device, with all its encoders created
 *
 * The topology lists encoders in creation order, so an encoder's DRM
 * index is its index there, and its masks apply as they are.
 *
 * Return: 0, or -EINVAL if the encoders are not the topology's.
 */
int atomkms_output_routing(struct atomkms_device *akdev)
{
	const struct atomkms_topology *t = &akdev->topo;
	struct drm_encoder *encoder;
	unsigned int n = 0;

	drm_for_each_encoder(encoder, &akdev->drm) {
		const struct atomkms_topo_encoder *te;

		if (encoder->index >= t->num_encoders) {
			drm_err(&akdev->drm, "encoder %u is not in the topology\n",
				encoder->index);
			return -EINVAL;
		}
		te = &t->encoders[encoder->index];
		encoder->possible_crtcs = te->possible_crtcs;
		encoder->possible_clones = te->possible_clones;
		n++;
	}
	if (n != t->num_encoders) {
		drm_err(&akdev->drm, "%u encoders, the topology has %u\n", n,
			t->num_encoders);
		return -EINVAL;
	}
	return 0;
}
