// SPDX-License-Identifier: GPL-2.0-only
/*
 * Adapters for the kernels of the range whose DRM API is older than the
 * one atomkms is written against (atomkms_compat.h says which and why).
 * On the newest kernel this file compiles to nothing.
 */
#include <linux/slab.h>

#include <drm/drm_atomic.h>
#include <drm/drm_fourcc.h>
#include <drm/drm_framebuffer.h>
#include <drm/drm_plane.h>
#include <drm/drm_property.h>

#include "atomkms_compat.h"
#include "atomkms_drv.h"

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 15, 0)
/* Before 6.15 the hook was called by the async commit helpers alone. */
int atomkms_plane_atomic_async_check_compat(struct drm_plane *plane,
					    struct drm_atomic_commit *state)
{
	return atomkms_plane_atomic_async_check(plane, state, false);
}
#endif

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 17, 0)
/* Before 6.17 the driver looked the format up itself. */
struct drm_framebuffer *
atomkms_fb_create_compat(struct drm_device *drm, struct drm_file *file,
			 const struct drm_mode_fb_cmd2 *mode_cmd)
{
	return atomkms_fb_create(drm, file, drm_get_format_info(drm, mode_cmd),
				 mode_cmd);
}
#endif

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 16, 0)
/**
 * atomkms_compat_in_formats_async - IN_FORMATS_ASYNC before the core had it
 * @akdev: the device, which holds the one property
 * @plane: a plane, its formats set
 *
 * The format/modifier pairs atomkms_plane_format_mod_supported_async()
 * accepts, in IN_FORMATS' blob layout (&struct drm_format_modifier_blob),
 * as the core builds it from 6.16 on. igt warns about a driver that
 * offers async flips without the property on every plane. atomkms scans
 * out one modifier, linear.
 *
 * Return: 0, or a negative errno.
 */
int atomkms_compat_in_formats_async(struct atomkms_device *akdev,
				    struct drm_plane *plane)
{
	struct drm_device *drm = &akdev->drm;
	struct drm_format_modifier_blob *head;
	struct drm_format_modifier *mod;
	struct drm_property_blob *blob;
	size_t formats_size, size;
	u32 *formats;
	u32 i, count = 0;

	for (i = 0; i < plane->format_count; i++)
		count += atomkms_plane_format_mod_supported_async(plane,
								  plane->format_types[i],
								  DRM_FORMAT_MOD_LINEAR);

	if (!akdev->in_formats_async) {
		akdev->in_formats_async =
			drm_property_create(drm, DRM_MODE_PROP_IMMUTABLE |
					    DRM_MODE_PROP_BLOB,
					    "IN_FORMATS_ASYNC", 0);
		if (!akdev->in_formats_async)
			return -ENOMEM;
	}

	formats_size = ALIGN(count * sizeof(u32), 8);
	size = sizeof(*head) + formats_size + (count ? sizeof(*mod) : 0);
	blob = drm_property_create_blob(drm, size, NULL);
	if (IS_ERR(blob))
		return PTR_ERR(blob);

	head = blob->data;
	head->version = FORMAT_BLOB_CURRENT;
	head->count_formats = count;
	head->formats_offset = sizeof(*head);
	head->count_modifiers = count ? 1 : 0;
	head->modifiers_offset = sizeof(*head) + formats_size;
	if (count) {
		formats = (u32 *)(head + 1);
		count = 0;
		for (i = 0; i < plane->format_count; i++)
			if (atomkms_plane_format_mod_supported_async(plane,
								     plane->format_types[i],
								     DRM_FORMAT_MOD_LINEAR))
				formats[count++] = plane->format_types[i];
		mod = (struct drm_format_modifier *)((u8 *)head +
						      head->modifiers_offset);
		/* One bit per format, 64 formats to a modifier entry. */
		mod->formats = count >= 64 ? ~0ULL : (1ULL << count) - 1;
		mod->offset = 0;
		mod->modifier = DRM_FORMAT_MOD_LINEAR;
	}

	drm_object_attach_property(&plane->base, akdev->in_formats_async,
				   blob->base.id);
	return 0;
}
#endif
