// SPDX-License-Identifier: GPL-2.0-only
/*
 * Encoders and connectors: one virtual encoder and one always-connected
 * virtual connector per CRTC (with crossbar, any CRTC drives any of
 * them), and the routing of every encoder, writeback ones included.
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
atomkms_preferred_mode(struct drm_device *drm, const struct atomkms_config *cfg,
		       unsigned int hz)
{
	struct drm_display_mode *mode = NULL;

	if (hz == 60)
		mode = drm_mode_find_dmt(drm, cfg->pref_width, cfg->pref_height,
					 60, false);
	if (!mode)
		mode = drm_cvt_mode(drm, cfg->pref_width, cfg->pref_height, hz,
				    true, false, false);
	if (mode)
		mode->type = DRM_MODE_TYPE_DRIVER | DRM_MODE_TYPE_PREFERRED;
	return mode;
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
		.preferred = {
			.clock_khz = pref->clock,
			.hdisplay = pref->hdisplay,
			.hsync_start = pref->hsync_start,
			.hsync_end = pref->hsync_end,
			.htotal = pref->htotal,
			.vdisplay = pref->vdisplay,
			.vsync_start = pref->vsync_start,
			.vsync_end = pref->vsync_end,
			.vtotal = pref->vtotal,
			.hsync_positive = pref->flags & DRM_MODE_FLAG_PHSYNC,
			.vsync_positive = pref->flags & DRM_MODE_FLAG_PVSYNC,
		},
		.min_vrefresh = 30,
		.max_clock_khz = max(pref->clock, 600000),
		/* A 96 dpi panel. */
		.width_mm = pref->hdisplay * 254 / 960,
		.height_mm = pref->vdisplay * 254 / 960,
		.vrr = true,
	};
	const struct drm_edid *drm_edid;
	char name[ATOMKMS_EDID_NAME_LEN + 1];
	u8 buf[ATOMKMS_EDID_SIZE];
	int len;

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

static int atomkms_connector_get_modes(struct drm_connector *connector)
{
	struct atomkms_output *out =
		container_of(connector, struct atomkms_output, connector);
	struct atomkms_device *akdev = to_atomkms_device(connector->dev);
	const struct atomkms_config *cfg = &akdev->config;
	unsigned int hz = cfg->refresh[out->index];
	struct drm_display_mode *pref;
	int count;

	pref = atomkms_preferred_mode(connector->dev, cfg, hz);
	if (pref)
		atomkms_connector_update_edid(connector, pref, out->index, hz);

	/* The EDID's modes, then the VESA DMT modes that fit (to 4096x2160). */
	count = drm_edid_connector_add_modes(connector);
	count += drm_add_modes_noedid(connector, cfg->max_width,
				      cfg->max_height);
	if (pref) {
		drm_mode_probed_add(connector, pref);
		count++;
	}
	return count;
}

static const struct drm_connector_helper_funcs atomkms_connector_helper_funcs = {
	.get_modes = atomkms_connector_get_modes,
};

/**
 * atomkms_output_create - create the encoder and connector of a CRTC
 * @akdev: the device
 * @akcrtc: the CRTC they are driven by
 * @index: the CRTC's index
 *
 * Return: 0 or a negative errno; freed with the drm_device.
 */
int atomkms_output_create(struct atomkms_device *akdev,
			  struct atomkms_crtc *akcrtc, unsigned int index)
{
	struct drm_device *drm = &akdev->drm;
	struct atomkms_output *out;
	int ret;

	out = drmm_kzalloc(drm, sizeof(*out), GFP_KERNEL);
	if (!out)
		return -ENOMEM;
	out->index = index;
	akdev->outputs[index] = out;

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
	/*
	 * The core gives Virtual connectors no EDID property; ours carry an
	 * EDID like a monitor's, so they need it (else every probe's update
	 * fails with -EINVAL and userspace never sees the EDID).
	 */
	drm_connector_attach_edid_property(&out->connector);

	/* Adaptive sync: userspace may set VRR_ENABLED on the CRTC. */
	ret = drm_connector_attach_vrr_capable_property(&out->connector);
	if (ret)
		return ret;
	drm_connector_set_vrr_capable_property(&out->connector, true);

	return drm_connector_attach_encoder(&out->connector, &out->encoder);
}

/*
 * Crossbar: any CRTC may drive any virtual encoder, and one CRTC several
 * of them (clone mode), except the last pipe's encoder, which cannot be
 * cloned with another display: like an internal panel, it takes a CRTC of
 * its own. So both valid and invalid clone configurations exist for
 * atomic_check to tell apart.
 */
static void atomkms_output_crossbar(struct atomkms_device *akdev)
{
	unsigned int n = akdev->config.num_connectors, i;
	u32 clones = 0;

	for (i = 0; i + 1 < n; i++)
		clones |= drm_encoder_mask(&akdev->outputs[i]->encoder);
	for (i = 0; i < n; i++) {
		struct drm_encoder *encoder = &akdev->outputs[i]->encoder;

		encoder->possible_crtcs = GENMASK(akdev->config.num_crtcs - 1, 0);
		encoder->possible_clones = i + 1 < n ? clones :
					   drm_encoder_mask(encoder);
	}
}

/**
 * atomkms_output_routing - which CRTCs drive which encoders, and clones
 * @akdev: the device, with all its CRTCs, outputs and writeback
 *         connectors created
 *
 * A writeback encoder stays bound to its own CRTC and may be cloned with
 * every display encoder that CRTC may drive: it taps the frame the CRTC
 * scans out, as a display engine's writeback does, so a compositor can
 * capture what it shows (weston's writeback screenshots). The core
 * wants possible_clones symmetric and each encoder in its own.
 */
void atomkms_output_routing(struct atomkms_device *akdev)
{
	const struct atomkms_config *cfg = &akdev->config;
	unsigned int i, j;

	if (cfg->crossbar)
		atomkms_output_crossbar(akdev);
	for (i = 0; i < cfg->num_crtcs; i++) {
		struct drm_encoder *wb;

		if (!akdev->crtcs[i]->has_wb)
			continue;
		wb = &akdev->crtcs[i]->wb.encoder;
		wb->possible_clones |= drm_encoder_mask(wb);
		for (j = 0; j < cfg->num_connectors; j++) {
			struct drm_encoder *enc = &akdev->outputs[j]->encoder;

			if (!(enc->possible_crtcs & BIT(i)))
				continue;
			enc->possible_clones |= drm_encoder_mask(enc) |
						drm_encoder_mask(wb);
			wb->possible_clones |= drm_encoder_mask(enc);
		}
	}
}
