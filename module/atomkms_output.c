// SPDX-License-Identifier: GPL-2.0-only
/*
 * Encoders and connectors: one virtual encoder and one always-connected
 * virtual connector per CRTC.
 */
#include <drm/drm_atomic_state_helper.h>
#include <drm/drm_connector.h>
#include <drm/drm_edid.h>
#include <drm/drm_encoder.h>
#include <drm/drm_managed.h>
#include <drm/drm_modeset_helper_vtables.h>
#include <drm/drm_probe_helper.h>

#include "atomkms_drv.h"

static const struct drm_connector_funcs atomkms_connector_funcs = {
	.fill_modes		= drm_helper_probe_single_connector_modes,
	.reset			= drm_atomic_helper_connector_reset,
	.atomic_duplicate_state	= drm_atomic_helper_connector_duplicate_state,
	.atomic_destroy_state	= drm_atomic_helper_connector_destroy_state,
};

static int atomkms_connector_get_modes(struct drm_connector *connector)
{
	struct atomkms_device *akdev = to_atomkms_device(connector->dev);
	const struct atomkms_config *cfg = &akdev->config;
	int count;

	/* The VESA DMT modes that fit, 640x480 up to 4096x2160 by default. */
	count = drm_add_modes_noedid(connector, cfg->max_width,
				     cfg->max_height);
	drm_set_preferred_mode(connector, cfg->pref_width, cfg->pref_height);
	return count;
}

static const struct drm_connector_helper_funcs atomkms_connector_helper_funcs = {
	.get_modes = atomkms_connector_get_modes,
};

/**
 * atomkms_output_create - create the encoder and connector of a CRTC
 * @akdev: the device
 * @akcrtc: the CRTC they are driven by
 *
 * Return: 0 or a negative errno; freed with the drm_device.
 */
int atomkms_output_create(struct atomkms_device *akdev,
			  struct atomkms_crtc *akcrtc)
{
	struct drm_device *drm = &akdev->drm;
	struct atomkms_output *out;
	int ret;

	out = drmm_kzalloc(drm, sizeof(*out), GFP_KERNEL);
	if (!out)
		return -ENOMEM;

	ret = drmm_encoder_init(drm, &out->encoder, NULL,
				DRM_MODE_ENCODER_VIRTUAL, NULL);
	if (ret)
		return ret;
	out->encoder.possible_crtcs = drm_crtc_mask(&akcrtc->base);

	ret = drmm_connector_init(drm, &out->connector,
				  &atomkms_connector_funcs,
				  DRM_MODE_CONNECTOR_VIRTUAL, NULL);
	if (ret)
		return ret;
	drm_connector_helper_add(&out->connector,
				 &atomkms_connector_helper_funcs);

	return drm_connector_attach_encoder(&out->connector, &out->encoder);
}
