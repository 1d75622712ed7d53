// SPDX-License-Identifier: GPL-2.0-only
/*
 * atomkms-info - print the KMS topology of the atomkms device: driver,
 * the kernel and what of its version-dependent uAPI the device offers,
 * capabilities, CRTCs, encoders, connectors with modes, and planes with
 * formats, each with its properties.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "drmutil.h"

static const char *encoder_type(uint32_t type)
{
	static const char * const names[] = {
		[DRM_MODE_ENCODER_NONE] = "None",
		[DRM_MODE_ENCODER_DAC] = "DAC",
		[DRM_MODE_ENCODER_TMDS] = "TMDS",
		[DRM_MODE_ENCODER_LVDS] = "LVDS",
		[DRM_MODE_ENCODER_TVDAC] = "TVDAC",
		[DRM_MODE_ENCODER_VIRTUAL] = "Virtual",
		[DRM_MODE_ENCODER_DSI] = "DSI",
		[DRM_MODE_ENCODER_DPMST] = "DPMST",
		[DRM_MODE_ENCODER_DPI] = "DPI",
	};

	return type < ARRAY_SIZE(names) ? names[type] : "unknown";
}

static const char *connection(drmModeConnection c)
{
	switch (c) {
	case DRM_MODE_CONNECTED:
		return "connected";
	case DRM_MODE_DISCONNECTED:
		return "disconnected";
	default:
		return "unknown";
	}
}

static void print_mode(const drmModeModeInfo *m)
{
	printf("%ux%u@%.2f", m->hdisplay, m->vdisplay, mode_refresh(m));
}

static void print_value(drmModePropertyRes *p, uint64_t val)
{
	const char *sep = "";
	int i;

	if (drm_property_type_is(p, DRM_MODE_PROP_ENUM)) {
		for (i = 0; i < p->count_enums; i++)
			if (p->enums[i].value == val)
				break;
		if (i < p->count_enums)
			printf("%s", p->enums[i].name);
		else
			printf("%" PRIu64 " (not in enum)", val);
	} else if (drm_property_type_is(p, DRM_MODE_PROP_BITMASK)) {
		printf("0x%" PRIx64 " <", val);
		for (i = 0; i < p->count_enums; i++) {
			if (p->enums[i].value < 64 &&
			    (val & (1ull << p->enums[i].value))) {
				printf("%s%s", sep, p->enums[i].name);
				sep = "|";
			}
		}
		printf(">");
	} else if (drm_property_type_is(p, DRM_MODE_PROP_BLOB)) {
		printf("blob %" PRIu64, val);
	} else if (drm_property_type_is(p, DRM_MODE_PROP_OBJECT)) {
		printf("object %" PRIu64, val);
	} else if (drm_property_type_is(p, DRM_MODE_PROP_SIGNED_RANGE)) {
		printf("%" PRId64, (int64_t)val);
	} else {
		printf("%" PRIu64, val);
	}
}

static void print_props(int fd, uint32_t obj, uint32_t type)
{
	drmModeObjectProperties *props;
	uint32_t i;

	props = drmModeObjectGetProperties(fd, obj, type);
	if (!props)
		return;
	printf("    properties:\n");
	for (i = 0; i < props->count_props; i++) {
		drmModePropertyRes *p = drmModeGetProperty(fd, props->props[i]);

		if (!p)
			continue;
		printf("      %s = ", p->name);
		print_value(p, props->prop_values[i]);
		printf("%s\n", p->flags & DRM_MODE_PROP_IMMUTABLE ?
		       " (immutable)" : "");
		drmModeFreeProperty(p);
	}
	drmModeFreeObjectProperties(props);
}

/* Not in every libdrm's drm.h: the 6.19 uAPI's client cap. */
#define ATOMKMS_CLIENT_CAP_PLANE_COLOR_PIPELINE 7

/* Objects of @type with a property called @name. */
static unsigned int count_with_prop(int fd, const uint32_t *ids, unsigned int n,
				    uint32_t type, const char *name)
{
	unsigned int i, found = 0;

	for (i = 0; i < n; i++)
		found += prop_id(fd, ids[i], type, name) != 0;
	return found;
}

/*
 * The running kernel, and what of the uAPI that only some kernels of
 * atomkms's range have this device offers. "kernel" says whether the
 * kernel has the uAPI; the count says how many of atomkms's objects
 * offer it.
 */
static void print_kernel(int fd, const drmModeRes *res)
{
	drmModePlaneRes *planes = drmModeGetPlaneResources(fd);
	unsigned int major = 0, minor = 0, nplanes = planes ? planes->count_planes : 0;
	struct utsname u;
	int fd2, pipeline;

	if (uname(&u))
		strcpy(u.release, "?");
	sscanf(u.release, "%u.%u", &major, &minor);
	printf("kernel: Linux %s (atomkms builds for 6.12 to 7.3)\n", u.release);

	/*
	 * The client cap is per open file: ask on a second one, atomic as
	 * the cap wants. A kernel without the uAPI answers EINVAL, one whose
	 * device has no pipeline EOPNOTSUPP.
	 */
	fd2 = atomkms_open();
	pipeline = -EINVAL;
	if (fd2 >= 0 && !drmSetClientCap(fd2, DRM_CLIENT_CAP_ATOMIC, 1))
		pipeline = drmSetClientCap(fd2, ATOMKMS_CLIENT_CAP_PLANE_COLOR_PIPELINE, 1) ?
			   -errno : 0;
	printf("  colour pipelines (6.19): kernel %s, planes with COLOR_PIPELINE %u of %u\n",
	       pipeline == -EINVAL ? "no" : "yes",
	       !pipeline && planes ? count_with_prop(fd2, planes->planes, nplanes,
						     DRM_MODE_OBJECT_PLANE,
						     "COLOR_PIPELINE") : 0,
	       nplanes);
	if (fd2 >= 0)
		close(fd2);
	printf("  background colour (7.1): kernel %s, CRTCs with BACKGROUND_COLOR %u of %d\n",
	       major > 7 || (major == 7 && minor >= 1) ? "yes" : "no",
	       count_with_prop(fd, res->crtcs, res->count_crtcs,
			       DRM_MODE_OBJECT_CRTC, "BACKGROUND_COLOR"),
	       res->count_crtcs);
	printf("  IN_FORMATS_ASYNC: made by %s, on %u of %u planes\n",
	       major > 6 || (major == 6 && minor >= 16) ? "the kernel (6.16)" : "atomkms",
	       planes ? count_with_prop(fd, planes->planes, nplanes,
					DRM_MODE_OBJECT_PLANE, "IN_FORMATS_ASYNC") : 0,
	       nplanes);
	drmModeFreePlaneResources(planes);
}

static void print_caps(int fd)
{
	static const struct {
		uint64_t cap;
		const char *name;
	} caps[] = {
		{ DRM_CAP_DUMB_BUFFER, "DUMB_BUFFER" },
		{ DRM_CAP_CURSOR_WIDTH, "CURSOR_WIDTH" },
		{ DRM_CAP_CURSOR_HEIGHT, "CURSOR_HEIGHT" },
		{ DRM_CAP_TIMESTAMP_MONOTONIC, "TIMESTAMP_MONOTONIC" },
		{ DRM_CAP_ASYNC_PAGE_FLIP, "ASYNC_PAGE_FLIP" },
		{ DRM_CAP_CRTC_IN_VBLANK_EVENT, "CRTC_IN_VBLANK_EVENT" },
	};
	size_t i;

	printf("caps:\n");
	for (i = 0; i < ARRAY_SIZE(caps); i++) {
		uint64_t val;

		if (drmGetCap(fd, caps[i].cap, &val))
			printf("  %s: unsupported\n", caps[i].name);
		else
			printf("  %s: %" PRIu64 "\n", caps[i].name, val);
	}
}

static void print_crtcs(int fd, const drmModeRes *res)
{
	int i;

	printf("crtcs:\n");
	for (i = 0; i < res->count_crtcs; i++) {
		drmModeCrtc *c = drmModeGetCrtc(fd, res->crtcs[i]);

		if (!c)
			continue;
		printf("  crtc %u (index %d): ", c->crtc_id, i);
		if (c->mode_valid) {
			print_mode(&c->mode);
			printf(" fb %u\n", c->buffer_id);
		} else {
			printf("no mode\n");
		}
		print_props(fd, c->crtc_id, DRM_MODE_OBJECT_CRTC);
		drmModeFreeCrtc(c);
	}
}

static void print_encoders(int fd, const drmModeRes *res)
{
	int i;

	printf("encoders:\n");
	for (i = 0; i < res->count_encoders; i++) {
		drmModeEncoder *e = drmModeGetEncoder(fd, res->encoders[i]);

		if (!e)
			continue;
		printf("  encoder %u: %s, crtc %u, possible_crtcs 0x%x, possible_clones 0x%x\n",
		       e->encoder_id, encoder_type(e->encoder_type),
		       e->crtc_id, e->possible_crtcs, e->possible_clones);
		drmModeFreeEncoder(e);
	}
}

static void print_connectors(int fd, const drmModeRes *res)
{
	int i, j;

	printf("connectors:\n");
	for (i = 0; i < res->count_connectors; i++) {
		drmModeConnector *c = drmModeGetConnector(fd,
							  res->connectors[i]);
		const char *type;

		if (!c)
			continue;
		type = drmModeGetConnectorTypeName(c->connector_type);
		printf("  connector %u: %s-%u, %s, %ux%u mm, encoder %u, encoders",
		       c->connector_id, type ? type : "Unknown",
		       c->connector_type_id, connection(c->connection),
		       c->mmWidth, c->mmHeight, c->encoder_id);
		for (j = 0; j < c->count_encoders; j++)
			printf(" %u", c->encoders[j]);
		printf("\n    modes (%d):\n", c->count_modes);
		for (j = 0; j < c->count_modes; j++) {
			printf("      ");
			print_mode(&c->modes[j]);
			if (c->modes[j].type & DRM_MODE_TYPE_PREFERRED)
				printf(" preferred");
			printf("\n");
		}
		print_props(fd, c->connector_id, DRM_MODE_OBJECT_CONNECTOR);
		drmModeFreeConnector(c);
	}
}

static void print_planes(int fd)
{
	static const char * const types[] = {
		[DRM_PLANE_TYPE_OVERLAY] = "overlay",
		[DRM_PLANE_TYPE_PRIMARY] = "primary",
		[DRM_PLANE_TYPE_CURSOR] = "cursor",
	};
	drmModePlaneRes *planes = drmModeGetPlaneResources(fd);
	uint32_t i, j;

	printf("planes:\n");
	if (!planes)
		return;
	for (i = 0; i < planes->count_planes; i++) {
		drmModePlane *p = drmModeGetPlane(fd, planes->planes[i]);
		uint64_t type;
		const char *tname = "unknown";

		if (!p)
			continue;
		if (!prop_get(fd, p->plane_id, DRM_MODE_OBJECT_PLANE, "type",
			      &type) && type < ARRAY_SIZE(types))
			tname = types[type];
		printf("  plane %u: %s, possible_crtcs 0x%x, crtc %u, fb %u\n",
		       p->plane_id, tname, p->possible_crtcs, p->crtc_id,
		       p->fb_id);
		printf("    formats:");
		for (j = 0; j < p->count_formats; j++) {
			uint32_t f = p->formats[j];

			printf(" %c%c%c%c", f & 0xff, (f >> 8) & 0xff,
			       (f >> 16) & 0xff, f >> 24);
		}
		printf("\n");
		print_props(fd, p->plane_id, DRM_MODE_OBJECT_PLANE);
		drmModeFreePlane(p);
	}
	drmModeFreePlaneResources(planes);
}

int main(void)
{
	drmVersion *ver;
	drmModeRes *res;
	int fd;

	fd = atomkms_open();
	if (fd < 0)
		return 1;

	ver = drmGetVersion(fd);
	if (ver) {
		printf("driver: %s %d.%d.%d (%s, %s)\n", ver->name,
		       ver->version_major, ver->version_minor,
		       ver->version_patchlevel, ver->desc, ver->date);
		drmFreeVersion(ver);
	}
	/* List writeback connectors too (hidden from clients by default). */
	drmSetClientCap(fd, DRM_CLIENT_CAP_WRITEBACK_CONNECTORS, 1);

	res = drmModeGetResources(fd);
	if (!res) {
		perror("drmModeGetResources");
		close(fd);
		return 1;
	}
	print_kernel(fd, res);
	print_caps(fd);
	printf("fb size: %ux%u to %ux%u\n", res->min_width, res->min_height,
	       res->max_width, res->max_height);
	print_crtcs(fd, res);
	print_encoders(fd, res);
	print_connectors(fd, res);
	print_planes(fd);

	drmModeFreeResources(res);
	close(fd);
	return 0;
}
