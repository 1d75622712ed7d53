// SPDX-License-Identifier: GPL-2.0-only
/*
 * Which line loops the compositor runs (include/atomkms_simd.h), chosen
 * once at load, as lib/raid6 chooses its syndrome code: each that the CPU
 * can run (scalar; SSE2; AVX2 with the OS saving YMM) composes a small
 * line in memory for about ATOMKMS_SIMD_CALIB_NS, twice, and the fastest
 * wins. Under QEMU's TCG, which emulates the compositor's vector byte
 * shuffles and packs slowly, that is the scalar code; on hardware AVX2.
 * The CRC's lane steps (crc_blocks) are timed apart, on a line of their
 * own, and take their own level: 32-bit vector adds, multiplies, shifts
 * and xors, which TCG may map to the host's. The simd= parameter forces
 * one level for both.
 *
 * The vector loops run only between kernel_fpu_begin() and
 * kernel_fpu_end(), which the core calls through the table's begin and
 * end hooks around a few lines at a time; the hooks also time each
 * section, and the debugfs file atomkms_simd shows the longest.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/sched/clock.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/atomic.h>

#include <drm/drm_debugfs.h>
#include <drm/drm_device.h>

#ifdef CONFIG_X86_64
#include <asm/cpufeature.h>
#include <asm/fpu/api.h>
#include <asm/fpu/xstate.h>
#endif

#include "atomkms_compose.h"
#include "atomkms_simd.h"
#include "atomkms_simd_choice.h"

static char *simd = "auto";
module_param(simd, charp, 0444);
MODULE_PARM_DESC(simd,
		 "Compositor line loops and CRC: auto (the fastest of each, timed at load; default), scalar, sse2, avx2 (both)");

/* Time each candidate composes for, per round (two rounds). */
#define ATOMKMS_SIMD_CALIB_NS	(1000 * 1000)

/**
 * struct atomkms_simd_candidate - line loops the module may run
 * @ops: the table
 * @usable: the CPU (and the kernel's FPU state) can run it
 * @mpx: calibration figure: million pixels a second, best round
 * @crc_mpx: the same for the CRC's lane steps
 */
struct atomkms_simd_candidate {
	const struct atomkms_simd_ops *ops;
	bool usable;
	u32 mpx;
	u32 crc_mpx;
};

/*
 * The chosen table: the line loops' level, with the CRC level's
 * crc_blocks, and begin and end set when either is vector code.
 */
static struct atomkms_simd_ops atomkms_simd_chosen;
/* The CRC's level, for the logs. */
static const struct atomkms_simd_ops *atomkms_simd_crc_level;
static bool atomkms_simd_forced;
static struct atomkms_simd_candidate atomkms_simd_cands[3];
static unsigned int atomkms_simd_num_cands;

/* The longest FPU section, how many, and their total time, since load. */
static atomic64_t atomkms_simd_fpu_max_ns = ATOMIC64_INIT(0);
static atomic64_t atomkms_simd_fpu_sections = ATOMIC64_INIT(0);
static atomic64_t atomkms_simd_fpu_total_ns = ATOMIC64_INIT(0);
static DEFINE_PER_CPU(u64, atomkms_simd_fpu_t0);

#ifdef CONFIG_X86_64
static void atomkms_simd_fpu_begin(void)
{
	kernel_fpu_begin();
	/* Preemption stays off until the matching end: this CPU's. */
	__this_cpu_write(atomkms_simd_fpu_t0, local_clock());
}

static void atomkms_simd_fpu_end(void)
{
	s64 t = local_clock() - __this_cpu_read(atomkms_simd_fpu_t0);
	s64 max = atomic64_read(&atomkms_simd_fpu_max_ns);

	kernel_fpu_end();
	atomic64_inc(&atomkms_simd_fpu_sections);
	atomic64_add(t, &atomkms_simd_fpu_total_ns);
	while (t > max &&
	       !atomic64_try_cmpxchg(&atomkms_simd_fpu_max_ns, &max, t))
		;
}

static bool atomkms_simd_has_avx2(void)
{
	return boot_cpu_has(X86_FEATURE_AVX2) &&
	       boot_cpu_has(X86_FEATURE_OSXSAVE) &&
	       cpu_has_xfeatures(XFEATURE_MASK_SSE | XFEATURE_MASK_YMM, NULL);
}
#endif

static void atomkms_simd_cands_init(void)
{
	struct atomkms_simd_candidate *c = atomkms_simd_cands;

	c[0] = (struct atomkms_simd_candidate){ &atomkms_simd_scalar, true };
	atomkms_simd_num_cands = 1;
#ifdef CONFIG_X86_64
	c[1] = (struct atomkms_simd_candidate){
		&atomkms_simd_sse2, boot_cpu_has(X86_FEATURE_XMM2) };
	c[2] = (struct atomkms_simd_candidate){
		&atomkms_simd_avx2, atomkms_simd_has_avx2() };
	atomkms_simd_num_cands = 3;
#endif
}

/*
 * Use @ops' line loops and @crc's crc_blocks: the FPU section hooks when
 * either is vector code (the core opens sections around packed lines,
 * whose sinks take the CRC).
 */
static void atomkms_simd_use(const struct atomkms_simd_ops *ops,
			     const struct atomkms_simd_ops *crc)
{
	atomkms_simd_chosen = *ops;
	atomkms_simd_chosen.crc_blocks = crc->crc_blocks;
	atomkms_simd_crc_level = crc;
#ifdef CONFIG_X86_64
	if (ops != &atomkms_simd_scalar || crc != &atomkms_simd_scalar) {
		atomkms_simd_chosen.begin = atomkms_simd_fpu_begin;
		atomkms_simd_chosen.end = atomkms_simd_fpu_end;
	}
#endif
}

/*
 * Million pixels a second @ops runs a calibration workload at, a step per
 * FPU section, for about @ns: the line loops' (atomkms_simd_calib_step())
 * or, with @crc, the CRC's (atomkms_simd_crc_calib_step()).
 */
static u32 atomkms_simd_time(const struct atomkms_simd_ops *ops, bool crc,
			     u32 *s, u32 *d, u64 ns)
{
	u32 h[ATOMKMS_CRC_LANES] = { 0 };
	u64 t0 = local_clock(), t, px = 0;

	atomkms_simd_use(ops, ops);
	do {
		if (atomkms_simd_chosen.begin)
			atomkms_simd_chosen.begin();
		if (crc)
			px += atomkms_simd_crc_calib_step(ops, h, s);
		else
			px += atomkms_simd_calib_step(ops, s, d);
		if (atomkms_simd_chosen.end)
			atomkms_simd_chosen.end();
		t = local_clock() - t0;
	} while (t < ns);
	return div64_u64(px * 1000, t);
}

/*
 * Time every usable candidate, two rounds of each workload; the fastest
 * line loops into @ops, the fastest CRC into @crc.
 */
static void atomkms_simd_calibrate(const struct atomkms_simd_ops **ops,
				   const struct atomkms_simd_ops **crc)
{
	struct atomkms_simd_candidate *best = &atomkms_simd_cands[0];
	struct atomkms_simd_candidate *best_crc = &atomkms_simd_cands[0];
	unsigned int i, round;
	u32 *s, *d;

	*ops = &atomkms_simd_scalar;
	*crc = &atomkms_simd_scalar;
	s = kmalloc_array(2 * ATOMKMS_SIMD_CALIB_PX, sizeof(*s), GFP_KERNEL);
	if (!s)
		return;
	d = s + ATOMKMS_SIMD_CALIB_PX;
	atomkms_simd_calib_init(s, d);
	for (round = 0; round < 2; round++) {
		for (i = 0; i < atomkms_simd_num_cands; i++) {
			struct atomkms_simd_candidate *c = &atomkms_simd_cands[i];

			if (!c->usable)
				continue;
			c->mpx = max(c->mpx,
				     atomkms_simd_time(c->ops, false, s, d,
						       ATOMKMS_SIMD_CALIB_NS));
			c->crc_mpx = max(c->crc_mpx,
					 atomkms_simd_time(c->ops, true, s, d,
							   ATOMKMS_SIMD_CALIB_NS));
		}
	}
	kfree(s);
	for (i = 1; i < atomkms_simd_num_cands; i++) {
		struct atomkms_simd_candidate *c = &atomkms_simd_cands[i];

		if (c->usable && c->mpx > best->mpx)
			best = c;
		if (c->usable && c->crc_mpx > best_crc->crc_mpx)
			best_crc = c;
	}
	*ops = best->ops;
	*crc = best_crc->ops;
}

/**
 * atomkms_simd_init - choose the compositor's line loops, at module load
 *
 * Return: 0, or -EINVAL for a simd= value that is unknown or that this
 * CPU cannot run.
 */
int atomkms_simd_init(void)
{
	const struct atomkms_simd_ops *ops = NULL, *crc = NULL;
	unsigned int i;

	atomkms_simd_cands_init();
	if (!strcmp(simd, "auto")) {
		atomkms_simd_calibrate(&ops, &crc);
	} else {
		for (i = 0; i < atomkms_simd_num_cands; i++) {
			if (strcmp(simd, atomkms_simd_cands[i].ops->name))
				continue;
			if (!atomkms_simd_cands[i].usable) {
				pr_err("atomkms: simd=%s: this CPU cannot run it\n",
				       simd);
				return -EINVAL;
			}
			ops = atomkms_simd_cands[i].ops;
		}
		if (!ops) {
			pr_err("atomkms: simd=%s: unknown; auto, scalar, sse2 or avx2\n",
			       simd);
			return -EINVAL;
		}
		atomkms_simd_forced = true;
		crc = ops;
	}
	atomkms_simd_use(ops, crc);
	if (atomkms_simd_forced)
		pr_info("atomkms: compositor line loops: %s, CRC: %s (simd=%s)\n",
			ops->name, crc->name, simd);
	else
		pr_info("atomkms: compositor line loops: %s, CRC: %s (timed at load, Mpx/s: scalar %u, sse2 %u, avx2 %u; CRC scalar %u, sse2 %u, avx2 %u; 0: not on this CPU)\n",
			ops->name, crc->name, atomkms_simd_cands[0].mpx,
			atomkms_simd_cands[1].mpx, atomkms_simd_cands[2].mpx,
			atomkms_simd_cands[0].crc_mpx,
			atomkms_simd_cands[1].crc_mpx,
			atomkms_simd_cands[2].crc_mpx);
	/* The calibration's sections are not the compositor's. */
	atomic64_set(&atomkms_simd_fpu_max_ns, 0);
	atomic64_set(&atomkms_simd_fpu_sections, 0);
	atomic64_set(&atomkms_simd_fpu_total_ns, 0);
	return 0;
}

/**
 * atomkms_simd_get - the line loops every composition uses
 *
 * Return: the table atomkms_simd_init() chose, for &struct atomkms_frame:
 * the line loops' level, with the CRC level's crc_blocks.
 */
const struct atomkms_simd_ops *atomkms_simd_get(void)
{
	return &atomkms_simd_chosen;
}

static int atomkms_simd_show(struct seq_file *m, void *data)
{
	s64 n = atomic64_read(&atomkms_simd_fpu_sections);
	unsigned int i;

	seq_printf(m, "line loops: %s (%s)\n", atomkms_simd_chosen.name,
		   atomkms_simd_forced ? "simd= parameter" : "timed at load");
	seq_printf(m, "crc: %s (%s)\n", atomkms_simd_crc_level->name,
		   atomkms_simd_forced ? "simd= parameter" : "timed at load");
	for (i = 0; i < atomkms_simd_num_cands; i++) {
		const struct atomkms_simd_candidate *c = &atomkms_simd_cands[i];

		if (!c->usable)
			seq_printf(m, "%s: not on this CPU\n", c->ops->name);
		else if (atomkms_simd_forced)
			seq_printf(m, "%s: usable, not timed\n", c->ops->name);
		else
			seq_printf(m, "%s: usable, %u Mpx/s at load, CRC %u Mpx/s\n",
				   c->ops->name, c->mpx, c->crc_mpx);
	}
	seq_printf(m, "fpu sections: %lld\n", n);
	seq_printf(m, "longest fpu section: %lld ns\n",
		   atomic64_read(&atomkms_simd_fpu_max_ns));
	seq_printf(m, "mean fpu section: %lld ns\n",
		   n ? div64_s64(atomic64_read(&atomkms_simd_fpu_total_ns), n) : 0);
	return 0;
}

/**
 * atomkms_simd_debugfs_init - the device's atomkms_simd debugfs file
 * @drm: the device
 *
 * What runs, the load-time figures, and the FPU sections so far (all
 * devices' compositions: the choice is the module's).
 */
void atomkms_simd_debugfs_init(struct drm_device *drm)
{
	drm_debugfs_add_file(drm, "atomkms_simd", atomkms_simd_show, NULL);
}
