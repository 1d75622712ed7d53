/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The older kernels' DRM API, under the newest kernel's names.
 *
 * atomkms is written against the newest kernel it supports (Linux 7.3).
 * Everything an older kernel of the range (6.12 LTS on) does differently
 * lives here and in atomkms_compat.c, keyed on the release that brought
 * the new form, so that the logic reads as mainline and dropping an old
 * kernel deletes lines from these two files only. The releases come from
 * the mainline commits that made each change; 6.12, 7.2 and 7.3 are built
 * (and 6.12 and 7.3 booted) by make check, the kernels between them only
 * through these boundaries.
 *
 * uAPI that only newer kernels have is compiled in only where the kernel
 * has it: see ATOMKMS_HAS_*.
 */
#ifndef ATOMKMS_COMPAT_H
#define ATOMKMS_COMPAT_H

#include <linux/hrtimer.h>
#include <linux/module.h>
#include <linux/version.h>
#include <linux/workqueue.h>

/*
 * Before any renaming below: the kernel's own declarations, under the
 * kernel's own names.
 */
#include <drm/drm_atomic.h>
#include <drm/drm_connector.h>
#include <drm/drm_drv.h>
#include <drm/drm_fourcc.h>
#include <drm/drm_modeset_helper.h>
#include <drm/drm_plane.h>

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 12, 0) || \
	LINUX_VERSION_CODE >= KERNEL_VERSION(7, 4, 0)
#error "atomkms builds for Linux 6.12 to 7.3 only"
#endif

struct atomkms_device;
struct drm_file;
struct drm_mode_fb_cmd2;

/*
 * 7.2: struct drm_atomic_state became struct drm_atomic_commit, with its
 * reference helpers. (The function drm_atomic_commit(), declared above
 * under its own name, cannot be called through this mapping: atomkms
 * commits through the helpers.)
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(7, 2, 0)
#define drm_atomic_commit drm_atomic_state
#define drm_atomic_commit_get drm_atomic_state_get
#define drm_atomic_commit_put drm_atomic_state_put
#endif

/* 6.13: hrtimer_setup() sets the callback with the clock and mode. */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 13, 0)
static inline void
hrtimer_setup(struct hrtimer *timer,
	      enum hrtimer_restart (*function)(struct hrtimer *),
	      clockid_t clock_id, enum hrtimer_mode mode)
{
	hrtimer_init(timer, clock_id, mode);
	timer->function = function;
}
#endif

/*
 * 6.17: system_percpu_wq is system_wq's new name; 7.2 warns about work
 * queued on the old one. (Some 6.12 stable releases have both: the old
 * name serves there too.)
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 17, 0)
#define system_percpu_wq system_wq
#endif

/* 6.14: &struct drm_driver has no date. */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 14, 0)
#define ATOMKMS_DRIVER_DATE(yyyymmdd) .date = (yyyymmdd),
#else
#define ATOMKMS_DRIVER_DATE(yyyymmdd)
#endif

/*
 * Hooks whose arguments changed. The logic implements the newest form;
 * an older kernel calls it through an adapter in atomkms_compat.c, named
 * by ATOMKMS_HOOK() in the function tables.
 */
struct drm_framebuffer *atomkms_fb_create(struct drm_device *drm,
					  struct drm_file *file,
					  const struct drm_format_info *info,
					  const struct drm_mode_fb_cmd2 *mode_cmd);
int atomkms_plane_atomic_async_check(struct drm_plane *plane,
				     struct drm_atomic_commit *state,
				     bool flip);

/* 6.15: &drm_plane_helper_funcs.atomic_async_check is told of a flip. */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 15, 0)
int atomkms_plane_atomic_async_check_compat(struct drm_plane *plane,
					    struct drm_atomic_commit *state);
#define ATOMKMS_ASYNC_CHECK_HOOK atomkms_plane_atomic_async_check_compat
#else
#define ATOMKMS_ASYNC_CHECK_HOOK atomkms_plane_atomic_async_check
#endif

/*
 * 6.17: &drm_mode_config_funcs.fb_create and
 * drm_helper_mode_fill_fb_struct() take the format the core looked up.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 17, 0)
struct drm_framebuffer *
atomkms_fb_create_compat(struct drm_device *drm, struct drm_file *file,
			 const struct drm_mode_fb_cmd2 *mode_cmd);
#define ATOMKMS_FB_CREATE_HOOK atomkms_fb_create_compat
#define drm_helper_mode_fill_fb_struct(dev, fb, info, mode_cmd) \
	((void)(info), (drm_helper_mode_fill_fb_struct)(dev, fb, mode_cmd))
#else
#define ATOMKMS_FB_CREATE_HOOK atomkms_fb_create
#endif

/*
 * 6.16: the core makes IN_FORMATS_ASYNC from
 * &drm_plane_funcs.format_mod_supported_async. Before, atomkms makes the
 * same property itself from the same predicate, once per plane.
 */
bool atomkms_plane_format_mod_supported_async(struct drm_plane *plane,
					      u32 format, u64 modifier);
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 16, 0)
#define ATOMKMS_PLANE_FUNCS_ASYNC_FORMATS
int atomkms_compat_in_formats_async(struct atomkms_device *akdev,
				    struct drm_plane *plane);
#else
#define ATOMKMS_PLANE_FUNCS_ASYNC_FORMATS \
	.format_mod_supported_async = atomkms_plane_format_mod_supported_async,
static inline int atomkms_compat_in_formats_async(struct atomkms_device *akdev,
						  struct drm_plane *plane)
{
	return 0;
}
#endif

/* 6.17: the sink's HDR metadata is part of &drm_display_info. */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 17, 0)
#define atomkms_hdr_sink_metadata(connector) (&(connector)->hdr_sink_metadata)
#else
#define atomkms_hdr_sink_metadata(connector) \
	(&(connector)->display_info.hdr_sink_metadata)
#endif

/* 7.2: attaching HDR_OUTPUT_METADATA cannot fail (before, it returned 0). */
#if LINUX_VERSION_CODE < KERNEL_VERSION(7, 2, 0)
#define drm_connector_attach_hdr_output_metadata_property(connector) \
	((void)(drm_connector_attach_hdr_output_metadata_property)(connector))
#endif

/* 6.13: symbol namespaces are strings: MODULE_IMPORT_NS("NS"). */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 13, 0)
#undef MODULE_IMPORT_NS
#define MODULE_IMPORT_NS(ns) MODULE_INFO(import_ns, ns)
#endif

#endif /* ATOMKMS_COMPAT_H */
