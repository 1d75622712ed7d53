/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The compositor's line loops the module runs (include/atomkms_simd.h),
 * chosen once at load: module/atomkms_simd_choice.c.
 */
#ifndef ATOMKMS_SIMD_CHOICE_H
#define ATOMKMS_SIMD_CHOICE_H

struct atomkms_simd_ops;
struct drm_device;

int atomkms_simd_init(void);
const struct atomkms_simd_ops *atomkms_simd_get(void);
void atomkms_simd_debugfs_init(struct drm_device *drm);

#endif /* ATOMKMS_SIMD_CHOICE_H */
