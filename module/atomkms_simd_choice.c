// SPDX-License-Identifier: GPL-2.0-only
/*
 * Which line loops the compositor runs (include/atomkms_simd.h), chosen
 * once at load, as lib/raid6 chooses its syndrome code: each that the CPU
 * can run (scalar; SSE2; AVX2 with the OS saving YMM) composes a small
 * line in memory for about ATOMKMS_SIMD_CALIB_NS, twice, and the fastest
 * wins. Under QEMU's TCG, which emulates vector instructions slowly, that
 * is the scalar code; on hardware AVX2. The simd= parameter forces one.
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
		 "Compositor line loops: auto (the fastest, timed at load; default), scalar, sse2, avx2");

/* Time each candidate composes for, per round (two rounds). */
#define ATOMKMS_SIMD_CALIB_NS	(1000 * 1000)

/**
 * struct atomkms_simd_candidate - line loops the module may run
 * @ops: the table
 * @usable: the CPU (and the kernel's FPU state) can run it
 * @mpx: calibration figure: million pixels a second, best round
 */
struct atomkms_simd_candidate {
	const struct atomkms_simd_ops *ops;
	bool usable;
	u32 mpx;
};

/* The chosen table, with begin and end set for vector code. */
static struct atomkms_simd_ops atomkms_simd_chosen;
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

/* Use @ops: vector tables get the FPU section hooks. */
static void atomkms_simd_use(const struct atomkms_simd_ops *ops)
{
	atomkms_simd_chosen = *ops;
#ifdef CONFIG_X86_64
	if (ops != &atomkms_simd_scalar) {
		atomkms_simd_chosen.begin = atomkms_simd_fpu_begin;
		atomkms_simd_chosen.end = atomkms_simd_fpu_end;
	}
#endif
}

/*
 * Million pixels a second @ops runs the calibration workload
 * (atomkms_simd_calib_step()) at, a step per FPU section, for about @ns.
 */
static u32 atomkms_simd_time(const struct atomkms_simd_ops *ops, u32 *s,
			     u32 *d, u64 ns)
{
	u64 t0 = local_clock(), t, px = 0;

	atomkms_simd_use(ops);
	do {
		if (atomkms_simd_chosen.begin)
			atomkms_simd_chosen.begin();
		px += atomkms_simd_calib_step(ops, s, d);
		if (atomkms_simd_chosen.end)
			atomkms_simd_chosen.end();
		t = local_clock() - t0;
	} while (t < ns);
	return div64_u64(px * 1000, t);
}

/* Time every usable candidate, two rounds; return the fastest. */
static const struct atomkms_simd_ops *atomkms_simd_calibrate(void)
{
	struct atomkms_simd_candidate *best = &atomkms_simd_cands[0];
	unsigned int i, round;
	u32 *s, *d;

	s = kmalloc_array(2 * ATOMKMS_SIMD_CALIB_PX, sizeof(*s), GFP_KERNEL);
	if (!s)
		return &atomkms_simd_scalar;
	d = s + ATOMKMS_SIMD_CALIB_PX;
	atomkms_simd_calib_init(s, d);
	for (round = 0; round < 2; round++) {
		for (i = 0; i < atomkms_simd_num_cands; i++) {
			struct atomkms_simd_candidate *c = &atomkms_simd_cands[i];
			u32 mpx;

			if (!c->usable)
				continue;
			mpx = atomkms_simd_time(c->ops, s, d,
						ATOMKMS_SIMD_CALIB_NS);
			c->mpx = max(c->mpx, mpx);
		}
	}
	kfree(s);
	for (i = 1; i < atomkms_simd_num_cands; i++)
		if (atomkms_simd_cands[i].usable &&
		    atomkms_simd_cands[i].mpx > best->mpx)
			best = &atomkms_simd_cands[i];
	return best->ops;
}

/**
 * atomkms_simd_init - choose the compositor's line loops, at module load
 *
 * Return: 0, or -EINVAL for a simd= value that is unknown or that this
 * CPU cannot run.
 */
int atomkms_simd_init(void)
{
	const struct atomkms_simd_ops *ops = NULL;
	unsigned int i;

	atomkms_simd_cands_init();
	if (!strcmp(simd, "auto")) {
		ops = atomkms_simd_calibrate();
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
	}
	atomkms_simd_use(ops);
	if (atomkms_simd_forced)
		pr_info("atomkms: compositor line loops: %s (simd=%s)\n",
			ops->name, simd);
	else
		pr_info("atomkms: compositor line loops: %s (timed at load, Mpx/s: scalar %u, sse2 %u, avx2 %u; 0: not on this CPU)\n",
			ops->name, atomkms_simd_cands[0].mpx,
			atomkms_simd_cands[1].mpx, atomkms_simd_cands[2].mpx);
	/* The calibration's sections are not the compositor's. */
	atomic64_set(&atomkms_simd_fpu_max_ns, 0);
	atomic64_set(&atomkms_simd_fpu_sections, 0);
	atomic64_set(&atomkms_simd_fpu_total_ns, 0);
	return 0;
}

/**
 * atomkms_simd_get - the line loops every composition uses
 *
 * Return: the table atomkms_simd_init() chose, for &struct atomkms_frame.
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
	for (i = 0; i < atomkms_simd_num_cands; i++) {
		const struct atomkms_simd_candidate *c = &atomkms_simd_cands[i];

		if (!c->usable)
			seq_printf(m, "%s: not on this CPU\n", c->ops->name);
		else if (atomkms_simd_forced)
			seq_printf(m, "%s: usable, not timed\n", c->ops->name);
		else
			seq_printf(m, "%s: usable, %u Mpx/s at load\n",
				   c->ops->name, c->mpx);
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
