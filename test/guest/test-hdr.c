// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-hdr: HDR output (module/atomkms_hdr.c) on a configfs device with
 * two HDR monitors, a Virtual one on CRTC 0 (connector n0, DisplayPort's
 * Colorspace list; hdr left at its default, 1) and an HDMI one (n1,
 * HDMI's list), and a Virtual monitor without HDR (n2, hdr 0). It checks
 * the configfs hdr attribute's default (1) and bad values (EINVAL) and
 * that it is EBUSY on the enabled device; that
 * HDR_OUTPUT_METADATA and Colorspace are on n0 and n1 only, and
 * Colorspace offers Default, BT2020_RGB and BT2020_YCC; that the EDIDs
 * read back through the EDID property carry the CTA-861.3 HDR static
 * metadata block (SDR, ST2084, HLG; type 1) and the BT.2020 colorimetry
 * block, n2's neither; that metadata with ST2084 are accepted by
 * TEST_ONLY and a real commit, without ALLOW_MODESET, and shown in
 * debugfs hdr_output_metadata; that sizes 1, sizeof - 1 and sizeof + 1,
 * a type other than static type 1 and EOTFs the sink does not declare
 * are refused with EINVAL by both; that Colorspace BT2020_RGB is accepted
 * and shown; that removing the metadata is accepted.
 *
 * Usage: test-hdr
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include "tap.h"
#include "../../userspace/drmutil.h"

#define ROOT "/sys/kernel/config/atomkms"
#define P(fmt, ...) sf(ROOT "/" fmt, ##__VA_ARGS__)

/* CTA-861.3's values, as the kernel's linux/hdmi.h names them. */
#define STATIC_METADATA_TYPE1	0
#define EOTF_SDR		0
#define EOTF_TRADITIONAL_HDR	1
#define EOTF_ST2084		2
#define EOTF_HLG		3

static const char *const dev_script[] = {
	"mkdir hr",
	"mkdir hr/crtcs/c0", "mkdir hr/crtcs/c1",
	"mkdir hr/planes/p0", "put hr/planes/p0/type 1",
	"ln hr/planes/p0/possible_crtcs hr/crtcs/c0",
	"mkdir hr/planes/p1", "put hr/planes/p1/type 1",
	"ln hr/planes/p1/possible_crtcs hr/crtcs/c1",
	"mkdir hr/encoders/e0", "ln hr/encoders/e0/possible_crtcs hr/crtcs/c0",
	"mkdir hr/encoders/e1", "ln hr/encoders/e1/possible_crtcs hr/crtcs/c1",
	"mkdir hr/encoders/e2", "ln hr/encoders/e2/possible_crtcs hr/crtcs/c1",
	"mkdir hr/connectors/n0",
	"ln hr/connectors/n0/possible_encoders hr/encoders/e0",
	"mkdir hr/connectors/n1", "put hr/connectors/n1/type HDMI-A",
	"put hr/connectors/n1/hdr 1",
	"ln hr/connectors/n1/possible_encoders hr/encoders/e1",
	"mkdir hr/connectors/n2", "put hr/connectors/n2/hdr 0",
	"ln hr/connectors/n2/possible_encoders hr/encoders/e2",
	NULL
};

static const char *err(int e)
{
	return e ? strerror(-e) : "success";
}

static void teardown(void)
{
	atomkms_cfs_remove(P("hr"));
}

struct hr {
	int fd;
	uint32_t conn[3];
	uint32_t hdr_prop, cs_prop;
	struct kms_pipe pipe;
	struct dumb_fb fb;
	uint32_t mode_blob;
};

static const char *read_line(const char *path)
{
	char buf[64];
	int f = open(path, O_RDONLY | O_CLOEXEC), n;

	if (f < 0)
		return sf("(%s)", strerror(errno));
	n = read(f, buf, sizeof(buf) - 1);
	close(f);
	if (n < 0)
		return "(read failed)";
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	return sf("%s", buf);
}

/*
 * The whole of connector @conn's debugfs file @file, or "(errno text)";
 * static, overwritten by the next call.
 */
static const char *conn_debugfs(int fd, uint32_t conn, const char *file)
{
	static char buf[2048];
	drmModeConnector *c = drmModeGetConnectorCurrent(fd, conn);
	const char *type = c ? drmModeGetConnectorTypeName(c->connector_type) : NULL;
	struct stat st;
	int n = -ENODEV, f, r;

	if (access("/sys/kernel/debug/dri", F_OK))
		mount("none", "/sys/kernel/debug", "debugfs", 0, NULL);
	if (c && type && !fstat(fd, &st)) {
		f = open(sf("/sys/kernel/debug/dri/%u/%s-%u/%s", minor(st.st_rdev), type,
			    c->connector_type_id, file), O_RDONLY | O_CLOEXEC);
		n = f < 0 ? -errno : 0;
		while (f >= 0 && n < (int)sizeof(buf) - 1 &&
		       (r = read(f, buf + n, sizeof(buf) - 1 - n)) > 0)
			n += r;
		if (f >= 0)
			close(f);
	}
	drmModeFreeConnector(c);
	if (n < 0) {
		snprintf(buf, sizeof(buf), "(%s)", strerror(-n));
		return buf;
	}
	buf[n] = 0;
	return buf;
}

/* Does debugfs hdr_output_metadata of @conn have the line @line? */
static bool debugfs_has(struct hr *h, uint32_t conn, const char *line)
{
	const char *s = conn_debugfs(h->fd, conn, "hdr_output_metadata");
	size_t n = strlen(line);

	for (; s && *s; s = strchr(s, '\n') ? strchr(s, '\n') + 1 : NULL)
		if (!strncmp(s, line, n) && (s[n] == '\n' || s[n] == 0))
			return true;
	return false;
}

/* The data block payload of extended tag @tag in @edid's CTA extensions. */
static const uint8_t *cta_ext_db(const uint8_t *edid, size_t len, int tag, int *n)
{
	size_t b;

	for (b = 128; b + 128 <= len; b += 128) {
		const uint8_t *x = edid + b;
		int i = 4, end = x[2];

		if (x[0] != 0x02 || end < 4 || end > 127)
			continue;
		while (i < end) {
			int t = x[i] >> 5, l = x[i] & 0x1f;

			if (t == 7 && l >= 1 && x[i + 1] == tag) {
				*n = l - 1;
				return x + i + 2;
			}
			i += 1 + l;
		}
	}
	return NULL;
}

/* Connector @conn's EDID property blob, for @fn; false if none. */
static bool with_edid(struct hr *h, uint32_t conn,
		      void (*fn)(struct hr *h, const uint8_t *edid, size_t len))
{
	drmModePropertyBlobRes *blob;
	uint64_t id = 0;

	if (prop_get(h->fd, conn, DRM_MODE_OBJECT_CONNECTOR, "EDID", &id) || !id)
		return false;
	blob = drmModeGetPropertyBlob(h->fd, (uint32_t)id);
	if (!blob)
		return false;
	fn(h, blob->data, blob->length);
	drmModeFreePropertyBlob(blob);
	return true;
}

static void check_hdr_edid(struct hr *h, const uint8_t *edid, size_t len)
{
	const uint8_t *hdr, *cm;
	int n = 0, m = 0;

	(void)h;
	hdr = cta_ext_db(edid, len, 6, &n);
	cm = cta_ext_db(edid, len, 5, &m);
	check(hdr && n >= 2 && hdr[0] == 0x0d && hdr[1] == 0x01,
	      "n0: its EDID has an HDR static metadata block: SDR, ST2084, HLG; type 1",
	      hdr ? sf("%d bytes, %02x %02x", n, hdr[0], n > 1 ? hdr[1] : 0) : "none");
	check(hdr && n == 5 && hdr[2] == 138 && hdr[3] == 96 && hdr[4] == 18,
	      "n0: luminance code values 138, 96, 18 (1000, 400, 0.05 cd/m^2)",
	      hdr && n == 5 ? sf("%u %u %u", hdr[2], hdr[3], hdr[4]) : "missing");
	check(cm && m == 2 && cm[0] == 0xc0,
	      "n0: its EDID has a colorimetry block: BT2020 RGB and YCC",
	      cm ? sf("%d bytes, %02x", m, cm[0]) : "none");
}

static void check_sdr_edid(struct hr *h, const uint8_t *edid, size_t len)
{
	int n;

	(void)h;
	check(len >= 256 && !cta_ext_db(edid, len, 6, &n) && !cta_ext_db(edid, len, 5, &n),
	      "n2: its EDID has neither block", sf("%zu bytes", len));
}

static bool setup(struct hr *h)
{
	static const char *const cs_names[] = { "Default", "BT2020_RGB", "BT2020_YCC" };
	drmModeRes *res = drmModeGetResources(h->fd);
	uint64_t v;
	unsigned int i, k;
	struct areq r;
	int ret;

	if (!check(res && res->count_connectors == 3, "the device has three connectors",
		   "not so")) {
		drmModeFreeResources(res);
		return false;
	}
	for (i = 0; i < 3; i++)
		h->conn[i] = res->connectors[i];
	drmModeFreeResources(res);
	/* Probe each: the EDID property and the sink's HDR caps come with it. */
	for (i = 0; i < 3; i++)
		drmModeFreeConnector(drmModeGetConnector(h->fd, h->conn[i]));

	h->hdr_prop = prop_id(h->fd, h->conn[0], DRM_MODE_OBJECT_CONNECTOR,
			      "HDR_OUTPUT_METADATA");
	h->cs_prop = prop_id(h->fd, h->conn[0], DRM_MODE_OBJECT_CONNECTOR, "Colorspace");
	check(h->hdr_prop && h->cs_prop, "n0 (Virtual, hdr by default): HDR_OUTPUT_METADATA and Colorspace",
	      "missing");
	check(prop_id(h->fd, h->conn[1], DRM_MODE_OBJECT_CONNECTOR, "HDR_OUTPUT_METADATA") &&
	      prop_id(h->fd, h->conn[1], DRM_MODE_OBJECT_CONNECTOR, "Colorspace"),
	      "n1 (HDMI-A, hdr 1): HDR_OUTPUT_METADATA and Colorspace", "missing");
	check(!prop_id(h->fd, h->conn[2], DRM_MODE_OBJECT_CONNECTOR, "HDR_OUTPUT_METADATA") &&
	      !prop_id(h->fd, h->conn[2], DRM_MODE_OBJECT_CONNECTOR, "Colorspace"),
	      "n2 (Virtual, hdr 0): neither property", "present");
	for (k = 0; k < 2; k++)
		for (i = 0; i < 3; i++)
			check(!prop_enum(h->fd, h->conn[k], DRM_MODE_OBJECT_CONNECTOR,
					 "Colorspace", cs_names[i], &v),
			      sf("n%u: Colorspace offers %s", k, cs_names[i]), "missing");
	check(prop_enum(h->fd, h->conn[0], DRM_MODE_OBJECT_CONNECTOR, "Colorspace",
			"opRGB", &v) != 0,
	      "n0: Colorspace offers no colorimetry the EDID does not declare (opRGB)",
	      "opRGB offered");
	check(!prop_get(h->fd, h->conn[0], DRM_MODE_OBJECT_CONNECTOR, "Colorspace", &v) &&
	      v == 0, "n0: Colorspace Default at first", sf("%llu", (unsigned long long)v));

	check(with_edid(h, h->conn[0], check_hdr_edid), "n0: an EDID", "none");
	check(with_edid(h, h->conn[2], check_sdr_edid), "n2: an EDID", "none");
	check(debugfs_has(h, h->conn[0], "metadata: none") &&
	      debugfs_has(h, h->conn[0], "colorspace: Default") &&
	      debugfs_has(h, h->conn[0], "sink_eotfs: SDR ST2084 HLG"),
	      "n0: debugfs hdr_output_metadata: Default, no metadata, the sink's EOTFs",
	      conn_debugfs(h->fd, h->conn[0], "hdr_output_metadata"));
	check(conn_debugfs(h->fd, h->conn[2], "hdr_output_metadata")[0] == '(',
	      "n2: no debugfs hdr_output_metadata",
	      conn_debugfs(h->fd, h->conn[2], "hdr_output_metadata"));

	check(write_str(P("hr/connectors/n0/hdr"), "0") == -EBUSY &&
	      !strcmp(read_line(P("hr/connectors/n0/hdr")), "1"),
	      "configfs hdr: EBUSY on the enabled device, still 1",
	      read_line(P("hr/connectors/n0/hdr")));

	if (!check(kms_pipe_find(h->fd, &h->pipe) == 0 && h->pipe.conn == h->conn[0],
		   "a pipe on n0", "none"))
		return false;
	if (dumb_fb_create(h->fd, h->pipe.mode.hdisplay, h->pipe.mode.vdisplay, &h->fb) ||
	    drmModeCreatePropertyBlob(h->fd, &h->pipe.mode, sizeof(h->pipe.mode),
				      &h->mode_blob))
		return check(false, "a framebuffer and a mode", strerror(errno));
	areq_init(&r, h->fd);
	areq_modeset(&r, &h->pipe, h->mode_blob, &h->fb);
	areq_add(&r, h->conn[0], DRM_MODE_OBJECT_CONNECTOR, "max bpc", 10);
	ret = areq_commit(&r, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
	areq_fini(&r);
	return check(ret == 0, "n0 on, max bpc 10", err(ret));
}

/* PQ metadata of a BT.2020 mastering display: 1000 nits, MaxCLL 1000, FALL 400. */
static void st2084(struct hdr_output_metadata *md)
{
	memset(md, 0, sizeof(*md));
	md->metadata_type = STATIC_METADATA_TYPE1;
	md->hdmi_metadata_type1.eotf = EOTF_ST2084;
	md->hdmi_metadata_type1.metadata_type = STATIC_METADATA_TYPE1;
	/* R, G, B, white in 0.00002 units. */
	md->hdmi_metadata_type1.display_primaries[0].x = 35400;
	md->hdmi_metadata_type1.display_primaries[0].y = 14600;
	md->hdmi_metadata_type1.display_primaries[1].x = 8500;
	md->hdmi_metadata_type1.display_primaries[1].y = 39850;
	md->hdmi_metadata_type1.display_primaries[2].x = 6550;
	md->hdmi_metadata_type1.display_primaries[2].y = 2300;
	md->hdmi_metadata_type1.white_point.x = 15635;
	md->hdmi_metadata_type1.white_point.y = 16450;
	md->hdmi_metadata_type1.max_display_mastering_luminance = 1000;
	md->hdmi_metadata_type1.min_display_mastering_luminance = 500;
	md->hdmi_metadata_type1.max_cll = 1000;
	md->hdmi_metadata_type1.max_fall = 400;
}

/*
 * Commit connector @conn's HDR_OUTPUT_METADATA as blob @blob (0: none),
 * and Colorspace @cs unless negative, with @flags: 0 or a negative errno.
 */
static int commit_hdr(struct hr *h, uint32_t conn, uint32_t blob, int64_t cs,
		      uint32_t flags)
{
	struct areq r;
	int ret;

	areq_init(&r, h->fd);
	areq_add_id(&r, conn, h->hdr_prop, blob);
	if (cs >= 0)
		areq_add_id(&r, conn, h->cs_prop, (uint64_t)cs);
	ret = areq_commit(&r, flags, NULL);
	areq_fini(&r);
	return ret;
}

/* A blob of @size bytes of @data (zero-padded): its id, or 0. */
static uint32_t blob_of(struct hr *h, const void *data, size_t size)
{
	uint8_t buf[sizeof(struct hdr_output_metadata) + 16];
	uint32_t id = 0;

	memset(buf, 0, sizeof(buf));
	memcpy(buf, data, size < sizeof(struct hdr_output_metadata) ? size :
	       sizeof(struct hdr_output_metadata));
	if (drmModeCreatePropertyBlob(h->fd, buf, size, &id))
		return 0;
	return id;
}

/* Both TEST_ONLY and a real commit of @blob on @conn answer @want. */
static void expect_both(struct hr *h, uint32_t conn, uint32_t blob, int want,
			const char *what)
{
	int t = commit_hdr(h, conn, blob, -1, DRM_MODE_ATOMIC_TEST_ONLY);
	int c = commit_hdr(h, conn, blob, -1, 0);

	check(blob && t == want && c == want,
	      sf("%s: %s by TEST_ONLY and a commit", what, want ? "EINVAL" : "accepted"),
	      blob ? sf("TEST_ONLY %s, commit %s", err(t), err(c)) : "no blob");
}

static void test_metadata(struct hr *h)
{
	static const size_t bad_sizes[] = {
		1, sizeof(struct hdr_output_metadata) - 1,
		sizeof(struct hdr_output_metadata) + 1,
	};
	struct hdr_output_metadata md;
	uint64_t v = 0, rgb = 0;
	uint32_t good, blob;
	unsigned int i;

	st2084(&md);
	good = blob_of(h, &md, sizeof(md));
	/* Flags 0: a change of metadata is no modeset. */
	expect_both(h, h->conn[0], good, 0, "ST2084 metadata, without ALLOW_MODESET");
	check(!prop_get(h->fd, h->conn[0], DRM_MODE_OBJECT_CONNECTOR, "HDR_OUTPUT_METADATA",
			&v) && v == good, "HDR_OUTPUT_METADATA reads the blob committed",
	      sf("%llu, not %u", (unsigned long long)v, good));
	check(debugfs_has(h, h->conn[0], "metadata: static type 1") &&
	      debugfs_has(h, h->conn[0], "eotf: ST2084") &&
	      debugfs_has(h, h->conn[0],
			  "display_primaries: (35400,14600) (8500,39850) (6550,2300)") &&
	      debugfs_has(h, h->conn[0], "white_point: (15635,16450)") &&
	      debugfs_has(h, h->conn[0], "max_display_mastering_luminance: 1000") &&
	      debugfs_has(h, h->conn[0], "min_display_mastering_luminance: 500") &&
	      debugfs_has(h, h->conn[0], "max_cll: 1000") &&
	      debugfs_has(h, h->conn[0], "max_fall: 400"),
	      "debugfs hdr_output_metadata shows them",
	      conn_debugfs(h->fd, h->conn[0], "hdr_output_metadata"));

	for (i = 0; i < sizeof(bad_sizes) / sizeof(bad_sizes[0]); i++) {
		blob = blob_of(h, &md, bad_sizes[i]);
		expect_both(h, h->conn[0], blob, -EINVAL,
			    sf("metadata of %zu bytes", bad_sizes[i]));
		if (blob)
			drmModeDestroyPropertyBlob(h->fd, blob);
	}

	st2084(&md);
	md.metadata_type = 1;
	blob = blob_of(h, &md, sizeof(md));
	expect_both(h, h->conn[0], blob, -EINVAL, "metadata type 1 (not static type 1)");
	if (blob)
		drmModeDestroyPropertyBlob(h->fd, blob);
	st2084(&md);
	md.hdmi_metadata_type1.metadata_type = 7;
	blob = blob_of(h, &md, sizeof(md));
	expect_both(h, h->conn[0], blob, -EINVAL, "infoframe metadata type 7");
	if (blob)
		drmModeDestroyPropertyBlob(h->fd, blob);

	/* The sink declares SDR, ST2084 and HLG: not traditional HDR, nor 4. */
	for (i = EOTF_TRADITIONAL_HDR; i <= 4; i += 3) {
		st2084(&md);
		md.hdmi_metadata_type1.eotf = (uint8_t)i;
		blob = blob_of(h, &md, sizeof(md));
		expect_both(h, h->conn[0], blob, -EINVAL,
			    sf("EOTF %u, which the sink does not declare", i));
		if (blob)
			drmModeDestroyPropertyBlob(h->fd, blob);
	}
	check(!prop_get(h->fd, h->conn[0], DRM_MODE_OBJECT_CONNECTOR, "HDR_OUTPUT_METADATA",
			&v) && v == good && debugfs_has(h, h->conn[0], "eotf: ST2084"),
	      "the refused metadata changed nothing", sf("%llu", (unsigned long long)v));

	/* On the HDMI monitor, with no CRTC: checked all the same. */
	st2084(&md);
	md.hdmi_metadata_type1.eotf = EOTF_HLG;
	blob = blob_of(h, &md, sizeof(md));
	check(commit_hdr(h, h->conn[1], blob, -1, DRM_MODE_ATOMIC_TEST_ONLY) == 0,
	      "n1 (HDMI-A): HLG metadata accepted by TEST_ONLY", "refused");
	if (blob)
		drmModeDestroyPropertyBlob(h->fd, blob);
	md.hdmi_metadata_type1.eotf = EOTF_TRADITIONAL_HDR;
	blob = blob_of(h, &md, sizeof(md));
	check(commit_hdr(h, h->conn[1], blob, -1, DRM_MODE_ATOMIC_TEST_ONLY) == -EINVAL,
	      "n1 (HDMI-A): traditional-HDR metadata refused by TEST_ONLY", "not EINVAL");
	if (blob)
		drmModeDestroyPropertyBlob(h->fd, blob);

	/* Colorspace BT2020_RGB with the metadata, and SDR metadata. */
	if (check(!prop_enum(h->fd, h->conn[0], DRM_MODE_OBJECT_CONNECTOR, "Colorspace",
			     "BT2020_RGB", &rgb), "BT2020_RGB's value", "missing")) {
		int t = commit_hdr(h, h->conn[0], good, (int64_t)rgb,
				   DRM_MODE_ATOMIC_TEST_ONLY);
		int c = commit_hdr(h, h->conn[0], good, (int64_t)rgb, 0);

		check(!t && !c, "Colorspace BT2020_RGB: accepted by TEST_ONLY and a commit, "
		      "without ALLOW_MODESET", sf("TEST_ONLY %s, commit %s", err(t), err(c)));
		check(!prop_get(h->fd, h->conn[0], DRM_MODE_OBJECT_CONNECTOR, "Colorspace",
				&v) && v == rgb &&
		      debugfs_has(h, h->conn[0], "colorspace: BT2020_RGB"),
		      "Colorspace reads BT2020_RGB, debugfs too",
		      conn_debugfs(h->fd, h->conn[0], "hdr_output_metadata"));
	}
	st2084(&md);
	md.hdmi_metadata_type1.eotf = EOTF_SDR;
	blob = blob_of(h, &md, sizeof(md));
	expect_both(h, h->conn[0], blob, 0, "SDR metadata (declared)");
	check(debugfs_has(h, h->conn[0], "eotf: SDR"), "debugfs: eotf SDR",
	      conn_debugfs(h->fd, h->conn[0], "hdr_output_metadata"));
	if (blob)
		drmModeDestroyPropertyBlob(h->fd, blob);

	/* No metadata, Default colorimetry again. */
	check(commit_hdr(h, h->conn[0], 0, 0, 0) == 0 &&
	      debugfs_has(h, h->conn[0], "metadata: none") &&
	      debugfs_has(h, h->conn[0], "colorspace: Default"),
	      "metadata removed and Default again: accepted, debugfs says so",
	      conn_debugfs(h->fd, h->conn[0], "hdr_output_metadata"));
	if (good)
		drmModeDestroyPropertyBlob(h->fd, good);
}

/* Before the device is enabled: the hdr attribute's values. */
static void test_configfs(void)
{
	check(!strcmp(read_line(P("hr/connectors/n0/hdr")), "1"), "configfs hdr: 1 by default",
	      read_line(P("hr/connectors/n0/hdr")));
	check(write_str(P("hr/connectors/n2/hdr"), "2") == -EINVAL, "configfs hdr 2: EINVAL",
	      "not so");
	check(write_str(P("hr/connectors/n2/hdr"), "x") == -EINVAL, "configfs hdr x: EINVAL",
	      "not so");
	check(write_str(P("hr/connectors/n2/hdr"), "1") == 0 &&
	      !strcmp(read_line(P("hr/connectors/n2/hdr")), "1") &&
	      write_str(P("hr/connectors/n2/hdr"), "0") == 0 &&
	      !strcmp(read_line(P("hr/connectors/n2/hdr")), "0"),
	      "configfs hdr: 1 and 0 taken, read back", read_line(P("hr/connectors/n2/hdr")));
}

int main(void)
{
	struct hr h = { .fd = -1 };
	uint64_t before;

	if (access("/sys/kernel/config", F_OK) == 0 && access(ROOT, F_OK) != 0)
		mount("none", "/sys/kernel/config", "configfs", 0, NULL);
	if (!check(access(ROOT, F_OK) == 0, "configfs has atomkms", ROOT " missing"))
		return tap_done("test-hdr");
	teardown();
	before = atomkms_card_mask();
	if (!check(!atomkms_cfs_build(ROOT, dev_script), "a device with two HDR monitors and one without",
		   "see above"))
		goto out;
	test_configfs();
	if (!check(!write_str(P("hr/enabled"), "1"), "the device enabled", "refused"))
		goto out;
	h.fd = atomkms_open_card(atomkms_card_mask() & ~before);
	if (!check(h.fd >= 0, "its card", "missing"))
		goto out;
	if (setup(&h))
		test_metadata(&h);
	if (h.fb.fb_id)
		dumb_fb_destroy(h.fd, &h.fb);
out:
	check(write_str(P("hr/enabled"), "0") == 0, "the device disabled", "refused");
	if (h.fd >= 0)
		close(h.fd);
	teardown();
	check(atomkms_card_mask() == before, "its card is gone", "still there");
	return tap_done("test-hdr");
}
