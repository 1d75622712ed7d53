#!/bin/sh
# The kernel's code-generation flags for the compositor core, for the
# benchmark's kernel-flags build (bench/run.sh). Usage: bench/kflags.sh OUT
#
# kbuild itself compiles module/core/atomkms_compose.o, from a copy of the
# core in OUT/kobj, against the target kernel's headers (the Makefile's
# KDIR); its command line (savedcmd in the .o.cmd file) is then sorted:
#  - kept: every flag that shapes the code (-m*, -f*, -O*, -g*, -std=, -pg,
#    --param=), the retpoline and return-thunk flags among them: their
#    thunks are bench/kthunks.S;
#  - replaced: -mcmodel=kernel, which cannot link in userspace (the core
#    takes the small model: non-PIE, as -fno-PIE asks, it is the same code
#    but for the stack canary's segment, %fs:40 for %gs:40), and any
#    -mstack-protector-guard* (the same); -mnop-mcount is added: the
#    kernel turns the __fentry__ calls of -pg -mfentry into 5-byte NOPs
#    when it loads a module (ftrace off), -mnop-mcount emits those NOPs;
#  - left out, not code: the compiler, warnings, -D, -I, -include,
#    -nostdinc, -Wp, -c, -o, file names, -f*-prefix-map.
# An unknown flag stops the script rather than be dropped unseen.
#
# The vector objects (module/core/simd/atomkms_simd_<level>.o, sources.mk's
# ATOMKMS_SIMD) are compiled by kbuild the same way, with their own
# per-object flags (Kbuild: the kernel's CC_FLAGS_FPU, -mavx2), and their
# command lines sorted alike (-isystem, the compiler's intrinsics headers,
# left out: userspace's compiler finds them itself).
#
# Writes OUT/kflags.env (kcc=, kcflags=, kcflags_<level>= for each vector
# object, simd_levels=; for run.sh to source) and prints the lists.
set -eu

out=${1:?usage: bench/kflags.sh OUT}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
kdir=$(make -s --no-print-directory -C "$top" kdir)
if [ ! -f "$kdir/Makefile" ]; then
	echo "bench: no kernel headers at '$kdir' (linux-headers-6.12*-amd64):" >&2
	echo "bench: the kernel-flags build reads its flags from kbuild; install them (make setup)" >&2
	exit 1
fi

# A copy of what kbuild reads, as make module-debug makes one.
kobj=$out/kobj
rm -rf "$kobj"
mkdir -p "$kobj/module/core/simd" "$kobj/include"
cp Kbuild "$kobj/"
cp module/core/*.c module/core/sources.mk "$kobj/module/core/"
cp module/core/simd/*.[ch] "$kobj/module/core/simd/"
cp include/*.h "$kobj/include/"
simd_levels=$(sed -n 's/^ATOMKMS_SIMD := //p' module/core/sources.mk)

# kbuild's command line for OBJ (a path under module/core/) into $cmd.
kbuild_cmd() {
	if ! make -C "$kdir" M="$top/$kobj" "$1" > "$out/kobj.log" 2>&1; then
		tail -n 20 "$out/kobj.log" >&2
		echo "bench: kbuild could not compile $1 against $kdir (log: $out/kobj.log)" >&2
		exit 1
	fi
	f=$kobj/$(dirname "$1")/.$(basename "$1").cmd
	cmd=$(sed -n 's/^savedcmd_[^ ]* := //p' "$f")
	[ -n "$cmd" ] || { echo "bench: no command line in $f" >&2; exit 1; }
}

# Sort $cmd's words into kcc, kept, replaced, dropped.
sort_cmd() {
kcc='' kept='' replaced='' dropped='' skip=''
set -f
# shellcheck disable=SC2086
for w in $cmd; do
	if [ -z "$kcc" ]; then
		kcc=$w
		continue
	fi
	if [ -n "$skip" ]; then
		dropped="$dropped $skip $w"
		skip=
		continue
	fi
	case $w in
	-include|-o|-I|-D|-x|-MF|-MT|-isystem)
		skip=$w ;;
	-mcmodel=kernel|-mstack-protector-guard*)
		replaced="$replaced $w" ;;
	-W*|-D*|-U*|-I*|-nostdinc|-c|-fmacro-prefix-map=*|-ffile-prefix-map=*|-fdebug-prefix-map=*|*.c)
		dropped="$dropped $w" ;;
	-m*|-f*|-O*|-g*|-std=*|-pg|--param=*)
		case " $kept " in
		*" $w "*) ;;	# kbuild repeats some (-fno-jump-tables)
		*) kept="$kept $w" ;;
		esac ;;
	*)
		echo "bench: kernel flag '$w' is neither known code nor known non-code: teach bench/kflags.sh" >&2
		exit 1 ;;
	esac
done
set +f
added=
case " $kept " in
*" -mfentry "*) added=-mnop-mcount ;;
esac
}

obj=module/core/atomkms_compose.o
kbuild_cmd $obj
sort_cmd
kcflags="${kept# } $added"
printf "kcc='%s'\nkcflags='%s'\nsimd_levels='%s'\n" "$kcc" "$kcflags" \
	"$simd_levels" > "$out/kflags.env"
core_kept=$kept core_kcc=$kcc
for l in $simd_levels; do
	kbuild_cmd "module/core/simd/atomkms_simd_$l.o"
	sort_cmd
	[ "$kcc" = "$core_kcc" ] ||
		{ echo "bench: kbuild used $kcc for the $l object, $core_kcc for the core" >&2; exit 1; }
	printf "kcflags_%s='%s'\n" "$l" "${kept# } $added" >> "$out/kflags.env"
	# What the object's flags change, against the core's.
	more='' less=''
	for w in $kept; do
		case " $core_kept " in *" $w "*) ;; *) more="$more $w" ;; esac
	done
	for w in $core_kept; do
		case " $kept " in *" $w "*) ;; *) less="$less $w" ;; esac
	done
	echo "bench: kbuild's flags for module/core/simd/atomkms_simd_$l.o: the core's, plus${more:- nothing}, less${less:- nothing}"
done
# The core's lists again, for the summary below.
cmd=$(sed -n 's/^savedcmd_[^ ]* := //p' "$kobj/module/core/.atomkms_compose.o.cmd")
sort_cmd

nd=$(echo "$dropped" | wc -w)
echo "bench: kernel flags from kbuild ($kdir, $obj):"
echo "  compiler: $kcc"
echo "  kept:    ${kept# }"
echo "  added:   ${added:-none}"
echo "  replaced:${replaced:- none} (userspace's small code model, non-PIE; canary at %fs:40)"
echo "  left out: $nd words that are not code (warnings, -D, -I, -include, -nostdinc, -Wp, -o, file names)"
