// SPDX-License-Identifier: GPL-2.0-only
/*
 * HDR output: a display connector whose simulated monitor does HDR
 * (hdr_mask, configfs connectors/N/hdr) takes HDR metadata and an output
 * colorimetry from userspace, as an HDMI or DisplayPort source would
 * send them in an HDR infoframe (DRM infoframe, or DP's SDP) and an AVI
 * infoframe (VSC SDP).
 *
 * The properties follow the configured capability, not the EDID in use:
 * they must exist before the connector registers, and an EDID written
 * through configfs comes later. The monitor's generated EDID says what it
 * takes (atomkms_edid.c: an HDR static metadata block with SDR, ST 2084
 * and HLG; BT.2020 colorimetry), which drm_edid_connector_update() turns
 * into &drm_connector.hdr_sink_metadata. That, from the EDID in use
 * (generated, written or debugfs edid_override), is what atomic_check
 * checks new metadata against.
 *
 * A change of metadata or colorimetry is not a modeset. i915 forces one
 * (intel_digital_connector_atomic_check() sets mode_changed when
 * drm_connector_atomic_hdr_metadata_equal() says they differ, or the
 * colorspace changed), to reprogram its infoframes; amdgpu only when HDR
 * turns on or off, its DCN updates the infopacket with the next flip.
 * atomkms has no link to retrain nor infoframe to program: the metadata
 * simply hold from the next frame, as on amdgpu, and a compositor may
 * switch them without a blank or a page-flip-less modeset.
 */
#include <linux/debugfs.h>
#include <linux/hdmi.h>
#include <linux/seq_file.h>

#include <drm/drm_atomic.h>
#include <drm/drm_connector.h>
#include <drm/drm_modeset_lock.h>
#include <drm/drm_print.h>
#include <drm/drm_property.h>
#include <drm/display/drm_hdmi_helper.h>

#include "atomkms_drv.h"

/*
 * The colorimetries a monitor's generated EDID declares besides the
 * default (its Colorimetry data block): BT.2020, RGB and YCC. Both are in
 * HDMI's and DP's lists of the Colorspace property.
 */
#define ATOMKMS_HDR_COLORSPACES	(BIT(DRM_MODE_COLORIMETRY_BT2020_RGB) | \
				 BIT(DRM_MODE_COLORIMETRY_BT2020_YCC))

static const char *const atomkms_hdr_eotf_names[] = {
	[HDMI_EOTF_TRADITIONAL_GAMMA_SDR] = "SDR",
	[HDMI_EOTF_TRADITIONAL_GAMMA_HDR] = "HDR",
	[HDMI_EOTF_SMPTE_ST2084] = "ST2084",
	[HDMI_EOTF_BT_2100_HLG] = "HLG",
};

static bool atomkms_hdr_hdmi(const struct drm_connector *connector)
{
	return connector->connector_type == DRM_MODE_CONNECTOR_HDMIA ||
	       connector->connector_type == DRM_MODE_CONNECTOR_HDMIB;
}

/**
 * atomkms_hdr_init - a connector's HDR properties
 * @connector: the connector, not yet registered
 * @hdr: its monitor does HDR
 *
 * An HDR monitor's connector, of any type, gets HDR_OUTPUT_METADATA and
 * Colorspace: HDMI's list of values on HDMI connectors, DisplayPort's on
 * the others (Virtual, DP, eDP, ...), each restricted to the default and
 * %ATOMKMS_HDR_COLORSPACES. HDMI and DisplayPort connectors have had
 * HDR_OUTPUT_METADATA whatever their monitor (a compositor sends the
 * metadata only where &drm_connector.hdr_sink_metadata says the sink
 * takes them), and keep it.
 *
 * Return: 0 or a negative errno.
 */
int atomkms_hdr_init(struct drm_connector *connector, bool hdr)
{
	u32 type = connector->connector_type;
	int ret;

	if (hdr || atomkms_hdr_hdmi(connector) ||
	    type == DRM_MODE_CONNECTOR_DisplayPort ||
	    type == ATOMKMS_TOPO_CONN_EDP)
		drm_connector_attach_hdr_output_metadata_property(connector);
	if (!hdr)
		return 0;

	if (atomkms_hdr_hdmi(connector))
		ret = drm_mode_create_hdmi_colorspace_property(connector,
							       ATOMKMS_HDR_COLORSPACES);
	else
		ret = drm_mode_create_dp_colorspace_property(connector,
							     ATOMKMS_HDR_COLORSPACES);
	if (ret)
		return ret;
	return drm_connector_attach_colorspace_property(connector);
}

/* Under the connection_mutex, which probing holds: the EOTFs the sink takes. */
static u8 atomkms_hdr_sink_eotfs(const struct drm_connector *connector)
{
	return atomkms_hdr_sink_metadata(connector)->hdmi_type1.eotf;
}

/**
 * atomkms_hdr_atomic_check - check new HDR metadata
 * @connector: a connector whose monitor does HDR
 * @state: the state being checked, with the connector in it
 *
 * New metadata (a blob other than the current one, by contents) must be a
 * whole &struct hdr_output_metadata (the core already refuses other sizes
 * when the property is set), of static metadata type 1 (the only one
 * CTA-861.3 defines), with an EOTF the sink's EDID declares; then they
 * must make an HDR infoframe, built by the core's
 * drm_hdmi_infoframe_set_hdr_metadata() and checked by
 * hdmi_drm_infoframe_check(). Metadata already committed are not checked
 * again: an EDID written since, without the EOTF, does not make every
 * later commit fail; the next change is checked against it. Removing the
 * metadata (blob 0) is always accepted.
 *
 * Return: 0, or -EINVAL (with a debug line saying why).
 */
int atomkms_hdr_atomic_check(struct drm_connector *connector,
			     struct drm_atomic_commit *state)
{
	struct drm_connector_state *old =
		drm_atomic_get_old_connector_state(state, connector);
	struct drm_connector_state *new =
		drm_atomic_get_new_connector_state(state, connector);
	const struct hdr_output_metadata *md;
	struct hdmi_drm_infoframe frame;
	u8 sink = atomkms_hdr_sink_eotfs(connector);
	u8 eotf;
	int ret;

	if (!new->hdr_output_metadata ||
	    drm_connector_atomic_hdr_metadata_equal(old, new))
		return 0;

	if (new->hdr_output_metadata->length != sizeof(*md)) {
		drm_dbg_atomic(connector->dev,
			       "[CONNECTOR:%d:%s] HDR metadata of %zu bytes, not %zu\n",
			       connector->base.id, connector->name,
			       new->hdr_output_metadata->length, sizeof(*md));
		return -EINVAL;
	}
	md = new->hdr_output_metadata->data;
	if (md->metadata_type != HDMI_STATIC_METADATA_TYPE1 ||
	    md->hdmi_metadata_type1.metadata_type != HDMI_STATIC_METADATA_TYPE1) {
		drm_dbg_atomic(connector->dev,
			       "[CONNECTOR:%d:%s] HDR metadata type %u (infoframe %u), not static type 1 (%u)\n",
			       connector->base.id, connector->name,
			       md->metadata_type,
			       md->hdmi_metadata_type1.metadata_type,
			       HDMI_STATIC_METADATA_TYPE1);
		return -EINVAL;
	}
	eotf = md->hdmi_metadata_type1.eotf;
	if (eotf >= BITS_PER_TYPE(sink) || !(sink & BIT(eotf))) {
		drm_dbg_atomic(connector->dev,
			       "[CONNECTOR:%d:%s] HDR metadata EOTF %u, the sink's EDID declares 0x%02x\n",
			       connector->base.id, connector->name, eotf, sink);
		return -EINVAL;
	}
	ret = drm_hdmi_infoframe_set_hdr_metadata(&frame, new);
	if (!ret)
		ret = hdmi_drm_infoframe_check(&frame);
	if (ret) {
		drm_dbg_atomic(connector->dev,
			       "[CONNECTOR:%d:%s] HDR metadata make no valid infoframe: %d\n",
			       connector->base.id, connector->name, ret);
		return -EINVAL;
	}
	drm_dbg_atomic(connector->dev,
		       "[CONNECTOR:%d:%s] HDR metadata: EOTF %s, max CLL %u, max FALL %u\n",
		       connector->base.id, connector->name,
		       atomkms_hdr_eotf_names[eotf], frame.max_cll,
		       frame.max_fall);
	return 0;
}

/* The name of the Colorspace value @value, as the property lists it. */
static const char *atomkms_hdr_colorspace_name(struct drm_connector *connector,
					       u64 value)
{
	struct drm_property_enum *e;

	list_for_each_entry(e, &connector->colorspace_property->enum_list, head)
		if (e->value == value)
			return e->name;
	return "?";
}

static void atomkms_hdr_show_eotfs(struct seq_file *m, u8 eotfs)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(atomkms_hdr_eotf_names); i++)
		if (eotfs & BIT(i))
			seq_printf(m, " %s", atomkms_hdr_eotf_names[i]);
	seq_putc(m, '\n');
}

/*
 * debugfs hdr_output_metadata: the committed Colorspace and HDR metadata,
 * as the infoframe drm_hdmi_infoframe_set_hdr_metadata() makes of them,
 * and what the sink's EDID declares.
 */
static int atomkms_hdr_metadata_show(struct seq_file *m, void *data)
{
	struct drm_connector *connector = m->private;
	struct drm_device *drm = connector->dev;
	const struct hdr_static_metadata *sink =
		&atomkms_hdr_sink_metadata(connector)->hdmi_type1;
	struct drm_connector_state *state;
	struct hdmi_drm_infoframe f;
	unsigned int i;
	int ret;

	drm_modeset_lock(&drm->mode_config.connection_mutex, NULL);
	state = connector->state;
	seq_printf(m, "colorspace: %s\n",
		   atomkms_hdr_colorspace_name(connector, state->colorspace));
	seq_puts(m, "sink_eotfs:");
	atomkms_hdr_show_eotfs(m, sink->eotf);
	seq_printf(m, "sink_luminance: max %u max_fall %u min %u (code values)\n",
		   sink->max_cll, sink->max_fall, sink->min_cll);
	if (!state->hdr_output_metadata) {
		seq_puts(m, "metadata: none\n");
		goto out;
	}
	ret = drm_hdmi_infoframe_set_hdr_metadata(&f, state);
	if (ret) {
		seq_printf(m, "metadata: invalid (%d)\n", ret);
		goto out;
	}
	seq_printf(m, "metadata: static type %u\n", f.metadata_type + 1);
	seq_printf(m, "eotf: %s\n", f.eotf < ARRAY_SIZE(atomkms_hdr_eotf_names) ?
		   atomkms_hdr_eotf_names[f.eotf] : "?");
	seq_puts(m, "display_primaries:");
	for (i = 0; i < ARRAY_SIZE(f.display_primaries); i++)
		seq_printf(m, " (%u,%u)", f.display_primaries[i].x,
			   f.display_primaries[i].y);
	seq_printf(m, "\nwhite_point: (%u,%u)\n", f.white_point.x,
		   f.white_point.y);
	seq_printf(m, "max_display_mastering_luminance: %u\n",
		   f.max_display_mastering_luminance);
	seq_printf(m, "min_display_mastering_luminance: %u\n",
		   f.min_display_mastering_luminance);
	seq_printf(m, "max_cll: %u\nmax_fall: %u\n", f.max_cll, f.max_fall);
out:
	drm_modeset_unlock(&drm->mode_config.connection_mutex);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(atomkms_hdr_metadata);

/**
 * atomkms_hdr_debugfs_init - the connector's hdr_output_metadata file
 * @connector: a connector whose monitor does HDR
 * @root: the connector's debugfs directory
 */
void atomkms_hdr_debugfs_init(struct drm_connector *connector,
			      struct dentry *root)
{
	debugfs_create_file("hdr_output_metadata", 0444, root, connector,
			    &atomkms_hdr_metadata_fops);
}
