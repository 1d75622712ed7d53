// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-bad-input: what its parts share (see bad_input.h).
 */
#include "bad_input.h"

/* ---- output ---- */

struct bad_input g;
int failures;
unsigned long hist_fixed[134], hist_random[134];
unsigned long *hist = hist_fixed;

/* "0" or "-EINVAL". */
const char *ename(int ret)
{
	const char *n;

	if (ret >= 0)
		return ret ? sf("%d", ret) : "0";
	n = strerrorname_np(-ret);
	return n ? sf("-%s", n) : sf("-%d", -ret);
}

void count(int ret)
{
	int e = ret < 0 ? -ret : 0;

	if (e >= (int)ARRAY_SIZE(hist_fixed) - 1)
		e = ARRAY_SIZE(hist_fixed) - 1;
	hist[e]++;
}

void print_hist(const char *what, const unsigned long *h)
{
	char line[1024];
	size_t len = 0;
	unsigned int e;

	len += snprintf(line + len, sizeof(line) - len, "# %s:", what);
	for (e = 0; e < ARRAY_SIZE(hist_fixed); e++) {
		if (!h[e])
			continue;
		len += snprintf(line + len, sizeof(line) - len, " %s %lu",
				e ? ename(-(int)e) + 1 : "success", h[e]);
		if (len >= sizeof(line))
			break;
	}
	printf("%s\n", line);
}

/* ---- watchdog ---- */

static char cur_op[256];

void on_alarm(int sig)
{
	static const char a[] = "not ok - watchdog: ";
	static const char b[] = " did not return within 20 s\ntest-bad-input: FAIL\n";
	ssize_t r;

	(void)sig;
	r = write(1, a, sizeof(a) - 1);
	r = write(1, cur_op, strnlen(cur_op, sizeof(cur_op)));
	r = write(1, b, sizeof(b) - 1);
	(void)r;
	_exit(1);
}

void arm(const char *op)
{
	snprintf(cur_op, sizeof(cur_op), "%s", op);
	alarm(WATCHDOG_S);
}

void disarm(void)
{
	alarm(0);
}

/* ---- results ---- */

/* Check @ret against @want and count it. */
bool expect(int ret, int want, const char *what)
{
	count(ret);
	if (want == EXPECT_ANY) {
		printf("# %s: %s\n", what, ename(ret));
		return true;
	}
	if (want == EXPECT_FAIL)
		return check(ret < 0, sf("%s fails", what), "succeeded");
	if (want == 0)
		return check(ret == 0, sf("%s succeeds", what), ename(ret));
	return check(ret == want, sf("%s fails %s", what, ename(want)),
		     sf("got %s", ename(ret)));
}

/* ---- events ---- */

/* Can any encoder of @conn be driven by the CRTC with index @crtc_idx? */
bool conn_reaches_crtc(uint32_t conn, unsigned int crtc_idx)
{
	drmModeConnector *c = drmModeGetConnector(g.fd, conn);
	bool reach = false;
	int i;

	for (i = 0; c && i < c->count_encoders; i++) {
		drmModeEncoder *e = drmModeGetEncoder(g.fd, c->encoders[i]);

		if (e && (e->possible_crtcs & (1u << crtc_idx)))
			reach = true;
		drmModeFreeEncoder(e);
	}
	drmModeFreeConnector(c);
	return reach;
}

static void flip_handler(int fd, unsigned int seq, unsigned int tv_sec,
			 unsigned int tv_usec, unsigned int crtc_id, void *data)
{
	(void)fd;
	(void)tv_sec;
	(void)tv_usec;
	(void)crtc_id;
	(void)data;
	g.events++;
	g.event_seq = seq;
}

drmEventContext evctx = {
	.version = DRM_EVENT_CONTEXT_VERSION,
	.page_flip_handler2 = flip_handler,
};

void drain(int ms)
{
	arm("reading events");
	while (wait_event(g.fd, &evctx, ms) > 0)
		ms = 0;
	disarm();
}

/* ---- building requests ---- */

int commit(struct areq *r, uint32_t flags, const char *what)
{
	int ret;

	arm(what);
	ret = areq_commit(r, flags, NULL);
	disarm();
	areq_fini(r);
	return ret;
}

/* One property, TEST_ONLY, straight to the kernel. */
int try1(uint32_t obj, uint32_t prop, uint64_t val, const char *what)
{
	struct areq q;
	int ret;

	areq_init(&q, g.fd);
	areq_add_raw(&q, obj, prop, val);
	arm(what);
	ret = areq_commit_raw(&q, TEST);
	disarm();
	return ret;
}

uint32_t pid(uint32_t obj, uint32_t type, const char *name)
{
	return prop_id(g.fd, obj, type, name);
}

int disable_all(const char *what)
{
	int ret;

	arm(what);
	ret = kms_disable_all(g.fd);
	disarm();
	return ret;
}

/* Pipe 0 on with fb[0], for a real commit; 0 or -errno. */
int pipe0_on(void)
{
	struct areq r;

	areq_init(&r, g.fd);
	areq_modeset(&r, &g.pipe[0], g.mode_blob[0], &g.fb[0]);
	return commit(&r, DRM_MODE_ATOMIC_ALLOW_MODESET, "modeset pipe 0");
}

/* Every pipe on with its mode, fb[0] where it fits; 0 or -errno. */
int all_pipes_on(void)
{
	struct areq r;
	int i;

	areq_init(&r, g.fd);
	for (i = 0; i < g.npipes; i++)
		areq_modeset(&r, &g.pipe[i], g.mode_blob[i],
			     g.pipe[i].mode.hdisplay == g.fb[0].width &&
			     g.pipe[i].mode.vdisplay == g.fb[0].height ?
			     &g.fb[0] : NULL);
	return commit(&r, DRM_MODE_ATOMIC_ALLOW_MODESET, "all pipes on");
}

/* ---- setup ---- */

static void add_object(uint32_t id, uint32_t type)
{
	drmModeObjectProperties *props;
	struct object *o;
	uint32_t i;

	if (g.nobj == MAX_OBJS)
		return;
	o = &g.obj[g.nobj++];
	o->id = id;
	o->type = type;
	o->ptype = -1;
	props = drmModeObjectGetProperties(g.fd, id, type);
	for (i = 0; props && i < props->count_props && i < MAX_PROPS; i++) {
		struct prop_ent *e = &o->props[o->nprops];

		e->id = props->props[i];
		e->cur = props->prop_values[i];
		e->p = drmModeGetProperty(g.fd, e->id);
		if (e->p)
			o->nprops++;
	}
	drmModeFreeObjectProperties(props);
	if (type == DRM_MODE_OBJECT_PLANE) {
		drmModePlane *pl = drmModeGetPlane(g.fd, id);

		o->ptype = plane_type(g.fd, id);
		o->possible_crtcs = pl ? pl->possible_crtcs : 0;
		drmModeFreePlane(pl);
	}
}

struct prop_ent *find_prop(struct object *o, const char *name)
{
	int i;

	for (i = 0; i < o->nprops; i++)
		if (!strcmp(o->props[i].p->name, name))
			return &o->props[i];
	return NULL;
}

uint32_t make_blob(const void *data, size_t len)
{
	uint32_t id = 0;

	if (drmModeCreatePropertyBlob(g.fd, data, len, &id))
		return 0;
	return id;
}

int setup(void)
{
	drmModeConnector *conn;
	drmModeModeInfo m, big = { 0 };
	struct drm_mode_rect clip;
	struct object *o;
	int i, k, ret;
	uint64_t cap = 0;

	g.npipes = kms_pipes_find(g.fd, g.pipe, MAX_PIPES);
	if (!check(g.npipes >= 1, "find connector/crtc pairs", "see stderr"))
		return -1;
	g.res = drmModeGetResources(g.fd);
	g.pres = drmModeGetPlaneResources(g.fd);
	if (!check(g.res && g.pres, "get resources", strerror(errno)))
		return -1;
	/* Earlier clients may have left rotation, LUTs... behind. */
	arm("reset everything");
	ret = kms_reset_all(g.fd);
	disarm();
	if (!check(!ret, "start with everything off and default properties",
		   ename(ret)))
		return -1;

	for (i = 0; i < g.res->count_crtcs; i++)
		add_object(g.res->crtcs[i], DRM_MODE_OBJECT_CRTC);
	for (i = 0; i < g.res->count_connectors; i++)
		add_object(g.res->connectors[i], DRM_MODE_OBJECT_CONNECTOR);
	for (i = 0; i < (int)g.pres->count_planes; i++)
		add_object(g.pres->planes[i], DRM_MODE_OBJECT_PLANE);

	for (i = 0; i < g.npipes; i++) {
		for (k = 0; k < g.nobj; k++) {
			o = &g.obj[k];
			if (o->type == DRM_MODE_OBJECT_PLANE &&
			    o->ptype == DRM_PLANE_TYPE_CURSOR &&
			    o->possible_crtcs == (1u << g.pipe[i].crtc_idx) &&
			    !g.cursor[i])
				g.cursor[i] = o->id;
		}
		g.mode_blob[i] = make_blob(&g.pipe[i].mode,
					   sizeof(g.pipe[i].mode));
		printf("# pipe %d: connector %u crtc %u primary %u cursor %u, %s\n",
		       i, g.pipe[i].conn, g.pipe[i].crtc, g.pipe[i].plane,
		       g.cursor[i], g.pipe[i].mode.name);
	}

	conn = drmModeGetConnector(g.fd, g.pipe[0].conn);
	m = g.pipe[0].mode;
	for (k = 0; conn && k < conn->count_modes; k++) {
		const drmModeModeInfo *c = &conn->modes[k];

		if (c->hdisplay == 640 && c->vdisplay == 480)
			m = *c;
		if ((uint32_t)c->hdisplay * c->vdisplay >
		    (uint32_t)big.hdisplay * big.vdisplay)
			big = *c;
	}
	drmModeFreeConnector(conn);
	g.alt_blob = make_blob(&m, sizeof(m));

	for (i = 0; i < 2; i++) {
		ret = dumb_fb_create(g.fd, g.pipe[0].mode.hdisplay,
				     g.pipe[0].mode.vdisplay, &g.fb[i]);
		if (!check(!ret, sf("create framebuffer %d", i), ename(ret)))
			return -1;
	}
	ret = dumb_fb_create(g.fd, 64, 64, &g.small);
	if (!check(!ret, "create 64x64 framebuffer", ename(ret)))
		return -1;
	if (big.hdisplay)
		dumb_fb_create(g.fd, big.hdisplay, big.vdisplay, &g.big);
	ret = fmt_fb_create(g.fd, g.pipe[0].mode.hdisplay,
			    g.pipe[0].mode.vdisplay, DRM_FORMAT_RGB565, &g.rgb565);
	if (!check(!ret, "create RGB565 framebuffer", ename(ret)))
		return -1;

	m = g.pipe[0].mode;
	m.clock = 0;
	g.bad_blob[0] = make_blob(&m, sizeof(m));
	m = g.pipe[0].mode;
	m.htotal = m.hdisplay - 1;
	g.bad_blob[1] = make_blob(&m, sizeof(m));
	m = g.pipe[0].mode;
	m.vrefresh = UINT_MAX;
	g.bad_blob[2] = make_blob(&m, sizeof(m));
	m = g.pipe[0].mode;
	m.hdisplay = 0;
	g.bad_blob[3] = make_blob(&m, sizeof(m));
	g.short_blob = make_blob(&g.pipe[0].mode, sizeof(m) - 1);

	clip = (struct drm_mode_rect){ 0, 0, 64, 64 };
	g.damage_blob = make_blob(&clip, sizeof(clip));
	clip = (struct drm_mode_rect){ 20, 0, 10, 64 };	/* x1 > x2 */
	g.bad_damage_blob = make_blob(&clip, sizeof(clip));

	for (k = 0; k < g.nobj; k++) {
		struct prop_ent *e = find_prop(&g.obj[k], "IN_FORMATS");

		if (e && e->cur) {
			g.other_blob = e->cur;
			break;
		}
	}
	if (!check(g.alt_blob && g.bad_blob[0] && g.bad_blob[1] &&
		   g.bad_blob[2] && g.bad_blob[3] && g.short_blob &&
		   g.damage_blob && g.bad_damage_blob && g.mode_blob[0],
		   "create property blobs", strerror(errno)))
		return -1;

	g.async_cap = !drmGetCap(g.fd, DRM_CAP_ATOMIC_ASYNC_PAGE_FLIP, &cap) &&
		      cap;
	printf("# %d objects, atomic async flips %s\n", g.nobj,
	       g.async_cap ? "supported" : "not supported");
	return 0;
}
