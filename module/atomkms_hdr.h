/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * HDR output on a display connector whose simulated monitor does HDR
 * (hdr_mask, configfs hdr): the HDR_OUTPUT_METADATA and Colorspace
 * properties, the metadata checked against the sink's EDID, and a debugfs
 * file showing what would be sent (atomkms_hdr.c).
 */
#ifndef ATOMKMS_HDR_H
#define ATOMKMS_HDR_H

#include <linux/types.h>

#include "atomkms_compat.h"

struct dentry;
struct drm_atomic_commit;
struct drm_connector;

int atomkms_hdr_init(struct drm_connector *connector, bool hdr);
int atomkms_hdr_atomic_check(struct drm_connector *connector,
			     struct drm_atomic_commit *state);
void atomkms_hdr_debugfs_init(struct drm_connector *connector,
			      struct dentry *root);

#endif /* ATOMKMS_HDR_H */
