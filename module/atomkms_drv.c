// SPDX-License-Identifier: GPL-2.0-only
/*
 * atomkms: a virtual KMS display driver for compositor developers.
 *
 * This file holds the module and platform device, the DRM driver, the
 * device description taken from module parameters, and the commit tail.
 */
#include <linux/dma-mapping.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/string_choices.h>

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

static unsigned int num_crtcs = 1;
module_param(num_crtcs, uint, 0444);
MODULE_PARM_DESC(num_crtcs, "Number of CRTCs, 1 to 8 (default 1)");

static unsigned int num_overlays = 3;
module_param(num_overlays, uint, 0444);
MODULE_PARM_DESC(num_overlays, "Overlay planes per CRTC (default 3)");

/* The compositor core's switch; off, every plane takes the general path. */
module_param_named(compose_fast_paths, atomkms_compose_fast_paths, bool, 0644);
MODULE_PARM_DESC(compose_fast_paths,
		 "Compositor fast paths and occlusion culling (default on; the output is the same)");

static bool shared_overlays;
module_param(shared_overlays, bool, 0444);
MODULE_PARM_DESC(shared_overlays,
		 "Every overlay may feed every CRTC (default off: each CRTC has its own)");

static unsigned int refresh[ATOMKMS_MAX_CRTCS];
static unsigned int num_refresh;
module_param_array(refresh, uint, &num_refresh, 0444);
MODULE_PARM_DESC(refresh,
		 "Refresh rate of each CRTC's preferred mode in Hz, e.g. 60,75,144 (default 60)");

static unsigned int max_scale_factor = 4;
module_param(max_scale_factor, uint, 0444);
MODULE_PARM_DESC(max_scale_factor,
		 "Planes scale up and down by at most this factor, 1 to 16 (default 4)");

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

static struct platform_device *atomkms_pdev;

/**
 * atomkms_config_validate - check a device description before building it
 * @cfg: the description
 *
 * Return: 0, or -EINVAL with a message saying which field is wrong.
 */
static int atomkms_config_validate(const struct atomkms_config *cfg)
{
	unsigned int i;

	if (cfg->num_crtcs < 1 || cfg->num_crtcs > ATOMKMS_MAX_CRTCS) {
		pr_err("atomkms: num_crtcs=%u, must be 1 to %d\n",
		       cfg->num_crtcs, ATOMKMS_MAX_CRTCS);
		return -EINVAL;
	}
	if (cfg->num_overlays * (cfg->shared_overlays ? cfg->num_crtcs : 1) >
	    ATOMKMS_MAX_OVERLAYS) {
		pr_err("atomkms: a CRTC may reach at most %d overlays\n",
		       ATOMKMS_MAX_OVERLAYS);
		return -EINVAL;
	}
	if (cfg->num_connectors > cfg->num_crtcs) {
		pr_err("atomkms: num_connectors=%u, must be 0 to num_crtcs (%u)\n",
		       cfg->num_connectors, cfg->num_crtcs);
		return -EINVAL;
	}
	if (!cfg->num_connectors &&
	    !(cfg->writeback && (cfg->writeback_mask &
				 GENMASK(cfg->num_crtcs - 1, 0)))) {
		pr_err("atomkms: no connector at all: num_connectors=0 needs writeback\n");
		return -EINVAL;
	}
	for (i = 0; i < cfg->num_crtcs; i++) {
		if (cfg->refresh[i] < 1 || cfg->refresh[i] > 1000) {
			pr_err("atomkms: refresh %u Hz for CRTC %u, must be 1 to 1000\n",
			       cfg->refresh[i], i);
			return -EINVAL;
		}
	}
	if (cfg->min_scale < (1 << 16) / 16 || cfg->max_scale > 16 << 16) {
		pr_err("atomkms: max_scale_factor must be 1 to 16\n");
		return -EINVAL;
	}
	if (cfg->max_width < 640 || cfg->max_width > ATOMKMS_MAX_FB_WIDTH ||
	    cfg->max_height < 480 || cfg->max_height > ATOMKMS_MAX_FB_HEIGHT) {
		pr_err("atomkms: max mode %ux%u, must be 640x480 to %ux%u\n",
		       cfg->max_width, cfg->max_height, ATOMKMS_MAX_FB_WIDTH,
		       ATOMKMS_MAX_FB_HEIGHT);
		return -EINVAL;
	}
	if (cfg->pref_width > cfg->max_width ||
	    cfg->pref_height > cfg->max_height) {
		pr_err("atomkms: preferred mode %ux%u larger than max %ux%u\n",
		       cfg->pref_width, cfg->pref_height, cfg->max_width,
		       cfg->max_height);
		return -EINVAL;
	}
	return 0;
}

static const struct drm_mode_config_funcs atomkms_mode_config_funcs = {
	.fb_create	= atomkms_fb_create,
	.atomic_check	= drm_atomic_helper_check,
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
	.date			= "20261203",
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

	for (i = 0; i < akdev->config.num_crtcs; i++)
		atomkms_crtc_stop(akdev->crtcs[i]);
}

static int atomkms_modeset_init(struct atomkms_device *akdev)
{
	struct drm_device *drm = &akdev->drm;
	const struct atomkms_config *cfg = &akdev->config;
	unsigned int i, max_overlay;
	u32 all_crtcs, overlay_crtcs;
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

	/*
	 * Normalized zpos: primary 0, overlays 1..max_overlay, cursor on
	 * top. CRTC i gets index i, so its mask is known before it exists.
	 */
	max_overlay = cfg->num_overlays *
		      (cfg->shared_overlays ? cfg->num_crtcs : 1);
	all_crtcs = GENMASK(cfg->num_crtcs - 1, 0);
	overlay_crtcs = cfg->shared_overlays ? all_crtcs : 0;
	for (i = 0; i < cfg->num_crtcs; i++) {
		struct drm_plane *primary, *cursor = NULL, *overlay;
		struct atomkms_crtc *akcrtc;
		unsigned int j;

		primary = atomkms_plane_create(akdev, DRM_PLANE_TYPE_PRIMARY,
					       BIT(i), 0, 0);
		if (IS_ERR(primary))
			return PTR_ERR(primary);
		for (j = 0; j < cfg->num_overlays; j++) {
			unsigned int zpos = 1 + j;

			if (cfg->shared_overlays)
				zpos += i * cfg->num_overlays;
			overlay = atomkms_plane_create(akdev,
						       DRM_PLANE_TYPE_OVERLAY,
						       overlay_crtcs ?: BIT(i),
						       zpos, max_overlay);
			if (IS_ERR(overlay))
				return PTR_ERR(overlay);
		}
		if (cfg->cursor) {
			cursor = atomkms_plane_create(akdev,
						      DRM_PLANE_TYPE_CURSOR,
						      BIT(i), max_overlay + 1,
						      max_overlay + 1);
			if (IS_ERR(cursor))
				return PTR_ERR(cursor);
		}

		akcrtc = atomkms_crtc_create(akdev, primary, cursor, i);
		if (IS_ERR(akcrtc))
			return PTR_ERR(akcrtc);
		akdev->crtcs[i] = akcrtc;

		if (i < cfg->num_connectors) {
			ret = atomkms_output_create(akdev, akcrtc, i);
			if (ret)
				return ret;
		}
		if (cfg->writeback && (cfg->writeback_mask & BIT(i))) {
			ret = atomkms_wb_connector_create(akdev, akcrtc);
			if (ret)
				return ret;
		}
	}

	atomkms_output_routing(akdev);

	ret = drm_vblank_init(drm, cfg->num_crtcs);
	if (ret)
		return ret;

	drm_mode_config_reset(drm);
	/* Released before the vblank core and the CRTCs: see there. */
	return drmm_add_action_or_reset(drm, atomkms_modeset_fini, akdev);
}

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
	const struct atomkms_config *cfg = dev_get_platdata(&pdev->dev);
	struct atomkms_device *akdev;
	int ret;

	akdev = devm_drm_dev_alloc(&pdev->dev, &atomkms_driver,
				   struct atomkms_device, drm);
	if (IS_ERR(akdev))
		return PTR_ERR(akdev);
	akdev->config = *cfg;

	/* Imported dma-bufs are mapped through this device. */
	ret = dma_coerce_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(64));
	if (ret)
		return ret;

	ret = atomkms_modeset_init(akdev);
	if (ret)
		return ret;

	ret = drm_dev_register(&akdev->drm, 0);
	if (ret)
		return ret;

	atomkms_probe_connectors(&akdev->drm);
	platform_set_drvdata(pdev, akdev);
	drm_info(&akdev->drm, "%u CRTC(s), %u %soverlay(s) each, cursor %s\n",
		 cfg->num_crtcs, cfg->num_overlays,
		 cfg->shared_overlays ? "shared " : "", str_on_off(cfg->cursor));
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

static int __init atomkms_init(void)
{
	struct atomkms_config cfg = {
		.num_crtcs = num_crtcs,
		.num_overlays = num_overlays,
		.shared_overlays = shared_overlays,
		.cursor = enable_cursor,
		.num_connectors = num_connectors < 0 ? num_crtcs : num_connectors,
		.writeback = enable_writeback,
		.writeback_mask = writeback_mask,
		.crossbar = crossbar,
		.min_scale = max_scale_factor ?
			     (1 << 16) / max_scale_factor : 0,
		.max_scale = max_scale_factor << 16,
		.max_width = max_width,
		.max_height = max_height,
		.pref_width = pref_width,
		.pref_height = pref_height,
	};
	unsigned int i;
	int ret;

	/* CRTCs without a refresh of their own take the last one given. */
	for (i = 0; i < ATOMKMS_MAX_CRTCS; i++)
		cfg.refresh[i] = num_refresh ?
				 refresh[min(i, num_refresh - 1)] : 60;

	ret = atomkms_config_validate(&cfg);
	if (ret)
		return ret;

	ret = atomkms_commit_init();
	if (ret)
		return ret;
	ret = platform_driver_register(&atomkms_platform_driver);
	if (ret)
		goto err_commit;

	/* The platform data is copied: cfg may live on the stack. */
	atomkms_pdev = platform_device_register_data(NULL, ATOMKMS_DRIVER_NAME,
						     PLATFORM_DEVID_NONE,
						     &cfg, sizeof(cfg));
	if (IS_ERR(atomkms_pdev)) {
		ret = PTR_ERR(atomkms_pdev);
		goto err_driver;
	}
	if (!platform_get_drvdata(atomkms_pdev)) {
		/* Probe failed: say so at load time rather than sit idle. */
		platform_device_unregister(atomkms_pdev);
		ret = -ENODEV;
		goto err_driver;
	}
	return 0;

err_driver:
	platform_driver_unregister(&atomkms_platform_driver);
err_commit:
	atomkms_commit_exit();
	return ret;
}

static void __exit atomkms_exit(void)
{
	platform_device_unregister(atomkms_pdev);
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
