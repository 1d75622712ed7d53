/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The speculation thunks that the core built with the kernel's flags calls
 * (bench/run.sh's kernel-flags build): -mindirect-branch=thunk-extern
 * makes every indirect call a call to __x86_indirect_thunk_<reg>, and
 * -mfunction-return=thunk-extern every return a jump to
 * __x86_return_thunk. Here they do what Debian's 6.12 kernel runs on an
 * AMD Zen 3/4 (family 0x19) without AutoIBRS, as on this benchmark's
 * machine (/sys/devices/system/cpu/vulnerabilities: spectre_v2
 * "Retpolines", spec_rstack_overflow "Safe RET"):
 *
 *  - spectre_v2=retpoline (X86_FEATURE_RETPOLINE, not _LFENCE): a module's
 *    calls to the thunks stay (apply_retpolines()), and each thunk is the
 *    generic retpoline of arch/x86/lib/retpoline.S, whose RET is itself
 *    the return thunk;
 *  - SRSO Safe RET on family 0x19: a module's return-thunk jumps go to
 *    srso_alias_return_thunk (apply_returns()), a call to
 *    srso_alias_safe_ret, which drops that call's return address and
 *    returns: every return is mispredicted, by design. The kernel places
 *    srso_alias_safe_ret at an address that aliases
 *    srso_alias_untrain_ret in the BTB; that matters for the mitigation
 *    only, not for the time taken, and is not reproduced.
 *
 * Built with -DBENCH_PLAIN_THUNKS instead (BENCH_KTHUNKS=plain), they are
 * what a kernel with neither mitigation patches in: a plain indirect jump
 * and a plain return.
 */
	.text

#ifdef BENCH_PLAIN_THUNKS

	.p2align 5
	.globl __x86_return_thunk
	.type __x86_return_thunk, @function
__x86_return_thunk:
	ret
	int3
	.size __x86_return_thunk, . - __x86_return_thunk

	.irp reg, rax, rbx, rcx, rdx, rsi, rdi, rbp, r8, r9, r10, r11, r12, r13, r14, r15
	.p2align 5
	.globl __x86_indirect_thunk_\reg
	.type __x86_indirect_thunk_\reg, @function
__x86_indirect_thunk_\reg:
	jmp *%\reg
	int3
	.size __x86_indirect_thunk_\reg, . - __x86_indirect_thunk_\reg
	.endr

#else

	/* srso_alias_return_thunk and srso_alias_safe_ret */
	.p2align 6
	.globl __x86_return_thunk
	.type __x86_return_thunk, @function
__x86_return_thunk:
	call bench_srso_alias_safe_ret
	ud2
	.size __x86_return_thunk, . - __x86_return_thunk

	.p2align 6
	.type bench_srso_alias_safe_ret, @function
bench_srso_alias_safe_ret:
	lea 8(%rsp), %rsp
	ret
	int3
	.size bench_srso_alias_safe_ret, . - bench_srso_alias_safe_ret

	/* RETPOLINE_THUNK_SIZE: 32 bytes a thunk */
	.irp reg, rax, rbx, rcx, rdx, rsi, rdi, rbp, r8, r9, r10, r11, r12, r13, r14, r15
	.p2align 5
	.globl __x86_indirect_thunk_\reg
	.type __x86_indirect_thunk_\reg, @function
__x86_indirect_thunk_\reg:
	call 1f
	int3
1:	mov %\reg, (%rsp)
	jmp __x86_return_thunk
	.size __x86_indirect_thunk_\reg, . - __x86_indirect_thunk_\reg
	.endr

#endif

	.section .note.GNU-stack, "", @progbits
