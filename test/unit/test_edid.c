// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for module/core/atomkms_edid.c: the bytes of the base block and the
 * CTA-861 extension, decoded back by a small decoder here, and the whole
 * EDID checked independently by edid-decode --check.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "atomkms_edid.h"
#include "check.h"

/* CEA 1920x1080p60: 2200x1125 totals. */
static const struct atomkms_edid_desc d1080 = {
	.name = "atomkms-0",
	.product = 0,
	.serial = 1,
	.preferred = {
		.clock_khz = 148500,
		.hdisplay = 1920, .hsync_start = 2008, .hsync_end = 2052,
		.htotal = 2200,
		.vdisplay = 1080, .vsync_start = 1084, .vsync_end = 1089,
		.vtotal = 1125,
		.hsync_positive = true, .vsync_positive = true,
	},
	.min_vrefresh = 50, .max_vrefresh = 75,
	.max_clock_khz = 170000,
	.width_mm = 527, .height_mm = 296,
};

/* 2560x1440 at 144 Hz, reduced blanking, adaptive sync 48-240 Hz. */
static const struct atomkms_edid_desc d1440 = {
	.name = "atomkms-1",
	.product = 1,
	.serial = 4000000001U,	/* above INT_MAX */
	.preferred = {
		.clock_khz = 586580,
		.hdisplay = 2560, .hsync_start = 2568, .hsync_end = 2600,
		.htotal = 2640,
		.vdisplay = 1440, .vsync_start = 1443, .vsync_end = 1448,
		.vtotal = 1543,
		.hsync_positive = true, .vsync_positive = false,
	},
	.min_vrefresh = 48, .max_vrefresh = 240,
	.max_clock_khz = 600000,
	.width_mm = 597, .height_mm = 336,
	.vrr = true,
	.bpc = 10,
};

/* CEA 1280x720p60, low maximum clock: no 1080p or 4K VICs. */
static const struct atomkms_edid_desc d720 = {
	.name = "atomkms-2",
	.product = 2,
	.serial = 0,
	.preferred = {
		.clock_khz = 74250,
		.hdisplay = 1280, .hsync_start = 1390, .hsync_end = 1430,
		.htotal = 1650,
		.vdisplay = 720, .vsync_start = 725, .vsync_end = 730,
		.vtotal = 750,
		.hsync_positive = true, .vsync_positive = true,
	},
	.min_vrefresh = 59, .max_vrefresh = 61,
	.max_clock_khz = 80000,
	.width_mm = 0, .height_mm = 0,
};

/* CEA 3840x2160p60: 594 MHz, 4400x2250 totals; adaptive sync 24-60 Hz. */
static const struct atomkms_edid_desc d2160 = {
	.name = "atomkms-uhd-3",
	.product = 3,
	.serial = 3,
	.preferred = {
		.clock_khz = 594000,
		.hdisplay = 3840, .hsync_start = 4016, .hsync_end = 4104,
		.htotal = 4400,
		.vdisplay = 2160, .vsync_start = 2168, .vsync_end = 2178,
		.vtotal = 2250,
		.hsync_positive = true, .vsync_positive = true,
	},
	.min_vrefresh = 24, .max_vrefresh = 60,
	.max_clock_khz = 600000,
	.width_mm = 698, .height_mm = 393,
	.vrr = true,
	.bpc = 12,
};

/* 1280x720 at 300 Hz: the maximum vertical rate needs the 1.4 offset. */
static const struct atomkms_edid_desc d300 = {
	.name = "atomkms-300hz",
	.product = 4,
	.serial = 4,
	.preferred = {
		.clock_khz = 328320,
		.hdisplay = 1280, .hsync_start = 1328, .hsync_end = 1360,
		.htotal = 1440,
		.vdisplay = 720, .vsync_start = 723, .vsync_end = 728,
		.vtotal = 760,
		.hsync_positive = true, .vsync_positive = false,
	},
	.min_vrefresh = 48, .max_vrefresh = 300,
	.max_clock_khz = 340000,
	.width_mm = 344, .height_mm = 194,
	.vrr = true,
};

/* 1280x720 at 400 Hz: its 304 kHz line rate needs the horizontal offset. */
static const struct atomkms_edid_desc d400 = {
	.name = "a-very-long-monitor-name",
	.product = 5,
	.serial = 5,
	.preferred = {
		.clock_khz = 437760,
		.hdisplay = 1280, .hsync_start = 1328, .hsync_end = 1360,
		.htotal = 1440,
		.vdisplay = 720, .vsync_start = 723, .vsync_end = 728,
		.vtotal = 760,
		.hsync_positive = false, .vsync_positive = false,
	},
	.min_vrefresh = 48, .max_vrefresh = 400,
	.max_clock_khz = 440000,
	.width_mm = 344, .height_mm = 194,
	.vrr = false,
};

static u8 block_sum(const u8 *block)
{
	u8 sum = 0;
	int i;

	for (i = 0; i < 128; i++)
		sum += block[i];
	return sum;
}

/* Decode an 18-byte Detailed Timing Descriptor, independently of the code. */
static void decode_dtd(const u8 *p, struct atomkms_timing *m,
		       unsigned int *width_mm, unsigned int *height_mm,
		       unsigned int *flags)
{
	unsigned int hblank = p[3] | (p[4] & 0x0f) << 8;
	unsigned int vblank = p[6] | (p[7] & 0x0f) << 8;
	unsigned int hso = p[8] | (p[11] >> 6) << 8;
	unsigned int hsw = p[9] | ((p[11] >> 4) & 3) << 8;
	unsigned int vso = (p[10] >> 4) | ((p[11] >> 2) & 3) << 4;
	unsigned int vsw = (p[10] & 0x0f) | (p[11] & 3) << 4;

	memset(m, 0, sizeof(*m));
	m->clock_khz = (p[0] | p[1] << 8) * 10;
	m->hdisplay = p[2] | (p[4] >> 4) << 8;
	m->hsync_start = m->hdisplay + hso;
	m->hsync_end = m->hsync_start + hsw;
	m->htotal = m->hdisplay + hblank;
	m->vdisplay = p[5] | (p[7] >> 4) << 8;
	m->vsync_start = m->vdisplay + vso;
	m->vsync_end = m->vsync_start + vsw;
	m->vtotal = m->vdisplay + vblank;
	m->hsync_positive = p[17] & 0x02;
	m->vsync_positive = p[17] & 0x04;
	*width_mm = p[12] | (p[14] >> 4) << 8;
	*height_mm = p[13] | (p[14] & 0x0f) << 8;
	*flags = p[17];
}

static int same_mode(const struct atomkms_timing *a,
		     const struct atomkms_timing *b)
{
	return a->clock_khz == b->clock_khz &&
	       a->hdisplay == b->hdisplay && a->hsync_start == b->hsync_start &&
	       a->hsync_end == b->hsync_end && a->htotal == b->htotal &&
	       a->vdisplay == b->vdisplay && a->vsync_start == b->vsync_start &&
	       a->vsync_end == b->vsync_end && a->vtotal == b->vtotal &&
	       a->hsync_positive == b->hsync_positive &&
	       a->vsync_positive == b->vsync_positive;
}

/* The 13-byte text of a display descriptor, without its terminator. */
static void descriptor_text(const u8 *p, char *out)
{
	int i;

	for (i = 0; i < 13 && p[5 + i] != 0x0a; i++)
		out[i] = p[5 + i];
	out[i] = '\0';
	/* After the line feed, only spaces. */
	for (i++; i < 13; i++)
		if (p[5 + i] != 0x20)
			out[0] = '!';
}

/* The VICs of the extension's Video Data Block, 0-terminated. */
static void cta_vics(const u8 *ext, u8 *vics)
{
	int d = ext[2], i = 4, n = 0;

	while (i < d) {
		int tag = ext[i] >> 5, len = ext[i] & 0x1f, j;

		if (tag == 2)
			for (j = 0; j < len; j++)
				vics[n++] = ext[i + 1 + j] & 0x7f;
		i += 1 + len;
	}
	vics[n] = 0;
}

/*
 * The payload of the extension's extended-tag data block @ext_tag (its
 * length in *@len), or NULL; walks the collection as DRM does.
 */
static const u8 *cta_ext_db(const u8 *ext, int ext_tag, int *len)
{
	int d = ext[2], i = 4;

	while (i < d) {
		int tag = ext[i] >> 5, n = ext[i] & 0x1f;

		if (tag == 7 && n >= 1 && ext[i + 1] == ext_tag) {
			*len = n - 1;
			return ext + i + 2;
		}
		i += 1 + n;
	}
	return NULL;
}

/* 50 * 2^(cv / 32) cd/m^2 (CTA-861.3), without libm. */
static double cta_luminance(int cv)
{
	double l = 50;
	int i;

	for (i = 0; i < cv; i++)
		l *= 1.0218971486541166;	/* 2^(1/32) */
	return l;
}

/*
 * Run edid-decode --check on an EDID. Passes only if it runs, exits 0 and
 * reports no failures; prints its output otherwise.
 */
static void check_edid_decode(const char *what, const u8 *edid, int len)
{
	char path[] = "/tmp/test_edid.XXXXXX";
	char cmd[128], out[65536];
	size_t n = 0, r;
	int fd, status;
	FILE *f;

	if (system("command -v edid-decode >/dev/null 2>&1")) {
		CHECK(0, "%s: edid-decode is not on PATH (make setup installs it)",
		      what);
		return;
	}
	fd = mkstemp(path);
	CHECK(fd >= 0, "mkstemp");
	if (fd < 0)
		return;
	CHECK(write(fd, edid, len) == len, "write %s", path);
	close(fd);

	snprintf(cmd, sizeof(cmd), "edid-decode --check %s 2>&1", path);
	f = popen(cmd, "r");
	CHECK(f, "popen %s", cmd);
	if (!f) {
		unlink(path);
		return;
	}
	while (n < sizeof(out) - 1 &&
	       (r = fread(out + n, 1, sizeof(out) - 1 - n, f)) > 0)
		n += r;
	out[n] = '\0';
	status = pclose(f);
	unlink(path);

	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
	      !strstr(out, "Failures:"),
	      "%s: edid-decode --check status %d:\n%s", what, status, out);
	if (getenv("TEST_EDID_VERBOSE"))
		printf("--- %s ---\n%s", what, out);
}

/* Build an EDID and check what every EDID must have. */
/* The manufacturer atomkms's EDIDs name: a PNP ID of no company. */
#define ATOMKMS_TEST_VENDOR	"AKX"
#define PNP_IDS			"/usr/share/hwdata/pnp.ids"

/* Bytes 8-9: three 5-bit letters, 'A' = 1, big-endian. */
static void pnp_id(const u8 *edid, char out[4])
{
	unsigned int v = edid[8] << 8 | edid[9];

	out[0] = '@' + ((v >> 10) & 0x1f);
	out[1] = '@' + ((v >> 5) & 0x1f);
	out[2] = '@' + (v & 0x1f);
	out[3] = 0;
}

/* hwdata's list of registered PNP IDs ("ID<tab>company" lines) has @id. */
static int pnp_registered(const char *id)
{
	char line[256];
	FILE *f = fopen(PNP_IDS, "r");
	int found = 0, lines = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		lines++;
		found |= !strncmp(line, id, 3) && line[3] == '\t';
	}
	fclose(f);
	return lines > 1000 ? found : -1;
}

static void test_vendor(void)
{
	int reg = pnp_registered(ATOMKMS_TEST_VENDOR);

	CHECK(reg == 0, "vendor %s: %s", ATOMKMS_TEST_VENDOR,
	      reg < 0 ? "no usable " PNP_IDS " (package hwdata)" :
	      "registered to a company in " PNP_IDS);
	CHECK(pnp_registered("AKM") == 1, "AKM (Asahi Kasei) found in %s",
	      PNP_IDS);
}

static int build(const struct atomkms_edid_desc *desc, u8 *edid)
{
	static const u8 header[8] = { 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0 };
	unsigned int known = desc->width_mm && desc->height_mm;
	unsigned int want_w = known ? desc->width_mm : 0;
	unsigned int want_h = known ? desc->height_mm : 0;
	unsigned int want_wcm = want_w ? (want_w + 5) / 10 ?: 1 : 0;
	unsigned int want_hcm = want_h ? (want_h + 5) / 10 ?: 1 : 0;
	struct atomkms_timing m;
	unsigned int w, h, flags;
	char name[14], want_name[14], vendor[4];
	int len, db_len;

	/* The name as written: default, at most 13 chars, printable. */
	snprintf(want_name, sizeof(want_name), "%s",
		 desc->name && desc->name[0] ? desc->name : "atomkms");
	for (len = 0; want_name[len]; len++)
		if (want_name[len] < 0x20 || want_name[len] > 0x7e)
			want_name[len] = '_';

	memset(edid, 0xaa, 256);
	len = atomkms_edid_build(desc, edid, 256);
	CHECK(len == 256, "%s: length %d", desc->name, len);
	if (len != 256)
		return len;

	CHECK(!memcmp(edid, header, 8), "%s: header", desc->name);
	CHECK(block_sum(edid) == 0, "%s: base checksum", desc->name);
	CHECK(block_sum(edid + 128) == 0, "%s: CTA checksum", desc->name);
	CHECK(edid[126] == 1, "%s: extension count %u", desc->name, edid[126]);
	pnp_id(edid, vendor);
	CHECK(!strcmp(vendor, ATOMKMS_TEST_VENDOR), "%s: vendor %s",
	      desc->name, vendor);
	CHECK(edid[10] == (desc->product & 0xff) &&
	      edid[11] == desc->product >> 8, "%s: product", desc->name);
	CHECK((u32)(edid[12] | edid[13] << 8 | edid[14] << 16 |
		    (u32)edid[15] << 24) == desc->serial, "%s: serial",
	      desc->name);
	CHECK(edid[18] == 1 && edid[19] == 4, "%s: version %u.%u", desc->name,
	      edid[18], edid[19]);
	/* Digital, DisplayPort, (bpc - 4) / 2 in bits 6:4 (0 reads as 8). */
	CHECK(edid[20] == (0x85 | ((desc->bpc ? desc->bpc : 8) - 4) / 2 << 4),
	      "%s: input %02x for %u bpc", desc->name, edid[20], desc->bpc);
	CHECK(edid[23] == 120, "%s: gamma", desc->name);
	CHECK(edid[24] == (desc->vrr ? 0x07 : 0x06), "%s: features %02x",
	      desc->name, edid[24]);
	CHECK(edid[128] == 0x02 && edid[129] == 3, "%s: CTA revision 3",
	      desc->name);
	CHECK((edid[131] & 0xf0) == 0, "%s: RGB only, no audio: %02x",
	      desc->name, edid[131]);

	decode_dtd(edid + 0x36, &m, &w, &h, &flags);
	CHECK(same_mode(&m, &desc->preferred),
	      "%s: DTD %u %u/%u/%u/%u %u/%u/%u/%u", desc->name, m.clock_khz,
	      m.hdisplay, m.hsync_start, m.hsync_end, m.htotal,
	      m.vdisplay, m.vsync_start, m.vsync_end, m.vtotal);
	CHECK(w == want_w && h == want_h, "%s: image %ux%u mm", want_name,
	      w, h);
	CHECK((flags & 0x98) == 0x18, "%s: digital separate sync, progressive",
	      desc->name);
	CHECK(edid[21] == want_wcm && edid[22] == want_hcm, "%s: %ux%u cm",
	      want_name, edid[21], edid[22]);

	CHECK(!memcmp(edid + 0x5a, "\0\0\0\xfc\0", 5), "%s: name tag",
	      desc->name);
	descriptor_text(edid + 0x5a, name);
	CHECK(!strcmp(name, want_name), "%s: name \"%s\"", want_name, name);
	CHECK(!memcmp(edid + 0x48, "\0\0\0\xfd", 4), "%s: range tag",
	      desc->name);
	CHECK(edid[0x48 + 10] == 0x01, "%s: range limits only", desc->name);
	CHECK(!cta_ext_db(edid + 128, 6, &db_len) == !desc->hdr &&
	      !cta_ext_db(edid + 128, 5, &db_len) == !desc->hdr,
	      "%s: HDR static metadata and colorimetry blocks %s", desc->name,
	      desc->hdr ? "present" : "absent");

	check_edid_decode(want_name, edid, len);
	return len;
}

static void check_range(const char *what, const u8 *edid, u8 flags,
			u8 vmin, u8 vmax, u8 hmin, u8 hmax, u8 clock)
{
	const u8 *r = edid + 0x48;

	CHECK(r[4] == flags && r[5] == vmin && r[6] == vmax && r[7] == hmin &&
	      r[8] == hmax && r[9] == clock,
	      "%s: range %02x %u-%u Hz %u-%u kHz %u0 MHz", what, r[4], r[5],
	      r[6], r[7], r[8], r[9]);
	CHECK(r[11] == 0x0a && r[12] == 0x20 && r[17] == 0x20,
	      "%s: range padding", what);
}

static void check_vics(const char *what, const u8 *edid, const char *want)
{
	u8 vics[32];

	cta_vics(edid + 128, vics);
	CHECK(!strcmp((const char *)vics, want), "%s: VICs %u %u %u %u ...",
	      what, vics[0], vics[0] ? vics[1] : 0, vics[0] && vics[1] ?
	      vics[2] : 0, vics[0] && vics[1] && vics[2] ? vics[3] : 0);
}

static void test_1080(void)
{
	u8 edid[256], again[256];

	if (build(&d1080, edid) != 256)
		return;
	/* All established; standard timings but 1920x1200 (193.25 MHz). */
	CHECK(edid[0x23] == 0x21 && edid[0x24] == 0x08, "established");
	CHECK(!memcmp(edid + 0x26, "\x81\x80\xa9\xc0\xb3\x00\x01\x01", 8),
	      "standard timings");
	/* 640x480 is 31.47 kHz, 1080p 67.5 kHz; 170 MHz rounds to 17. */
	check_range("1080", edid, 0, 50, 75, 31, 68, 17);
	/* 95 is 30 Hz; 4K is 594 MHz. */
	check_vics("1080", edid, "\x10\x04\x03");
	/* The serial is only the binary one: descriptor 4 is a dummy. */
	CHECK(!memcmp(edid + 0x6c, "\0\0\0\x10\0\0\0\0\0\0\0\0\0\0\0\0\0\0",
		      18), "dummy descriptor");

	CHECK(atomkms_edid_build(&d1080, again, sizeof(again)) == 256 &&
	      !memcmp(edid, again, 256), "deterministic");
}

static void test_1440(void)
{
	u8 edid[256];

	if (build(&d1440, edid) != 256)
		return;
	CHECK(edid[0x23] == 0x21 && edid[0x24] == 0x08, "established");
	CHECK(!memcmp(edid + 0x26, "\x81\x80\xa9\xc0\xb3\x00\xd1\x00\x01\x01",
		      10), "standard timings");
	/* 586.58 MHz / 2640 = 222.2 kHz. */
	check_range("1440", edid, 0, 48, 240, 31, 223, 60);
	/* VICs no larger than the native mode first. */
	check_vics("1440", edid, "\x10\x04\x03\x61\x66");
}

static void test_720(void)
{
	u8 edid[256];

	if (build(&d720, edid) != 256)
		return;
	/* 800x600 is 60.32 Hz, above 61 Hz? No: within 59-61. */
	CHECK(edid[0x23] == 0x21 && edid[0x24] == 0x08, "established");
	/* Every standard timing is above 80 MHz. */
	CHECK(!memcmp(edid + 0x26, "\x01\x01\x01\x01\x01\x01\x01\x01", 8),
	      "no standard timings");
	check_range("720", edid, 0, 59, 61, 31, 49, 8);
	check_vics("720", edid, "\x04\x03");
	CHECK(edid[21] == 0 && edid[22] == 0, "unknown size");
}

static void test_2160(void)
{
	u8 edid[256];

	if (build(&d2160, edid) != 256)
		return;
	check_range("2160", edid, 0, 24, 60, 31, 135, 60);
	check_vics("2160", edid, "\x10\x04\x61\x5f\x03\x66");
}

/*
 * VESA's 1024x768 "60 Hz" runs at 60.004 Hz: the top rate the module
 * derives includes it, so that the monitor gets an EDID (it once did not:
 * with a top of 60 Hz the build refused it, and the connector had none).
 */
static void test_xga(void)
{
	struct atomkms_edid_desc d = {
		.name = "xga",
		.serial = 1,
		.preferred = {
			.clock_khz = 65000, .hdisplay = 1024,
			.hsync_start = 1048, .hsync_end = 1184, .htotal = 1344,
			.vdisplay = 768, .vsync_start = 771, .vsync_end = 777,
			.vtotal = 806,
		},
		.min_vrefresh = 30,
		.max_clock_khz = 600000,
		.width_mm = 270,
		.height_mm = 203,
	};
	struct atomkms_timing cea1080 = {
		.clock_khz = 148500, .hdisplay = 1920, .hsync_start = 2008,
		.hsync_end = 2052, .htotal = 2200, .vdisplay = 1080,
		.vsync_start = 1084, .vsync_end = 1089, .vtotal = 1125,
	};
	u8 edid[256];

	d.max_vrefresh = atomkms_edid_max_vrefresh(&d.preferred, 60);
	CHECK(d.max_vrefresh == 61, "1024x768 DMT: top %u Hz", d.max_vrefresh);
	CHECK(atomkms_edid_max_vrefresh(&cea1080, 60) == 60 &&
	      atomkms_edid_max_vrefresh(&cea1080, 75) == 75 &&
	      atomkms_edid_max_vrefresh(&cea1080, 30) == 60,
	      "1080p at exactly 60 Hz keeps the CRTC's rate");
	build(&d, edid);
}

static void test_high_refresh(void)
{
	u8 edid[256];
	char name[14];

	if (build(&d300, edid) == 256) {
		/* 300 Hz is 255 + 45; 228 kHz needs no offset. */
		check_range("300", edid, 0x02, 48, 45, 31, 228, 34);
		check_vics("300", edid, "\x04\x03\x10");
	}

	if (build(&d400, edid) == 256) {
		/* 400 Hz is 255 + 145, 304 kHz is 255 + 49. */
		check_range("400", edid, 0x0a, 48, 145, 31, 49, 44);
		check_vics("400", edid, "\x04\x03\x10");
		descriptor_text(edid + 0x5a, name);
		CHECK(!strcmp(name, "a-very-long-m"), "cut name \"%s\"", name);
	}
}

/* Odd but valid descriptions. */
static void test_odd(void)
{
	struct atomkms_edid_desc d = d1080;
	u8 edid[256];
	char name[14];

	/* No name: the default; one size unknown makes both unknown. */
	d.name = NULL;
	d.height_mm = 0;
	build(&d, edid);
	d.name = "";
	build(&d, edid);
	descriptor_text(edid + 0x5a, name);
	CHECK(!strcmp(name, ATOMKMS_EDID_DEFAULT_NAME), "name \"%s\"", name);

	/* Small image: at least 1 cm. Non-printable characters replaced. */
	d = d1080;
	d.name = "tab\there";
	d.width_mm = 100;
	d.height_mm = 4;
	if (build(&d, edid) == 256) {
		descriptor_text(edid + 0x5a, name);
		CHECK(!strcmp(name, "tab_here"), "name \"%s\"", name);
	}

	/* The largest size: 255 cm. */
	d = d1080;
	d.width_mm = 2550;
	d.height_mm = 1434;
	build(&d, edid);
}

static void test_errors(void)
{
	struct atomkms_edid_desc d = d2160;
	u8 edid[256];

	memset(edid, 0xaa, sizeof(edid));
	CHECK(atomkms_edid_build(&d1080, edid, 255) ==
	      -ATOMKMS_ENOSPC, "255-byte buffer");
	CHECK(atomkms_edid_build(&d1080, edid, 128) < 0, "one block");
	CHECK(edid[0] == 0xaa, "nothing written");

	/* 4096 active does not fit 12 bits: use the VIC instead. */
	d.preferred.hdisplay = 4096;
	d.preferred.hsync_start = 4184;
	d.preferred.hsync_end = 4272;
	d.preferred.htotal = 4400;
	CHECK(atomkms_edid_build(&d, edid, sizeof(edid)) ==
	      -ATOMKMS_EINVAL, "4096 wide");

	/* Nor does a clock above 655.35 MHz fit 16 bits of 10 kHz. */
	d = d2160;
	d.preferred.clock_khz = 655360;
	d.max_clock_khz = 700000;
	d.max_vrefresh = 70;
	CHECK(atomkms_edid_build(&d, edid, sizeof(edid)) < 0, "655.36 MHz");
	d.preferred.clock_khz = 655350;
	CHECK(atomkms_edid_build(&d, edid, sizeof(edid)) == 256, "655.35 MHz");

	/* Preferred mode outside its own limits. */
	d = d2160;
	d.max_clock_khz = 593990;
	CHECK(atomkms_edid_build(&d, edid, sizeof(edid)) < 0, "clock limit");
	d = d2160;
	d.max_vrefresh = 59;
	CHECK(atomkms_edid_build(&d, edid, sizeof(edid)) < 0, "refresh limit");
	d = d2160;
	d.min_vrefresh = 0;
	CHECK(atomkms_edid_build(&d, edid, sizeof(edid)) < 0, "min 0 Hz");
	d = d2160;
	d.max_vrefresh = 511;
	CHECK(atomkms_edid_build(&d, edid, sizeof(edid)) < 0, "max 511 Hz");

	/* Colour depths the input byte cannot say. */
	d = d2160;
	d.bpc = 7;
	CHECK(atomkms_edid_build(&d, edid, sizeof(edid)) < 0, "7 bpc");
	d.bpc = 4;
	CHECK(atomkms_edid_build(&d, edid, sizeof(edid)) < 0, "4 bpc");
	d.bpc = 18;
	CHECK(atomkms_edid_build(&d, edid, sizeof(edid)) < 0, "18 bpc");
	d.bpc = 16;
	CHECK(atomkms_edid_build(&d, edid, sizeof(edid)) == 256, "16 bpc");

	/* CTA-861 requires 640x480 at 59.94 Hz (25.175 MHz). */
	d = d2160;
	d.min_vrefresh = 60;
	CHECK(atomkms_edid_build(&d, edid, sizeof(edid)) < 0, "no 640x480");
	d = d720;
	d.preferred = (struct atomkms_timing){
		.clock_khz = 25170,
		.hdisplay = 640, .hsync_start = 656, .hsync_end = 752,
		.htotal = 800,
		.vdisplay = 480, .vsync_start = 490, .vsync_end = 492,
		.vtotal = 525,
	};
	d.max_clock_khz = 25170;
	CHECK(atomkms_edid_build(&d, edid, sizeof(edid)) < 0, "25.17 MHz max");
	/* The DTD rounds 25.175 MHz to 25.18; no VIC fits then. */
	d.max_clock_khz = 25180;
	d.preferred.clock_khz = 25175;
	CHECK(atomkms_edid_build(&d, edid, sizeof(edid)) == 256, "VGA only");
	CHECK(edid[0x36] == 0xd6 && edid[0x37] == 0x09, "2518 x 10 kHz");
	check_vics("VGA only", edid, "");
	check_edid_decode("VGA only", edid, 256);

	/* Wider than the base block's 255 cm. */
	d = d2160;
	d.width_mm = 2551;
	CHECK(atomkms_edid_build(&d, edid, sizeof(edid)) < 0, "2551 mm");

	/* Sync outside blanking, and a vsync offset above 63 lines. */
	d = d2160;
	d.preferred.hsync_end = 4401;
	CHECK(atomkms_edid_build(&d, edid, sizeof(edid)) < 0, "hsync order");
	d = d2160;
	d.preferred.vsync_start = 2160 + 64;
	d.preferred.vsync_end = 2160 + 70;
	CHECK(atomkms_edid_build(&d, edid, sizeof(edid)) < 0, "vsync offset");
}

/*
 * A tile of a tiled monitor: a third block, a DisplayID 1.3 extension with
 * a Tiled Display Topology block, as DRM's drm_parse_tiled_block() and
 * edid-decode read it: the grid and the tile's place minus one in a low
 * nibble and two high bits, the size minus one, the topology ID.
 */
static void test_tile(void)
{
	struct atomkms_edid_tile tile = {
		.group = 0x010203, .tiles_h = 20, .tiles_v = 1,
		.h_loc = 17, .v_loc = 0,
	};
	struct atomkms_edid_desc d = d1080;
	u8 edid[ATOMKMS_EDID_MAX_SIZE], sum = 0;
	const u8 *x = edid + 256, *b = x + 5 + 15 + 15 + 13, *t = b + 25;
	int len, i;

	d.tile = &tile;
	CHECK(atomkms_edid_build(&d, edid, 256) == -ATOMKMS_ENOSPC,
	      "tile: two blocks are too few");
	len = atomkms_edid_build(&d, edid, sizeof(edid));
	CHECK(len == 384 && edid[126] == 2, "tile: three blocks, %d", len);
	CHECK(block_sum(edid) == 0 && block_sum(edid + 128) == 0 &&
	      block_sum(x) == 0, "tile: block checksums");
	CHECK(x[0] == 0x70 && x[1] == 0x13 && x[2] == 91 && x[3] == 3,
	      "tile: DisplayID 1.3 extension of a monitor, 91 bytes of blocks");
	CHECK(x[5] == 0 && x[7] == 12 && !memcmp(x + 8, "AKX", 3),
	      "tile: Product Identification first");
	/* Type I timing: 1080p at 148.5 MHz, preferred. */
	CHECK(t[0] == 3 && t[2] == 20 && (t[3] | t[4] << 8) + 1 == 14850 &&
	      (t[6] & 0x80) && (t[7] | t[8] << 8) + 1 == 1920 &&
	      (t[9] | t[10] << 8) + 1 == 280 && (t[15] | t[16] << 8) + 1 == 1080,
	      "tile: the preferred mode as a Type I timing");
	for (i = 1; i < 5 + 91 + 1; i++)
		sum += x[i];
	CHECK(sum == 0, "tile: DisplayID section checksum");
	CHECK(b[0] == 0x12 && b[2] == 22 && b[3] == 0x80,
	      "tile: tiled display block, one enclosure");
	/* DRM's decoding, restated. */
	CHECK(((b[4] >> 4) | ((b[6] >> 2) & 0x30)) + 1 == 20 &&
	      ((b[4] & 0xf) | (b[6] & 0x30)) + 1 == 1,
	      "tile: 20x1 tiles (%02x %02x)", b[4], b[6]);
	CHECK(((b[5] >> 4) | (((b[6] >> 2) & 3) << 4)) == 17 &&
	      ((b[5] & 0xf) | ((b[6] & 3) << 4)) == 0,
	      "tile: at column 17, row 0 (%02x %02x)", b[5], b[6]);
	CHECK((b[7] | b[8] << 8) + 1 == 1920 && (b[9] | b[10] << 8) + 1 == 1080,
	      "tile: 1920x1080, the preferred mode's size");
	CHECK(!memcmp(b + 16, "AKX", 3) && b[21] == 3 && b[22] == 2 &&
	      b[23] == 1 && b[24] == 0, "tile: topology ID names group 0x010203");
	check_edid_decode("tile", edid, len);
	tile.h_loc = 20;
	CHECK(atomkms_edid_build(&d, edid, sizeof(edid)) == -ATOMKMS_EINVAL,
	      "tile: a place outside the grid refused");
	tile.h_loc = 0;
	tile.tiles_h = 65;
	CHECK(atomkms_edid_build(&d, edid, sizeof(edid)) == -ATOMKMS_EINVAL,
	      "tile: 65 tiles across refused");
}

/*
 * An HDR monitor: a Colorimetry data block (BT.2020 YCC and RGB) and an
 * HDR Static Metadata data block, decoded here by CTA-861.3's formulas:
 * SDR, ST 2084 and HLG, type 1, about 1000, 400 and 0.05 cd/m^2. The
 * same monitor without HDR has the same EDID up to those blocks.
 */
static void test_hdr(void)
{
	struct atomkms_edid_desc d = d1440;
	const u8 *hdr, *cm, *ext;
	u8 edid[256], sdr[256];
	double max, fall, min;
	int len, cm_len;

	d.name = "atomkms-hdr";
	d.hdr = true;
	if (build(&d, edid) != 256)
		return;
	ext = edid + 128;
	hdr = cta_ext_db(ext, 6, &len);
	cm = cta_ext_db(ext, 5, &cm_len);
	if (!hdr || !cm)
		return;
	CHECK(len == 5, "hdr: 5 bytes of static metadata, %d", len);
	/* EOTF bits: 0 SDR, 1 traditional HDR, 2 ST 2084, 3 HLG. */
	CHECK(hdr[0] == 0x0d, "hdr: EOTFs SDR, ST2084, HLG: %02x", hdr[0]);
	CHECK(hdr[1] == 0x01, "hdr: static metadata type 1: %02x", hdr[1]);
	max = cta_luminance(hdr[2]);
	fall = cta_luminance(hdr[3]);
	min = max * (hdr[4] / 255.0) * (hdr[4] / 255.0) / 100;
	CHECK(max > 980 && max < 1020, "hdr: max %.1f cd/m^2 (CV %u)", max,
	      hdr[2]);
	CHECK(fall > 399.9 && fall < 400.1, "hdr: max frame-average %.1f (CV %u)",
	      fall, hdr[3]);
	CHECK(min > 0.045 && min < 0.055, "hdr: min %.4f (CV %u)", min, hdr[4]);
	CHECK(cm_len == 2 && cm[0] == 0xc0 && cm[1] == 0,
	      "hdr: colorimetry BT2020RGB and BT2020YCC: %d %02x %02x", cm_len,
	      cm[0], cm[1]);
	/* Their 11 bytes come after the others: the SDR EDID is a prefix. */
	d.hdr = false;
	CHECK(atomkms_edid_build(&d, sdr, sizeof(sdr)) == 256 &&
	      !memcmp(edid, sdr, 127) && sdr[128 + 2] + 11 == ext[2] &&
	      !memcmp(edid + 128, sdr + 128, 2) &&
	      !memcmp(edid + 131, sdr + 131, sdr[130] - 3),
	      "hdr: the SDR monitor's EDID, plus 11 bytes of data blocks");

	/* A tile of an HDR monitor has them too, before the DisplayID block. */
	{
		struct atomkms_edid_tile tile = { .group = 1, .tiles_h = 2,
						  .tiles_v = 1 };
		u8 tiled[ATOMKMS_EDID_MAX_SIZE];

		d = d1080;
		d.hdr = true;
		d.tile = &tile;
		len = atomkms_edid_build(&d, tiled, sizeof(tiled));
		CHECK(len == 384 && cta_ext_db(tiled + 128, 6, &cm_len) &&
		      block_sum(tiled + 128) == 0, "hdr tile: %d bytes", len);
		if (len == 384)
			check_edid_decode("hdr tile", tiled, len);
	}
}

int main(void)
{
	test_vendor();
	test_tile();
	test_1080();
	test_1440();
	test_720();
	test_2160();
	test_xga();
	test_high_refresh();
	test_odd();
	test_errors();
	test_hdr();
	return check_done("test_edid");
}
