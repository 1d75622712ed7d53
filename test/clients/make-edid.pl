#!/usr/bin/perl
# make-edid: write a 128-byte EDID 1.4 base block whose preferred (first
# detailed) timing is WxH at R Hz (CVT reduced-blanking timings), with a
# monitor name, a range-limits descriptor and a physical size of 0.25 mm a
# pixel, to stdout. For tests (the weston hotplug test plugs a monitor
# with it) and for atomkms-shape's set-edid / plug.
#
# Usage: make-edid.pl WxH[@R] [NAME] > monitor.edid
#   R defaults to 60; NAME (up to 13 characters) to "ATK WxH".
# Perl, not C: the clients image has perl but no compiler.
use strict;
use warnings;

my ($spec, $name) = @ARGV;
die "usage: make-edid.pl WxH[\@R] [NAME]\n"
	unless defined $spec && $spec =~ /^(\d+)x(\d+)(?:@(\d+))?$/;
my ($w, $h, $r) = ($1, $2, $3 // 60);
die "make-edid: $spec: width and height 64-4095, refresh 1-240\n"
	if $w < 64 || $w > 4095 || $h < 64 || $h > 4095 || $r < 1 || $r > 240;
$name //= "ATK ${w}x$h";
$name = substr($name, 0, 13);

# CVT 1.2 reduced blanking (v1): 160 pixels of horizontal blanking, at
# least 460 us of vertical blanking, 3 lines of front porch.
my ($hfp, $hsync, $hblank) = (48, 32, 160);
my $vfp = 3;
my $vsync = 10;
for ([4, 3, 4], [16, 9, 5], [16, 10, 6], [5, 4, 7], [15, 9, 7]) {
	my ($a, $b, $s) = @$_;
	$vsync = $s if $w * $b == $h * $a;
}
my $hperiod = (1e6 / $r - 460) / $h;                 # us a line
my $vblank = int(460 / $hperiod) + 1;
$vblank = $vfp + $vsync + 6 if $vblank < $vfp + $vsync + 6;
my ($htotal, $vtotal) = ($w + $hblank, $h + $vblank);
my $khz = int($r * $htotal * $vtotal / 1000 / 250) * 250;  # 0.25 MHz steps
die "make-edid: ${w}x$h\@$r needs $khz kHz, more than a detailed timing holds (655350)\n"
	if $khz > 655350;
my ($wmm, $hmm) = (int($w / 4), int($h / 4));

sub dtd {
	my $c = $khz / 10;
	return pack('C18',
		$c & 0xff, $c >> 8,
		$w & 0xff, $hblank & 0xff, (($w >> 8) << 4) | ($hblank >> 8),
		$h & 0xff, $vblank & 0xff, (($h >> 8) << 4) | ($vblank >> 8),
		$hfp & 0xff, $hsync & 0xff, (($vfp & 0xf) << 4) | ($vsync & 0xf),
		(($hfp >> 8) << 6) | (($hsync >> 8) << 4) | (($vfp >> 4) << 2) | ($vsync >> 4),
		$wmm & 0xff, $hmm & 0xff, (($wmm >> 8) << 4) | ($hmm >> 8),
		0, 0,
		0x1a);          # digital separate sync, hsync +, vsync -
}

sub text {
	my ($tag, $s) = @_;
	$s .= "\n" if length($s) < 13;
	return pack('C5', 0, 0, 0, $tag, 0) . $s . (' ' x (13 - length($s)));
}

my $hkhz = int($khz / $htotal) + 1;
my $range = pack('C18', 0, 0, 0, 0xfd, 0,
	$r > 24 ? 24 : 1, $r, 1, $hkhz > 255 ? 255 : $hkhz,
	int(($khz + 9999) / 10000),
	1,              # range limits only
	0x0a, (0x20) x 6);

my $mfg = ((ord('A') - 64) << 10) | ((ord('T') - 64) << 5) | (ord('K') - 64);
my $e = pack('C8', 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0)
	. pack('n', $mfg) . pack('v', ($w ^ $h) & 0xffff) . pack('V', $w * 10000 + $h)
	. pack('C4', 1, 2026 - 1990, 1, 4)
	. pack('C5', 0xa0,             # digital, 8 bpc
		int(($wmm + 5) / 10), int(($hmm + 5) / 10),
		120,                   # gamma 2.2
		0x06)                  # sRGB default, preferred timing native
	. pack('C10', 0xee, 0x91, 0xa3, 0x54, 0x4c, 0x99, 0x26, 0x0f, 0x50, 0x54)
	. pack('C3', 0, 0, 0)
	. pack('C16', (1) x 16)
	. dtd()
	. text(0xfc, $name)
	. $range
	. pack('C18', 0, 0, 0, 0x10, (0) x 14)
	. pack('C', 0);
my $sum = 0;
$sum += $_ for unpack('C*', $e);
$e .= pack('C', (256 - $sum % 256) % 256);
die "make-edid: internal error: " . length($e) . " bytes\n" unless length($e) == 128;
binmode STDOUT;
print $e;
