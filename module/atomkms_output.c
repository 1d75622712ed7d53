// SPDX-License-Identifier: GPL-2.0-only
/*
 * Encoders and connectors: the topology's Virtual connectors, each with
 * its encoder and a monitor (preferred mode, EDID), and the routing of
 * every encoder, writeback ones included, as the topology lists it.
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

static const struct drm_connector_funcs atomkms_connector_funcs = {
	.fill_modes		= drm_helper_probe_single_connector_modes,
	.reset			= drm_atomic_helper_connector_reset,
	.atomic_duplicate_state	= drm_atomic_helper_connector_duplicate_state,
	.atomic_destroy_state	= drm_atomic_helper_connector_destroy_state,
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
 * Describe the monitor in an EDID built from its preferred mode, so that
 * userspace reading the EDID blob sees what the mode list says.
 */
static void atomkms_connector_update_edid(struct drm_connector *connector,
					  const struct drm_display_mode *pref,
					  unsigned int index, unsigned int hz)
{
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
	};
	const struct drm_edid *drm_edid;
	char name[ATOMKMS_EDID_NAME_LEN + 1];
	u8 buf[ATOMKMS_EDID_SIZE];
	int len;

	atomkms_timing_from_mode(&desc.preferred, pref, false);
	desc.max_vrefresh = atomkms_edid_max_vrefresh(&desc.preferred, hz);
	snprintf(name, sizeof(name), "atomkms-%u", index);
	desc.name = name;
	len = atomkms_edid_build(&desc, buf, sizeof(buf));
	if (len < 0) {
		drm_dbg_kms(connector->dev,
			    "[CONNECTOR:%d:%s] no EDID for " DRM_MODE_FMT ": %d\n",
			    connector->base.id, connector->name,
			    DRM_MODE_ARG(pref), len);
		drm_edid_connector_update(connector, NULL);
		return;
	}
	drm_edid = drm_edid_alloc(buf, len);
	drm_edid_connector_update(connector, drm_edid);
	drm_edid_free(drm_edid);
}

/**
 * atomkms_output_vrr_capable - does a connector's monitor vary its refresh
 * @connector: a connector of the device, of any kind
 *
 * Return: true for a Virtual connector whose topology entry has VRR, as
 * its vrr_capable property says.
 */
bool atomkms_output_vrr_capable(struct drm_connector *connector)
{
	struct atomkms_output *out;

	if (connector->funcs != &atomkms_connector_funcs)
		return false;
	out = container_of(connector, struct atomkms_output, connector);
	return to_atomkms_device(connector->dev)->topo.connectors[out->index].vrr;
}

static int atomkms_connector_get_modes(struct drm_connector *connector)
{
	struct atomkms_output *out =
		container_of(connector, struct atomkms_output, connector);
	struct atomkms_device *akdev = to_atomkms_device(connector->dev);
	const struct atomkms_topo_connector *c =
		&akdev->topo.connectors[out->index];
	struct drm_display_mode *pref;
	int count;

	pref = atomkms_preferred_mode(connector->dev, c);
	if (pref)
		atomkms_connector_update_edid(connector, pref, out->index,
					      c->refresh);

	/* The EDID's modes, then the VESA DMT modes that fit (to 4096x2160). */
	count = drm_edid_connector_add_modes(connector);
	count += drm_add_modes_noedid(connector, c->max_width, c->max_height);
	if (pref) {
		drm_mode_probed_add(connector, pref);
		count++;
	}
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

/**
 * atomkms_output_set_connected - plug or unplug a monitor
 * @akdev: the device
 * @index: the connector's index in the topology
 * @connected: plugged in
 *
 * Probes the connector again, so that its status and modes are current
 * for clients that read them without probing, then sends a hotplug event
 * naming it (a uevent with CONNECTOR=, and the DRM clients' hotplug).
 */
void atomkms_output_set_connected(struct atomkms_device *akdev,
				  unsigned int index, bool connected)
{
	struct drm_device *drm = &akdev->drm;
	struct drm_connector *connector = &akdev->outputs[index]->connector;

	mutex_lock(&drm->mode_config.mutex);
	akdev->topo.connectors[index].connected = connected;
	connector->funcs->fill_modes(connector, drm->mode_config.max_width,
				     drm->mode_config.max_height);
	mutex_unlock(&drm->mode_config.mutex);
	drm_kms_helper_connector_hotplug_event(connector);
}

static const struct drm_connector_helper_funcs atomkms_connector_helper_funcs = {
	.get_modes = atomkms_connector_get_modes,
	.detect_ctx = atomkms_connector_detect,
};

/**
 * atomkms_output_create - create a Virtual connector and its encoder
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
	struct drm_device *drm = &akdev->drm;
	struct atomkms_output *out;
	int ret;

	ret = atomkms_output_check_preferred(drm, index);
	if (ret)
		return ret;

	out = drmm_kzalloc(drm, sizeof(*out), GFP_KERNEL);
	if (!out)
		return -ENOMEM;
	out->index = index;
	akdev->outputs[index] = out;

	ret = drmm_encoder_init(drm, &out->encoder, NULL,
				DRM_MODE_ENCODER_VIRTUAL, NULL);
	if (ret)
		return ret;

	ret = drmm_connector_init(drm, &out->connector,
				  &atomkms_connector_funcs,
				  DRM_MODE_CONNECTOR_VIRTUAL, NULL);
	if (ret)
		return ret;
	drm_connector_helper_add(&out->connector,
				 &atomkms_connector_helper_funcs);
	/*
	 * The core gives Virtual connectors no EDID property; ours carry an
	 * EDID like a monitor's, so they need it (else every probe's update
	 * fails with -EINVAL and userspace never sees the EDID).
	 */
	drm_connector_attach_edid_property(&out->connector);

	/*
	 * Adaptive sync, if the topology says so (vrr_mask): the CRTC then
	 * varies its refresh with VRR_ENABLED (atomkms_crtc.c). Every
	 * connector has the property, so that userspace can tell a monitor
	 * without VRR (0) from a driver without it.
	 */
	ret = drm_connector_attach_vrr_capable_property(&out->connector);
	if (ret)
		return ret;
	drm_connector_set_vrr_capable_property(&out->connector,
					       akdev->topo.connectors[index].vrr);

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
