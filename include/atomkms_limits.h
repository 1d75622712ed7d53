/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Simulated display-engine limits (issue 15): a hardware profile, and the
 * check of a state against it that atomic_check makes. Pure C, shared by
 * the module and the unit tests.
 *
 * A profile says how much of each resource the simulated hardware has:
 * %ATOMKMS_LIMIT_NONE means no limit (today's behaviour, the default of
 * every field), 0 means none of that resource at all, so that any use of
 * it is refused. atomkms_limits_check() judges a plain description of a
 * state (&struct atomkms_limits_state), which the driver fills from its
 * DRM atomic state, and names the limit a refused state breaks, with the
 * numbers.
 */
#ifndef ATOMKMS_LIMITS_H
#define ATOMKMS_LIMITS_H

#include "atomkms_types.h"

/*
 * The topology (atomkms_topology.h) holds a profile: this header comes
 * before it, and repeats the bounds it needs (atomkms_limits.c asserts
 * that they agree).
 */
#define ATOMKMS_LIMITS_MAX_CRTCS	8	/* ATOMKMS_TOPO_MAX_CRTCS */
#define ATOMKMS_LIMITS_MAX_PLANES	32	/* ATOMKMS_TOPO_MAX_PLANES */

/* No limit: the value of every field of a profile by default. */
#define ATOMKMS_LIMIT_NONE		0xffffffffU

/* Hardware planes of a pool; allowed cursor sizes. */
#define ATOMKMS_LIMITS_MAX_HW_PLANES	32
#define ATOMKMS_LIMITS_MAX_CURSOR_SIZES	8

/*
 * A hardware plane's types: a bit per &enum atomkms_topo_plane_type
 * (overlay 0, primary 1, cursor 2).
 */
#define ATOMKMS_LIMITS_OVERLAY		BIT(0)
#define ATOMKMS_LIMITS_PRIMARY		BIT(1)
#define ATOMKMS_LIMITS_CURSOR		BIT(2)

/* Scale factors are 16.16, as DRM's: this is 1.0, no scaling. */
#define ATOMKMS_LIMITS_SCALE_ONE	0x10000U

/* The shortest buffer a rejection's message fits in, numbers included. */
#define ATOMKMS_LIMITS_WHY_LEN		160

/**
 * struct atomkms_limits_hw_plane - one hardware plane of a pool
 * @possible_crtcs: the CRTCs it can feed, a bit per CRTC index
 * @drm_planes: the DRM planes it can stand for, a bit per DRM plane
 *              index; %ATOMKMS_LIMIT_NONE: any (a shared pool); one bit:
 *              that plane's own hardware (a fixed design)
 * @types: the plane types it takes (%ATOMKMS_LIMITS_PRIMARY, ...)
 * @rotations: the rotations it does (DRM's bits, %ATOMKMS_TOPO_ROTATE_0...)
 * @scales: it has a scaler's input: a plane whose source and destination
 *          sizes differ may use it (the scaler counts still apply)
 * @formats: the formats it reads, bit i for atomkms_formats[i], as
 *           &atomkms_topo_plane's
 * @max_width: widest source it fetches, in pixels, or %ATOMKMS_LIMIT_NONE
 * @max_height: highest
 *
 * These are the "per plane" limits of issue 15: which formats, rotations
 * and sizes a plane takes. A DRM plane may use a hardware plane when all
 * of them allow its state.
 */
struct atomkms_limits_hw_plane {
	u32 possible_crtcs;
	u32 drm_planes;
	u8 types;
	u8 rotations;
	bool scales;
	u64 formats;
	u32 max_width, max_height;
};

/**
 * struct atomkms_limits - a simulated display engine's limits
 * @max_active_planes: visible planes on the whole device
 * @max_crtc_planes: visible planes on one CRTC
 * @num_hw_planes: %ATOMKMS_LIMIT_NONE: no pool, every DRM plane is its own
 *                 hardware and takes anything; otherwise the entries of
 *                 @hw_planes, which atomkms_limits_assign() matches the
 *                 visible DRM planes to at each check (0: no plane can be
 *                 shown)
 * @hw_planes: the pool's hardware planes
 * @num_scalers: scalers of each CRTC (index: the CRTC's); a plane scales
 *               when its source size, rotated, differs from its
 *               destination size (atomkms_limits_plane_scales()), and then
 *               uses one of its CRTC's
 * @max_scalers: scalers of the whole device, shared by all CRTCs
 * @max_upscale: largest destination/source factor (16.16) of either axis
 * @max_downscale: largest source/destination factor (16.16)
 * @scaler_min_src_w: narrowest source a scaler takes, in pixels (0: any)
 * @scaler_min_src_h: lowest source
 * @scaler_min_dst_w: narrowest destination it produces
 * @scaler_min_dst_h: lowest destination
 * @scaler_max_width: widest line through a scaler, source (rotated) or
 *                    destination: its line buffer's size
 * @bandwidth_mbps: memory bandwidth the planes may fetch with, in MB/s
 *                  (10^6 bytes a second): the sum over visible planes of
 *                  their source's bytes a frame times their CRTC's refresh
 * @num_plls: clock generators (PLLs): active CRTCs with identical pixel
 *            clocks share one, so the distinct clocks may be this many
 * @max_crtc_clock_khz: one CRTC's highest pixel clock
 * @max_total_clock_khz: the highest sum of the active CRTCs' pixel clocks
 * @cursor_max_w: widest cursor plane (its destination)
 * @cursor_max_h: highest
 * @num_cursor_sizes: %ATOMKMS_LIMIT_NONE: any size up to the maximum;
 *                    otherwise the entries of @cursor_sizes, the only
 *                    sizes a cursor plane may have (0: no cursor at all)
 * @cursor_sizes: @w x @h each
 *
 * Minimum sizes take 0, not %ATOMKMS_LIMIT_NONE, for none.
 */
struct atomkms_limits {
	u32 max_active_planes;
	u32 max_crtc_planes;
	u32 num_hw_planes;
	struct atomkms_limits_hw_plane hw_planes[ATOMKMS_LIMITS_MAX_HW_PLANES];
	u32 num_scalers[ATOMKMS_LIMITS_MAX_CRTCS];
	u32 max_scalers;
	u32 max_upscale, max_downscale;
	u32 scaler_min_src_w, scaler_min_src_h;
	u32 scaler_min_dst_w, scaler_min_dst_h;
	u32 scaler_max_width;
	u32 bandwidth_mbps;
	u32 num_plls;
	u32 max_crtc_clock_khz;
	u32 max_total_clock_khz;
	u32 cursor_max_w, cursor_max_h;
	u32 num_cursor_sizes;
	struct {
		u16 w, h;
	} cursor_sizes[ATOMKMS_LIMITS_MAX_CURSOR_SIZES];
};

/**
 * struct atomkms_limits_crtc - a CRTC, as the limits see it
 * @active: it scans out
 * @clock_khz: its mode's pixel clock
 * @refresh_mhz: its mode's refresh rate in mHz (clock x 10^6 / (htotal x
 *               vtotal)), for the bandwidth
 * @panel_fitter: its output is scaled to the monitor's native size (the
 *                connector's scaling mode): one of its scalers, as on
 *                Intel's pipes, counted in num_scalers and max_scalers
 */
struct atomkms_limits_crtc {
	bool active;
	u32 clock_khz;
	u32 refresh_mhz;
	bool panel_fitter;
};

/**
 * struct atomkms_limits_plane - a visible plane, as the limits see it
 * @plane: its DRM plane index (below 32)
 * @crtc: the index of the CRTC it is on, which must be active
 * @type: its type (&enum atomkms_topo_plane_type)
 * @rotation: its rotation property (DRM's bits)
 * @fourcc: its framebuffer's format, one of the compositor's
 *          (atomkms_format_lookup(): the bytes per pixel come from there)
 * @src_w: its source width, 16.16 as DRM's (state->src, clipped)
 * @src_h: its source height, 16.16
 * @dst_w: its destination width in pixels (state->dst, clipped), 1 to
 *         65535
 * @dst_h: its destination height
 */
struct atomkms_limits_plane {
	u8 plane;
	u8 crtc;
	u8 type;
	u8 rotation;
	u32 fourcc;
	u32 src_w, src_h;
	u32 dst_w, dst_h;
};

/**
 * struct atomkms_limits_state - a state to judge
 * @num_crtcs: entries of @crtcs: the device's CRTCs
 * @num_planes: entries of @planes: the visible planes only, in DRM plane
 *              order (the pool assignment is deterministic in that order)
 * @crtcs: the CRTCs, by index
 * @planes: the visible planes
 */
struct atomkms_limits_state {
	u32 num_crtcs;
	u32 num_planes;
	struct atomkms_limits_crtc crtcs[ATOMKMS_LIMITS_MAX_CRTCS];
	struct atomkms_limits_plane planes[ATOMKMS_LIMITS_MAX_PLANES];
};

/**
 * DOC: presets
 *
 * atomkms_limits_preset() knows four profiles. "none" is no limit. The
 * three others mimic a class of real display engines, each after the
 * numbers its upstream Linux driver states (v6.12 sources); where no
 * public number exists, the value is ours and says so. Nothing here
 * claims to be the exact hardware: a class's typical limits, so that
 * compositors meet the refusals they meet on such hardware.
 *
 * soc - in the class of Qualcomm's DPU 6.2 (SC7180, Snapdragon 7c), per
 * drivers/gpu/drm/msm/disp/dpu1/catalog/dpu_6_2_sc7180.h and
 * dpu_hw_catalog.c:
 *  - a pool of 4 source pipes (SSPPs) that any CRTC may use: v6.12 makes
 *    a DRM plane of each, later kernels' virtual planes assign them at
 *    check time, as the pool does here; VIG0, with the one scaler
 *    and every format; DMA0, DMA1 and DMA2, RGB only and no scaling,
 *    DMA1 and DMA2 also cursors (DMA_CURSOR_SDM845_MASK);
 *  - each pipe at most 2560 pixels wide (max_linewidth,
 *    DEFAULT_DPU_OUTPUT_LINE_WIDTH), also the width limit while scaling;
 *    rotations 0 and 180 and reflections, no 90 (no inline rotation);
 *  - 1 scaler in all; upscaling up to 20x, downscaling 4x
 *    (MAX_UPSCALE_RATIO, MAX_DOWNSCALE_RATIO);
 *  - bandwidth 6800 MB/s (sc7180_perf_data.max_bw_high, 6800000 kB/s);
 *  - 2 PLLs, in the class of its DSI PHY's and DP PHY's one each;
 *  - 460000 kHz of pixel clock per CRTC: the top MDP core clock of
 *    sc7180.dtsi's mdp_opp_table, at one pixel a core clock; the core
 *    clock DPU sets is the highest any CRTC needs, not their sum
 *    (_dpu_core_perf_get_core_clk_rate()), and dpu_plane refuses a plane
 *    whose clock is over it, so two CRTCs at 241500 kHz are accepted;
 *  - cursors: any size a DMA pipe takes (DPU has no cursor hardware).
 *
 * laptop - in the class of Intel's display version 9 (Skylake, Kaby
 * Lake, Broxton), per drivers/gpu/drm/i915/display:
 *  - 3 pipes with planes of their own: pipes A and B 3 universal planes
 *    and a cursor, pipe C 2 and a cursor, the hardware's planes but the
 *    topmost, as i915 exposes them on Broxton (num_sprites 2, 2, 1; on
 *    Skylake and Kaby Lake it exposes one sprite a pipe); NV12 and the
 *    other multi-plane formats on planes 1 and 2 of pipes A and B only,
 *    as skl_plane_has_planar() allows them on Kaby Lake (not Skylake or
 *    Broxton: WA #0870), packed formats elsewhere; cursors ARGB8888
 *    (intel_cursor_formats);
 *  - universal planes up to 5120x4096 (skl_plane_max_width() for linear
 *    4-byte formats, skl_plane_max_height()); rotations 0, 90, 180, 270
 *    (90 and 270 need Y tiling there, which is not modelled), no
 *    reflection; cursors 0 and 180;
 *  - scalers 2, 2 and 1 on pipes A, B, C (num_scalers), none beyond;
 *    downscaling under 3x (skl_plane_max_scale(): 0x30000 - 1), no
 *    upscaling limit (min_scale 1); scaler sources and destinations 8x8
 *    at least and 4096 wide at most (SKL_MIN_SRC_W ... SKL_MAX_DST_W);
 *  - bandwidth 12000 MB/s: ours, about a third of dual-channel
 *    DDR4-2400's 38400 MB/s peak (i915 has no such number for it);
 *  - 3 PLLs: DPLL 1 to 3 of skl_plls, which every output but eDP takes
 *    (DPLL 0 also runs CDCLK); with 3 pipes it never binds;
 *  - 675000 kHz per CRTC: intel_compute_max_dotclk() on display 9, the
 *    top CDCLK (675 MHz); no total;
 *  - cursors 64x64, 128x128 or 256x256 (i9xx_cursor_size_ok(); the
 *    shorter heights it also takes are not modelled).
 *
 * desktop - in the class of AMD's DCN 3.0 (Navi 21), per
 * drivers/gpu/drm/amd/display/dc/resource/dcn30/dcn30_resource.c:
 *  - a pool of 6 pipes (DPP and HUBP, pipe_count = num_timing_generator)
 *    that any CRTC may use, each with its scaler, every format
 *    (plane_cap: ARGB8888, NV12, FP16, P010); rotations 0, 90, 180, 270
 *    (amdgpu_dm_plane.c); a cursor per CRTC, ARGB8888, taking no pipe;
 *  - 6 scalers in all, one a pipe; upscaling 16x (max_upscale_factor
 *    16000), downscaling 1000/167, about 6x (max_downscale_factor 167);
 *    7680 pixels wide at most while scaling (max_downscale_src_width, a
 *    downscaling limit there);
 *  - bandwidth 32000 MB/s: ours, four 8K60 ARGB8888 planes (31850 MB/s);
 *  - 6 PLLs (DCN30_CLK_SRC_PLL0 to PLL5); no pixel clock limit;
 *  - cursors up to 256x256 (max_cursor_size).
 *
 * A wide plane that real hardware splits over two pipes (DPU's source
 * split, DCN's pipe split) takes one here and is refused if too wide.
 */

/**
 * atomkms_limits_init - a profile without any limit
 * @l: filled in: every limit %ATOMKMS_LIMIT_NONE, every minimum 0
 *
 * Today's behaviour: atomkms_limits_check() accepts any state. Inline:
 * the topology's defaults take it, and atomkms_test.ko builds the
 * topology's source without this one's.
 */
static inline void atomkms_limits_init(struct atomkms_limits *l)
{
	u32 i;

	memset(l, 0, sizeof(*l));
	l->max_active_planes = ATOMKMS_LIMIT_NONE;
	l->max_crtc_planes = ATOMKMS_LIMIT_NONE;
	l->num_hw_planes = ATOMKMS_LIMIT_NONE;
	for (i = 0; i < ATOMKMS_LIMITS_MAX_CRTCS; i++)
		l->num_scalers[i] = ATOMKMS_LIMIT_NONE;
	l->max_scalers = ATOMKMS_LIMIT_NONE;
	l->max_upscale = ATOMKMS_LIMIT_NONE;
	l->max_downscale = ATOMKMS_LIMIT_NONE;
	l->scaler_max_width = ATOMKMS_LIMIT_NONE;
	l->bandwidth_mbps = ATOMKMS_LIMIT_NONE;
	l->num_plls = ATOMKMS_LIMIT_NONE;
	l->max_crtc_clock_khz = ATOMKMS_LIMIT_NONE;
	l->max_total_clock_khz = ATOMKMS_LIMIT_NONE;
	l->cursor_max_w = ATOMKMS_LIMIT_NONE;
	l->cursor_max_h = ATOMKMS_LIMIT_NONE;
	l->num_cursor_sizes = ATOMKMS_LIMIT_NONE;
}

/**
 * struct atomkms_limits_params - a profile as the module parameters and
 * configfs give it (README: "Emulating a display engine's limits")
 * @preset: a preset's name (atomkms_limits_preset()); NULL or "" is "none"
 * @max_active_planes: %ATOMKMS_LIMIT_NONE: the preset's; otherwise it
 *                     replaces the preset's (0: no plane may be shown)
 * @num_plls: likewise
 * @bandwidth_mbps: likewise
 * @num_scalers: each CRTC's scalers, likewise entry by entry
 * @num_num_scalers: entries given in @num_scalers; the CRTCs beyond take
 *                   the last entry (none given: the preset's)
 */
struct atomkms_limits_params {
	const char *preset;
	u32 max_active_planes;
	u32 num_plls;
	u32 bandwidth_mbps;
	u32 num_scalers[ATOMKMS_LIMITS_MAX_CRTCS];
	u32 num_num_scalers;
};

int atomkms_limits_preset(const char *name, struct atomkms_limits *l);
int atomkms_limits_validate(const struct atomkms_limits *l, const char **why);
int atomkms_limits_from_params(const struct atomkms_limits_params *p,
			       struct atomkms_limits *l, const char **why);
bool atomkms_limits_any(const struct atomkms_limits *l);
void atomkms_limits_plane_caps(const struct atomkms_limits *l, u32 plane,
			       u32 type, u32 *possible_crtcs, u64 *formats,
			       u8 *rotations);

bool atomkms_limits_plane_scales(const struct atomkms_limits_plane *p);
u64 atomkms_limits_plane_bytes(const struct atomkms_limits_plane *p);
u32 atomkms_limits_assign(const struct atomkms_limits *l,
			  const struct atomkms_limits_state *s, u8 *hw);
int atomkms_limits_check(const struct atomkms_limits *l,
			 const struct atomkms_limits_state *s,
			 char *why, u32 why_len);

#endif /* ATOMKMS_LIMITS_H */
