// SPDX-License-Identifier: GPL-2.0-only
/*
 * atomkms: a virtual KMS display driver for compositor developers.
 *
 * This file holds the module and its parameters, the platform device, the
 * DRM driver, and device creation, which walks the topology the
 * parameters describe (module/core/atomkms_topology.c).
 */
#include <linux/dma-mapping.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/slab.h>

#include <kunit/visibility.h>

#include <drm/drm_atomic.h>
#include <drm/drm_atomic_helper.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem_framebuffer_helper.h>
#include <drm/drm_gem_shmem_helper.h>
#include <drm/drm_ioctl.h>
#include <drm/drm_managed.h>
#include <drm/drm_mode_config.h>
#include <drm/drm_print.h>
#include <drm/drm_probe_helper.h>
#include <drm/drm_vblank.h>

#include "atomkms_drv.h"
#include "atomkms_simd_choice.h"

static unsigned int num_crtcs = 1;
module_param(num_crtcs, uint, 0444);
MODULE_PARM_DESC(num_crtcs, "Number of CRTCs, 1 to 8 (default 1)");

static unsigned int num_overlays = 3;
module_param(num_overlays, uint, 0444);
MODULE_PARM_DESC(num_overlays, "Overlay planes per CRTC (default 3)");

static bool shared_overlays;
module_param(shared_overlays, bool, 0444);
MODULE_PARM_DESC(shared_overlays,
		 "Every overlay may feed every CRTC (default off: each CRTC has its own)");

static unsigned int refresh[ATOMKMS_TOPO_MAX_CRTCS];
static unsigned int num_refresh;
module_param_array(refresh, uint, &num_refresh, 0444);
MODULE_PARM_DESC(refresh,
		 "Refresh rate of each CRTC's preferred mode in Hz, e.g. 60,75,144 (default 60)");

static unsigned int max_scale_factor = 4;
module_param(max_scale_factor, uint, 0444);
MODULE_PARM_DESC(max_scale_factor,
		 "Planes scale up and down by at most this factor, 1 to 16 (default 4)");

static bool mutable_zpos;
module_param(mutable_zpos, bool, 0444);
MODULE_PARM_DESC(mutable_zpos,
		 "Primary and overlay planes share one mutable zpos range, 0 to the overlays' number (default off: the primary fixed at 0, overlays 1 up)");

static bool crossbar;
module_param(crossbar, bool, 0444);
MODULE_PARM_DESC(crossbar,
		 "Any CRTC may drive any connector, several at once (clone mode) but the last (default off)");

static int num_connectors = -1;
module_param(num_connectors, int, 0444);
MODULE_PARM_DESC(num_connectors,
		 "Virtual connectors, on the first CRTCs, 0 to num_crtcs (default num_crtcs)");

static bool enable_writeback = true;
module_param(enable_writeback, bool, 0444);
MODULE_PARM_DESC(enable_writeback,
		 "Give CRTCs a writeback connector (default on)");

static unsigned int writeback_mask = GENMASK(ATOMKMS_MAX_CRTCS - 1, 0);
module_param(writeback_mask, uint, 0444);
MODULE_PARM_DESC(writeback_mask,
		 "Which CRTCs have a writeback connector, a bit each (default all)");

static bool enable_cursor = true;
module_param(enable_cursor, bool, 0444);
MODULE_PARM_DESC(enable_cursor, "Give each CRTC a cursor plane (default on)");

static unsigned int max_width = 4096;
module_param(max_width, uint, 0444);
MODULE_PARM_DESC(max_width, "Widest advertised mode (default 4096)");

static unsigned int max_height = 2160;
module_param(max_height, uint, 0444);
MODULE_PARM_DESC(max_height, "Tallest advertised mode (default 2160)");

static unsigned int pref_width = 1920;
module_param(pref_width, uint, 0444);
MODULE_PARM_DESC(pref_width, "Preferred mode width (default 1920)");

static unsigned int pref_height = 1080;
module_param(pref_height, uint, 0444);
MODULE_PARM_DESC(pref_height, "Preferred mode height (default 1080)");

static char *connector_types[ATOMKMS_TOPO_MAX_CRTCS];
static unsigned int num_connector_types;
module_param_array(connector_types, charp, &num_connector_types, 0444);
MODULE_PARM_DESC(connector_types,
		 "Type of each connector by DRM's name, e.g. HDMI-A,eDP (default Virtual)");
static unsigned int vrr_mask = GENMASK(ATOMKMS_MAX_CRTCS - 1, 0);
module_param(vrr_mask, uint, 0444);
MODULE_PARM_DESC(vrr_mask,
		 "Which connectors are vrr_capable (adaptive sync), a bit each (default all)");

static unsigned int hdcp_mask;
module_param(hdcp_mask, uint, 0444);
MODULE_PARM_DESC(hdcp_mask,
		 "Which connectors' monitors do HDCP 2.2 and 1.4 (content protection), a bit each (default none)");
static unsigned int hdcp_delay_ms = ATOMKMS_TOPO_HDCP_DELAY_MS;
module_param(hdcp_delay_ms, uint, 0444);
MODULE_PARM_DESC(hdcp_delay_ms,
		 "How long their HDCP authentication takes, in ms, at most 10000 (default 100)");

/*
 * Every monitor does HDR unless told otherwise, as every one does VRR:
 * the default load is a capable desktop monitor (issue 14), and
 * hdr_mask=0 (configfs connectors/N/hdr 0) gives an SDR one.
 */
static unsigned int hdr_mask = GENMASK(ATOMKMS_MAX_CRTCS - 1, 0);
module_param(hdr_mask, uint, 0444);
MODULE_PARM_DESC(hdr_mask,
		 "Which connectors' monitors do HDR (HDR_OUTPUT_METADATA, Colorspace, an HDR static metadata block in their EDIDs), a bit each (default all)");

static unsigned int tiles_across;
module_param(tiles_across, uint, 0444);
MODULE_PARM_DESC(tiles_across,
		 "Tiles across one tiled monitor made of the first tiles_across x tiles_down connectors, each of the preferred mode's size (default 0: none)");
static unsigned int tiles_down;
module_param(tiles_down, uint, 0444);
MODULE_PARM_DESC(tiles_down, "Tiles down that monitor (default 1)");
static unsigned int bpc = ATOMKMS_TOPO_BPC_DEFAULT;
module_param(bpc, uint, 0444);
MODULE_PARM_DESC(bpc,
		 "Bits per colour channel of the connectors' monitors, which their EDIDs declare: 8, 10, 12, 14 or 16 (default 10)");

/* Issue 15's simulated limits: unset (ATOMKMS_LIMIT_NONE), the preset's. */
static char *limits;
module_param(limits, charp, 0444);
MODULE_PARM_DESC(limits,
		 "Simulated display-engine limits, a preset: none, soc, laptop or desktop (default none)");
static unsigned int max_active_planes = ATOMKMS_LIMIT_NONE;
module_param(max_active_planes, uint, 0444);
MODULE_PARM_DESC(max_active_planes,
		 "Visible planes on the whole device, 0 for none (default: the preset's, else no limit)");
static unsigned int num_plls = ATOMKMS_LIMIT_NONE;
module_param(num_plls, uint, 0444);
MODULE_PARM_DESC(num_plls,
		 "Distinct pixel clocks the active CRTCs may run at (default: the preset's, else no limit)");
static unsigned int bandwidth_mbps = ATOMKMS_LIMIT_NONE;
module_param(bandwidth_mbps, uint, 0444);
MODULE_PARM_DESC(bandwidth_mbps,
		 "Memory bandwidth the visible planes may fetch with, in MB/s (default: the preset's, else no limit)");
static unsigned int num_scalers[ATOMKMS_TOPO_MAX_CRTCS];
static unsigned int num_num_scalers;
module_param_array(num_scalers, uint, &num_num_scalers, 0444);
MODULE_PARM_DESC(num_scalers,
		 "Scalers of each CRTC, e.g. 2,2,1; the CRTCs beyond take the last (default: the preset's, else no limit)");

static bool create_default_dev = true;
module_param(create_default_dev, bool, 0444);
MODULE_PARM_DESC(create_default_dev,
		 "Create the device the other parameters describe (default on; off, devices come from configfs)");

static struct platform_device *atomkms_pdev;

static const struct drm_mode_config_funcs atomkms_mode_config_funcs = {
	.fb_create	= ATOMKMS_FB_CREATE_HOOK,
	.atomic_check	= atomkms_atomic_check,
	.atomic_commit	= atomkms_atomic_commit,
};

DEFINE_DRM_GEM_FOPS(atomkms_fops);

static const struct drm_driver atomkms_driver = {
	.driver_features	= DRIVER_MODESET | DRIVER_ATOMIC | DRIVER_GEM,
	.fops			= &atomkms_fops,
	DRM_GEM_SHMEM_DRIVER_OPS,
	.gem_create_object	= atomkms_gem_create_object,
	.name			= ATOMKMS_DRIVER_NAME,
	.desc			= "Virtual atomic KMS display driver",
	ATOMKMS_DRIVER_DATE("20261203")
	.major			= 0,
	.minor			= 1,
};

/*
 * The device is released: no client is left, and no commit is in flight
 * (each holds a reference on the device through its state, so none can
 * be made now either). A commit that raced with the removal may have
 * switched a CRTC on after atomkms_remove()'s shutdown: stop its timer
 * and compositor before the vblank core and the CRTCs are freed.
 */
static void atomkms_modeset_fini(struct drm_device *drm, void *data)
{
	struct atomkms_device *akdev = data;
	unsigned int i;

	for (i = 0; i < akdev->topo.num_crtcs; i++)
		atomkms_crtc_stop(akdev->crtcs[i]);
}

/*
 * drm_mode_config_reset() cannot fail, but each object's reset hook
 * allocates its state, and one whose allocation failed leaves its plane,
 * CRTC or connector with no state at all: the probe would succeed, and
 * the first ioctl that reads that state (GETPROPERTIES on the plane:
 * drm_atomic_plane_get_property()) dereferences NULL. Fail the probe
 * instead (test/debug/fault-inject.c, bind and insmod passes).
 */
static int atomkms_check_reset(struct drm_device *drm)
{
	struct drm_connector_list_iter iter;
	struct drm_connector *connector;
	struct drm_plane *plane;
	struct drm_crtc *crtc;
	int ret = 0;

	drm_for_each_plane(plane, drm)
		if (!plane->state)
			ret = -ENOMEM;
	drm_for_each_crtc(crtc, drm)
		if (!crtc->state)
			ret = -ENOMEM;
	drm_connector_list_iter_begin(drm, &iter);
	drm_for_each_connector_iter(connector, &iter)
		if (!connector->state)
			ret = -ENOMEM;
	drm_connector_list_iter_end(&iter);
	return ret;
}

/*
 * Create pipe @i's objects as the topology lists them: its planes, the
 * CRTC, then its encoders (a Virtual connector's, a writeback
 * connector's). Objects get their DRM index in creation order, which is
 * the topology's order: its masks then hold as they are.
 */
static int atomkms_pipe_create(struct atomkms_device *akdev, unsigned int i,
			       unsigned int *plane, unsigned int *encoder,
			       unsigned int *connector)
{
	const struct atomkms_topology *t = &akdev->topo;
	const struct atomkms_topo_crtc *tc = &t->crtcs[i];
	struct drm_plane *primary = NULL, *cursor = NULL;
	struct atomkms_crtc *akcrtc;
	int ret;

	for (; *plane < t->num_planes && t->planes[*plane].pipe == i;
	     (*plane)++) {
		struct drm_plane *p;

		p = atomkms_plane_create(akdev, &t->planes[*plane]);
		if (IS_ERR(p))
			return PTR_ERR(p);
		if (*plane == tc->primary)
			primary = p;
		else if (*plane == tc->cursor)
			cursor = p;
	}

	akcrtc = atomkms_crtc_create(akdev, primary, cursor, i);
	if (IS_ERR(akcrtc))
		return PTR_ERR(akcrtc);
	akdev->crtcs[i] = akcrtc;

	for (; *encoder < t->num_encoders && t->encoders[*encoder].pipe == i;
	     (*encoder)++) {
		if (t->encoders[*encoder].kind == ATOMKMS_TOPO_ENC_WRITEBACK)
			ret = atomkms_wb_connector_create(akdev, akcrtc);
		else
			ret = atomkms_output_create(akdev, (*connector)++);
		if (ret)
			return ret;
	}
	return 0;
}

VISIBLE_IF_KUNIT int atomkms_modeset_init(struct atomkms_device *akdev)
{
	struct drm_device *drm = &akdev->drm;
	unsigned int i, plane = 0, encoder = 0, connector = 0;
	int ret;

	ret = drmm_mode_config_init(drm);
	if (ret)
		return ret;

	drm->mode_config.min_width = 1;
	drm->mode_config.min_height = 1;
	drm->mode_config.max_width = ATOMKMS_MAX_FB_WIDTH;
	drm->mode_config.max_height = ATOMKMS_MAX_FB_HEIGHT;
	drm->mode_config.cursor_width = ATOMKMS_MAX_CURSOR;
	drm->mode_config.cursor_height = ATOMKMS_MAX_CURSOR;
	drm->mode_config.preferred_depth = 24;
	drm->mode_config.normalize_zpos = true;
	/* Primary planes flip async; they carry IN_FORMATS_ASYNC for it. */
	drm->mode_config.async_page_flip = true;
	drm->mode_config.funcs = &atomkms_mode_config_funcs;
	atomkms_limits_init_device(akdev);
	atomkms_simd_debugfs_init(&akdev->drm);

	for (i = 0; i < akdev->topo.num_crtcs; i++) {
		ret = atomkms_pipe_create(akdev, i, &plane, &encoder,
					  &connector);
		if (ret)
			return ret;
	}
	ret = atomkms_output_routing(akdev);
	if (ret)
		return ret;

	/*
	 * Each CRTC's vblank schedule keeps a frame counter
	 * (get_vblank_counter): VRR frames vary in length, so the core must
	 * not count vblanks from timestamps and the nominal frame duration.
	 */
	drm->max_vblank_count = U32_MAX;
	ret = drm_vblank_init(drm, akdev->topo.num_crtcs);
	if (ret)
		return ret;

	drm_mode_config_reset(drm);
	ret = atomkms_check_reset(drm);
	if (ret)
		return ret;
	/* Released before the vblank core and the CRTCs: see there. */
	return drmm_add_action_or_reset(drm, atomkms_modeset_fini, akdev);
}
EXPORT_SYMBOL_IF_KUNIT(atomkms_modeset_init);

/*
 * Probe every connector once at load, as fbcon or a boot splash would on
 * real hardware: clients that read connectors without probing
 * (drmModeGetConnectorCurrent(), like igt's kms_setmode) then see them
 * connected with their modes.
 */
static void atomkms_probe_connectors(struct drm_device *drm)
{
	struct drm_connector_list_iter iter;
	struct drm_connector *connector;

	mutex_lock(&drm->mode_config.mutex);
	drm_connector_list_iter_begin(drm, &iter);
	drm_for_each_connector_iter(connector, &iter)
		connector->funcs->fill_modes(connector,
					     drm->mode_config.max_width,
					     drm->mode_config.max_height);
	drm_connector_list_iter_end(&iter);
	mutex_unlock(&drm->mode_config.mutex);
}

static int atomkms_probe(struct platform_device *pdev)
{
	const struct atomkms_platdata *pd = dev_get_platdata(&pdev->dev);
	const struct atomkms_topology *topo = &pd->topo;
	struct atomkms_device *akdev;
	int ret;

	akdev = devm_drm_dev_alloc(&pdev->dev, &atomkms_driver,
				   struct atomkms_device, drm);
	if (IS_ERR(akdev))
		return PTR_ERR(akdev);
	/* The monitors as they are now: a bind after an unbind keeps them. */
	akdev->topo = *topo;

	/* Imported dma-bufs are mapped through this device. */
	ret = dma_coerce_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(64));
	if (ret)
		return ret;

	ret = atomkms_modeset_init(akdev);
	if (ret)
		return ret;
	ret = atomkms_monitor_restore(akdev, pd);
	if (ret)
		return ret;

	ret = drm_dev_register(&akdev->drm, 0);
	if (ret) {
		/*
		 * Linux 6.12's drm_dev_register() leaves dev->registered set
		 * when registering the modeset objects fails, and every
		 * object freed with the device then WARNs in
		 * drm_mode_object_unregister() (fault injection, bind pass).
		 * Unregistering again is safe: each step checks what it
		 * undoes.
		 */
		drm_dev_unregister(&akdev->drm);
		return ret;
	}

	atomkms_probe_connectors(&akdev->drm);
	platform_set_drvdata(pdev, akdev);
	drm_info(&akdev->drm, "%u CRTC(s), %u plane(s), %u encoder(s), %u connector(s)\n",
		 topo->num_crtcs, topo->num_planes, topo->num_encoders,
		 topo->num_connectors);
	return 0;
}

static void atomkms_remove(struct platform_device *pdev)
{
	struct atomkms_device *akdev = platform_get_drvdata(pdev);

	drm_dev_unplug(&akdev->drm);
	drm_atomic_helper_shutdown(&akdev->drm);
}

static void atomkms_shutdown(struct platform_device *pdev)
{
	struct atomkms_device *akdev = platform_get_drvdata(pdev);

	drm_atomic_helper_shutdown(&akdev->drm);
}

static struct platform_driver atomkms_platform_driver = {
	.probe		= atomkms_probe,
	.remove		= atomkms_remove,
	.shutdown	= atomkms_shutdown,
	.driver		= {
		.name	= ATOMKMS_DRIVER_NAME,
	},
};

/**
 * atomkms_device_create - an atomkms device with a validated topology
 * @topo: the topology, copied into the platform data
 * @config: the configfs configuration it was made from, whose EDIDs in
 *          use (checked by atomkms_topo_check_edid() and
 *          atomkms_output_check_edid()) are copied too; NULL for none
 * @id: the platform device's id (%PLATFORM_DEVID_NONE for the default
 *      device, %PLATFORM_DEVID_AUTO for configfs's)
 *
 * Remove it with atomkms_device_destroy().
 *
 * Return: the platform device, bound to the driver, or an ERR_PTR():
 * -ENODEV when the probe failed (it says why in the kernel log).
 */
struct platform_device *atomkms_device_create(const struct atomkms_topology *topo,
					      const struct atomkms_config *config,
					      int id)
{
	struct platform_device *pdev;
	struct atomkms_platdata *pd;
	unsigned int i;

	pd = kzalloc(sizeof(*pd), GFP_KERNEL);
	if (!pd)
		return ERR_PTR(-ENOMEM);
	pd->topo = *topo;
	for (i = 0; config && i < config->num_connectors; i++) {
		if (!config->connectors[i].edid_enabled ||
		    !config->connectors[i].edid)
			continue;
		pd->edid[i] = kmemdup(config->connectors[i].edid,
				      config->connectors[i].edid_len,
				      GFP_KERNEL);
		if (!pd->edid[i]) {
			pdev = ERR_PTR(-ENOMEM);
			goto err;
		}
		pd->edid_len[i] = config->connectors[i].edid_len;
	}
	/* A copy of @pd, the EDIDs its pointers hold now its own. */
	pdev = platform_device_register_data(NULL, ATOMKMS_DRIVER_NAME, id,
					     pd, sizeof(*pd));
	if (IS_ERR(pdev))
		goto err;
	kfree(pd);
	if (!platform_get_drvdata(pdev)) {
		/* Probe failed: say so now rather than sit idle. */
		atomkms_device_destroy(pdev);
		return ERR_PTR(-ENODEV);
	}
	return pdev;
err:
	for (i = 0; i < ARRAY_SIZE(pd->edid); i++)
		kfree(pd->edid[i]);
	kfree(pd);
	return pdev;
}

/**
 * atomkms_device_destroy - unregister a device made by
 *                          atomkms_device_create(), and free its EDIDs
 * @pdev: the device; its monitors' setters (atomkms_monitor.c) must not
 *        run any more
 */
void atomkms_device_destroy(struct platform_device *pdev)
{
	struct atomkms_platdata *pd = dev_get_platdata(&pdev->dev);
	u8 *edid[ARRAY_SIZE(pd->edid)];
	unsigned int i;

	/* The platform data goes with the device: keep the pointers. */
	memcpy(edid, pd->edid, sizeof(edid));
	platform_device_unregister(pdev);
	for (i = 0; i < ARRAY_SIZE(edid); i++)
		kfree(edid[i]);
}

static int __init atomkms_init(void)
{
	struct atomkms_params params = {
		.num_crtcs = num_crtcs,
		.num_overlays = num_overlays,
		.shared_overlays = shared_overlays,
		.cursor = enable_cursor,
		.num_connectors = num_connectors,
		.writeback = enable_writeback,
		.writeback_mask = writeback_mask,
		.vrr_mask = vrr_mask,
		.hdcp_mask = hdcp_mask,
		.hdcp_delay_ms = hdcp_delay_ms,
		.bpc = bpc,
		.hdr_mask = hdr_mask,
		.crossbar = crossbar,
		.num_refresh = num_refresh,
		.max_scale_factor = max_scale_factor,
		.mutable_zpos = mutable_zpos,
		.max_width = max_width,
		.max_height = max_height,
		.pref_width = pref_width,
		.pref_height = pref_height,
		.tiles_h = tiles_across,
		.tiles_v = tiles_down,
	};
	struct atomkms_limits_params lp = {
		.preset = limits,
		.max_active_planes = max_active_planes,
		.num_plls = num_plls,
		.bandwidth_mbps = bandwidth_mbps,
		.num_num_scalers = num_num_scalers,
	};
	struct atomkms_topology *topo;
	const char *why = "";
	int ret;

	ret = atomkms_simd_init();
	if (ret)
		return ret;
	memcpy(lp.num_scalers, num_scalers, sizeof(lp.num_scalers));
	params.limits = &lp;
	memcpy(params.refresh, refresh, sizeof(params.refresh));
	for (; params.num_connector_types < num_connector_types;
	     params.num_connector_types++) {
		const char *name = connector_types[params.num_connector_types];

		ret = atomkms_topo_connector_type(name, strlen(name));
		if (ret < 0) {
			pr_err("atomkms: module parameters: connector_types: unknown type \"%s\"\n",
			       name);
			return -EINVAL;
		}
		params.connector_types[params.num_connector_types] = ret;
	}
	topo = kzalloc(sizeof(*topo), GFP_KERNEL);
	if (!topo)
		return -ENOMEM;
	ret = atomkms_topology_from_params(&params, topo, &why);
	if (!ret)
		ret = atomkms_topology_validate(topo, &why);
	if (ret) {
		pr_err("atomkms: module parameters: %s\n", why);
		goto err_topo;
	}

	ret = atomkms_commit_init();
	if (ret)
		goto err_topo;
	ret = platform_driver_register(&atomkms_platform_driver);
	if (ret)
		goto err_commit;

	ret = atomkms_configfs_init();
	if (ret)
		goto err_driver;
	if (create_default_dev) {
		atomkms_pdev = atomkms_device_create(topo, NULL,
						     PLATFORM_DEVID_NONE);
		if (IS_ERR(atomkms_pdev)) {
			ret = PTR_ERR(atomkms_pdev);
			goto err_configfs;
		}
	}
	kfree(topo);
	return 0;

err_configfs:
	atomkms_configfs_exit();
err_driver:
	platform_driver_unregister(&atomkms_platform_driver);
err_commit:
	atomkms_commit_exit();
err_topo:
	kfree(topo);
	return ret;
}

static void __exit atomkms_exit(void)
{
	/* No configfs device is left: each pins the module. */
	atomkms_configfs_exit();
	if (atomkms_pdev)
		atomkms_device_destroy(atomkms_pdev);
	platform_driver_unregister(&atomkms_platform_driver);
	/* What commit workers still hold may release a device: module code. */
	atomkms_commit_exit();
	atomkms_out_fence_exit();
}

module_init(atomkms_init);
module_exit(atomkms_exit);

MODULE_AUTHOR("The atomkms developers");
MODULE_DESCRIPTION("Virtual atomic KMS display driver");
MODULE_LICENSE("GPL");
