// SPDX-License-Identifier: GPL-2.0-only
/*
 * The monitors on a device's connectors, as its platform device keeps
 * them: whether each is plugged in, the EDID written for it through
 * configfs that it uses, and how long its HDCP authentication takes.
 *
 * The platform device stands for the display hardware and the DRM device
 * for the driver bound to it, so the monitors live with the first: a
 * sysfs unbind frees the DRM device and every managed resource of it, and
 * the next probe (a sysfs bind) finds the monitors as they were. Each
 * change is made under the platform device's lock, which every probe
 * holds, and reaches the bound DRM device, if there is one, at once.
 */
#include <linux/device.h>
#include <linux/platform_device.h>
#include <linux/slab.h>

#include <drm/drm_edid.h>

#include "atomkms_drv.h"

/* Under the platform device's lock: the bound device, or NULL. */
static struct atomkms_device *atomkms_monitor_bound(struct platform_device *pdev)
{
	return pdev->dev.driver ? platform_get_drvdata(pdev) : NULL;
}

/**
 * atomkms_monitor_set_connected - plug or unplug connector @index's monitor
 * @pdev: the device
 * @index: the connector's index in the topology
 * @connected: plugged in
 *
 * A bound device probes the connector again and sends a hotplug event.
 */
void atomkms_monitor_set_connected(struct platform_device *pdev,
				   unsigned int index, bool connected)
{
	struct atomkms_platdata *pd = dev_get_platdata(&pdev->dev);
	struct atomkms_device *akdev;

	device_lock(&pdev->dev);
	pd->topo.connectors[index].connected = connected;
	akdev = atomkms_monitor_bound(pdev);
	if (akdev)
		atomkms_output_set_connected(akdev, index, connected);
	device_unlock(&pdev->dev);
}

/**
 * atomkms_monitor_set_edid - the EDID connector @index's monitor uses
 * @pdev: the device
 * @index: the connector's index in the topology
 * @edid: the EDID written (copied), checked by atomkms_topo_check_edid()
 *        and atomkms_output_check_edid(); NULL for the generated one
 * @len: its bytes
 *
 * A bound device takes it at once (a hotplug event).
 *
 * Return: 0, -EINVAL if the bound device refuses it, or -ENOMEM; the
 * monitor keeps its EDID then.
 */
int atomkms_monitor_set_edid(struct platform_device *pdev, unsigned int index,
			     const u8 *edid, u32 len)
{
	struct atomkms_platdata *pd = dev_get_platdata(&pdev->dev);
	struct atomkms_device *akdev;
	u8 *copy = NULL;
	int ret = 0;

	if (edid) {
		copy = kmemdup(edid, len, GFP_KERNEL);
		if (!copy)
			return -ENOMEM;
	}
	device_lock(&pdev->dev);
	akdev = atomkms_monitor_bound(pdev);
	if (akdev)
		ret = atomkms_output_set_edid(akdev, index, edid, len);
	if (!ret) {
		swap(pd->edid[index], copy);
		pd->edid_len[index] = edid ? len : 0;
	}
	device_unlock(&pdev->dev);
	kfree(copy);
	return ret;
}

/**
 * atomkms_monitor_set_hdcp_delay - how long connector @index's monitor
 *                                  takes to authenticate, from now on
 * @pdev: the device
 * @index: the connector's index in the topology
 * @delay_ms: milliseconds, 1 to %ATOMKMS_TOPO_HDCP_MAX_DELAY_MS
 */
void atomkms_monitor_set_hdcp_delay(struct platform_device *pdev,
				    unsigned int index, unsigned int delay_ms)
{
	struct atomkms_platdata *pd = dev_get_platdata(&pdev->dev);
	struct atomkms_device *akdev;

	device_lock(&pdev->dev);
	pd->topo.connectors[index].hdcp_delay_ms = delay_ms;
	akdev = atomkms_monitor_bound(pdev);
	if (akdev)
		atomkms_output_set_hdcp_delay(akdev, index, delay_ms);
	device_unlock(&pdev->dev);
}

/**
 * atomkms_monitor_restore - give a new DRM device its monitors' EDIDs
 * @akdev: the device being probed, its connectors created, not registered
 * @pd: its platform data (the probe holds the platform device's lock)
 *
 * Their status and HDCP delay come with the topology the probe copies.
 *
 * Return: 0 or -ENOMEM.
 */
int atomkms_monitor_restore(struct atomkms_device *akdev,
			    const struct atomkms_platdata *pd)
{
	unsigned int i;

	for (i = 0; i < pd->topo.num_connectors; i++) {
		if (!pd->edid[i])
			continue;
		akdev->outputs[i]->edid = drm_edid_alloc(pd->edid[i],
							 pd->edid_len[i]);
		if (!akdev->outputs[i]->edid)
			return -ENOMEM;
	}
	return 0;
}
