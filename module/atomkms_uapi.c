// SPDX-License-Identifier: GPL-2.0-only
/*
 * The pure-C core cannot include DRM's headers, so it spells the values it
 * shares with DRM's uapi and KMS core as numbers of its own. This file,
 * built into the module and holding no code, ties each of them to DRM's
 * definition: a value that drifted would fail the build.
 */
#include <linux/errno.h>
#include <linux/stddef.h>

#include <drm/drm_blend.h>
#include <drm/drm_color_mgmt.h>
#include <drm/drm_fourcc.h>
#include <drm/drm_mode.h>
#include <drm/drm_plane.h>

#include "atomkms_compose.h"
#include "atomkms_drv.h"
#include "atomkms_topology.h"

/* Errors the core returns, negated. */
static_assert(ATOMKMS_EINVAL == EINVAL);
static_assert(ATOMKMS_ENOSPC == ENOSPC);
static_assert(ATOMKMS_ERANGE == ERANGE);

/* Plane properties: rotation, blend mode, scaling filter, YCbCr. */
static_assert(ATOMKMS_ROTATE_0 == DRM_MODE_ROTATE_0);
static_assert(ATOMKMS_ROTATE_90 == DRM_MODE_ROTATE_90);
static_assert(ATOMKMS_ROTATE_180 == DRM_MODE_ROTATE_180);
static_assert(ATOMKMS_ROTATE_270 == DRM_MODE_ROTATE_270);
static_assert(ATOMKMS_ROTATE_MASK == DRM_MODE_ROTATE_MASK);
static_assert(ATOMKMS_REFLECT_X == DRM_MODE_REFLECT_X);
static_assert(ATOMKMS_REFLECT_Y == DRM_MODE_REFLECT_Y);
static_assert(ATOMKMS_BLEND_PREMULTI == DRM_MODE_BLEND_PREMULTI);
static_assert(ATOMKMS_BLEND_COVERAGE == DRM_MODE_BLEND_COVERAGE);
static_assert(ATOMKMS_BLEND_PIXEL_NONE == DRM_MODE_BLEND_PIXEL_NONE);
static_assert(ATOMKMS_FILTER_BILINEAR == (int)DRM_SCALING_FILTER_DEFAULT);
static_assert(ATOMKMS_FILTER_NEAREST == (int)DRM_SCALING_FILTER_NEAREST_NEIGHBOR);
static_assert(ATOMKMS_YCBCR_BT601 == (int)DRM_COLOR_YCBCR_BT601);
static_assert(ATOMKMS_YCBCR_BT709 == (int)DRM_COLOR_YCBCR_BT709);
static_assert(ATOMKMS_YCBCR_BT2020 == (int)DRM_COLOR_YCBCR_BT2020);
static_assert(ATOMKMS_YCBCR_LIMITED_RANGE == (int)DRM_COLOR_YCBCR_LIMITED_RANGE);
static_assert(ATOMKMS_YCBCR_FULL_RANGE == (int)DRM_COLOR_YCBCR_FULL_RANGE);

/* The colour pipeline reads DRM's LUT and CTM blobs in place. */
static_assert(sizeof(struct atomkms_color_lut) == sizeof(struct drm_color_lut));
static_assert(offsetof(struct atomkms_color_lut, red) ==
	      offsetof(struct drm_color_lut, red));
static_assert(offsetof(struct atomkms_color_lut, green) ==
	      offsetof(struct drm_color_lut, green));
static_assert(offsetof(struct atomkms_color_lut, blue) ==
	      offsetof(struct drm_color_lut, blue));
static_assert(offsetof(struct atomkms_color_lut, reserved) ==
	      offsetof(struct drm_color_lut, reserved));
static_assert(sizeof(struct atomkms_color_ctm) == sizeof(struct drm_color_ctm));
static_assert(offsetof(struct atomkms_color_ctm, matrix) ==
	      offsetof(struct drm_color_ctm, matrix));

/* The topology's plane types, and the compositor's plane limit. */
static_assert((int)ATOMKMS_TOPO_PRIMARY == (int)DRM_PLANE_TYPE_PRIMARY);
static_assert((int)ATOMKMS_TOPO_OVERLAY == (int)DRM_PLANE_TYPE_OVERLAY);
static_assert((int)ATOMKMS_TOPO_CURSOR == (int)DRM_PLANE_TYPE_CURSOR);
static_assert(ATOMKMS_TOPO_MAX_CRTC_PLANES == ATOMKMS_COMPOSE_MAX_PLANES);

/* The formats of the compositor's table. */
static_assert(ATOMKMS_FMT_ABGR2101010 == DRM_FORMAT_ABGR2101010);
static_assert(ATOMKMS_FMT_ABGR8888 == DRM_FORMAT_ABGR8888);
static_assert(ATOMKMS_FMT_ARGB1555 == DRM_FORMAT_ARGB1555);
static_assert(ATOMKMS_FMT_ARGB16161616 == DRM_FORMAT_ARGB16161616);
static_assert(ATOMKMS_FMT_ARGB16161616F == DRM_FORMAT_ARGB16161616F);
static_assert(ATOMKMS_FMT_ARGB2101010 == DRM_FORMAT_ARGB2101010);
static_assert(ATOMKMS_FMT_ARGB8888 == DRM_FORMAT_ARGB8888);
static_assert(ATOMKMS_FMT_BGR565 == DRM_FORMAT_BGR565);
static_assert(ATOMKMS_FMT_BGR888 == DRM_FORMAT_BGR888);
static_assert(ATOMKMS_FMT_BGRA8888 == DRM_FORMAT_BGRA8888);
static_assert(ATOMKMS_FMT_BGRX8888 == DRM_FORMAT_BGRX8888);
static_assert(ATOMKMS_FMT_NV12 == DRM_FORMAT_NV12);
static_assert(ATOMKMS_FMT_NV16 == DRM_FORMAT_NV16);
static_assert(ATOMKMS_FMT_NV21 == DRM_FORMAT_NV21);
static_assert(ATOMKMS_FMT_NV24 == DRM_FORMAT_NV24);
static_assert(ATOMKMS_FMT_NV42 == DRM_FORMAT_NV42);
static_assert(ATOMKMS_FMT_NV61 == DRM_FORMAT_NV61);
static_assert(ATOMKMS_FMT_P010 == DRM_FORMAT_P010);
static_assert(ATOMKMS_FMT_RGB565 == DRM_FORMAT_RGB565);
static_assert(ATOMKMS_FMT_RGB888 == DRM_FORMAT_RGB888);
static_assert(ATOMKMS_FMT_RGBA8888 == DRM_FORMAT_RGBA8888);
static_assert(ATOMKMS_FMT_RGBX8888 == DRM_FORMAT_RGBX8888);
static_assert(ATOMKMS_FMT_UYVY == DRM_FORMAT_UYVY);
static_assert(ATOMKMS_FMT_XBGR2101010 == DRM_FORMAT_XBGR2101010);
static_assert(ATOMKMS_FMT_XBGR8888 == DRM_FORMAT_XBGR8888);
static_assert(ATOMKMS_FMT_XRGB1555 == DRM_FORMAT_XRGB1555);
static_assert(ATOMKMS_FMT_XRGB16161616 == DRM_FORMAT_XRGB16161616);
static_assert(ATOMKMS_FMT_XRGB16161616F == DRM_FORMAT_XRGB16161616F);
static_assert(ATOMKMS_FMT_XRGB2101010 == DRM_FORMAT_XRGB2101010);
static_assert(ATOMKMS_FMT_XRGB8888 == DRM_FORMAT_XRGB8888);
static_assert(ATOMKMS_FMT_YUV420 == DRM_FORMAT_YUV420);
static_assert(ATOMKMS_FMT_YUV422 == DRM_FORMAT_YUV422);
static_assert(ATOMKMS_FMT_YUV444 == DRM_FORMAT_YUV444);
static_assert(ATOMKMS_FMT_YUYV == DRM_FORMAT_YUYV);
static_assert(ATOMKMS_FMT_YVU420 == DRM_FORMAT_YVU420);
