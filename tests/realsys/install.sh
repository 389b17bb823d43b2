#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The real system's "installer" (tests/realsys/luks.sh): run once as init
# (init=) of the installed tree booted read-only from /dev/vdb, it lays out
# the target disk /dev/vda as Debian's installer does for "Guided - use
# entire disk and set up encrypted LVM" (the host made the GPT and /boot):
#   /dev/vda3: LUKS2 (argon2id, aes-xts-plain64, 512-bit volume key) with the
#   UUID and passphrase the host chose, holding LVM: VG VG, LVs root (the
#   tree, copied block by block with e2image) and swap_1 (mkswap);
# then, when the package has it and the host asks (enrol=1), enrols the TPM
# unlock on the new system, in a chroot of it (as the installer's in-target
# does): trusted-keys-luks enrol /dev/vda3 --key-file=- ENROL_OPTIONS; and
# when the host asks (clevis=1: tests/realsys/luks.sh's clevis variant),
# binds Clevis there too: clevis luks bind -d /dev/vda3 -k - tpm2
# '{"pcr_ids":"7"}' as documented, and where that is refused for want of
# a SHA-1 PCR bank (Clevis 19's default; this swtpm allocates SHA-256
# only), with '{"pcr_bank":"sha256","pcr_ids":"7"}'; then writes out what
# the comparison's bus scan looks for: the keyslot passphrase Clevis made (clevis luks pass), the JWK the
# TPM unseals for it (clevis-decrypt-tpm2's own trace: its tpm2_unseal
# output) and the volume key (luksDump --dump-volume-key).
# /dev/vdc carries a tar in (params, passphrase) and one out (luksDump,
# the enrolment's /etc/trusted-keys/luks and
# /etc/modprobe.d/trusted-keys-pin.conf): the host builds the initramfs
# after this boot, with them in it.
# For the rows that attack the unlock, when the host asks (params' third
# line, words pin and swap; the tar has pin and passphrase-attacker):
#   - the volume key as hex (volume-key), what the bus recordings are
#     searched for;
#   - pin: a second token, enrolled with --pin (the PIN typed by an askpass
#     of the test's own) on a backup of the header, so the disk keeps its
#     token (token-pin.json; the host puts it on a copy of the disk);
#   - swap: the attacker's volume on /dev/vdd3 (the host's GPT copy):
#     LUKS2 with the same UUID, another volume key and the attacker's
#     passphrase, LVM and the same tree inside, the real volume's token
#     copied into its header, and the real volume's keydigest in its
#     /etc/tek-realsys/real-keydigest (what the attacker tries the real
#     blob with once booted).
# KTAP on ttyS1; then powers off.
PATH=/usr/sbin:/usr/bin:/sbin:/bin
export PATH
mount -t proc proc /proc 2>/dev/null
mount -t sysfs sysfs /sys 2>/dev/null
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t tmpfs tmpfs /run
mount -t tmpfs tmpfs /tmp
exec 3>/dev/ttyS1
# no udev runs (this is init): libdevmapper makes the nodes itself
DM_DISABLE_UDEV=1
export DM_DISABLE_UDEV
# (and the root is read-only: no metadata backups under /etc/lvm)
LVMCONF='activation { udev_sync = 0 udev_rules = 0 } devices { obtain_device_list_from_udev = 0 }
backup { backup = 0 archive = 0 }'

io=/run/io
mkdir -p $io/in $io/out
tar -xf /dev/vdc -C $io/in 2>/dev/null
# params: UUID VG ROOT_MIB LUKS_OPTIONS... (one line); ENROL (0|1) and its
# options on the second; on the third CLEVIS (0|1), then the attack rows'
# disks to make (pin, swap; none: nothing)
{ read -r uuid vg root_mib luksopts; read -r enrol enrolopts; read -r clevis attacks; } <$io/in/params
[ "$clevis" = 1 ] || clevis=0
pass=$io/in/passphrase
dev=/dev/vda3
name=vda3_crypt
plan=7
case " $attacks " in *" pin "*) pin=1 plan=$((plan + 1)) ;; *) pin=0 ;; esac
case " $attacks " in *" swap "*) swap=1 plan=$((plan + 1)) ;; *) swap=0 ;; esac
[ -z "$attacks" ] || plan=$((plan + 1))

echo "KTAP version 1" >&3
echo "1..$((plan + 2 * clevis))" >&3
i=0
# t DESCRIPTION CMD...: one test point; CMD's output as diagnostics; its
# time in the description (s, the guest's clock)
t() {
	d=$1
	shift
	i=$((i + 1))
	t_start=$(cut -d' ' -f1 /proc/uptime)
	if "$@" >$io/out.log 2>&1; then
		echo "ok $i $d ($(awk -v a="$t_start" '{ printf "%.1f", $1 - a }' /proc/uptime) s)" >&3
	else
		sed 's/^/# /' $io/out.log >&3
		echo "not ok $i $d" >&3
		failed=1
	fi
}
failed=
# lvm_ CMD ARGS...: LVM without udev; a failure says why (-vvv, its end)
lvm_() {
	lvm "$@" --config "$LVMCONF" 3>&- && return 0
	lvm "$@" --config "$LVMCONF" -vvv 3>&- 2>&1 | tail -n 30
	return 1
}

# shellcheck disable=SC2086  # LUKS options, word by word
t "luksFormat --type luks2 --cipher aes-xts-plain64 --key-size 512 --pbkdf argon2id $luksopts" \
	cryptsetup luksFormat --batch-mode --type luks2 --cipher aes-xts-plain64 --key-size 512 \
	--pbkdf argon2id $luksopts --uuid "$uuid" --key-file "$pass" "$dev"
t "cryptsetup open $dev $name (the passphrase)" \
	cryptsetup open --key-file "$pass" --allow-discards "$dev" "$name"
lvs_() {
	lvm_ pvcreate "/dev/mapper/$name" &&
		lvm_ vgcreate "$vg" "/dev/mapper/$name" &&
		lvm_ lvcreate --yes -n root -L "${root_mib}m" "$vg" &&
		lvm_ lvcreate --yes -n swap_1 -l 100%FREE "$vg" &&
		lvm_ vgmknodes "$vg"
}
t "LVM: PV on $name, VG $vg, LVs root ($root_mib MiB) and swap_1" lvs_
# dm names double a dash: VG realsys-vg is realsys--vg
mvg=$(echo "$vg" | sed 's/-/--/g')
mkswap_() { [ -b "/dev/mapper/$mvg-swap_1" ] && mkswap "/dev/mapper/$mvg-swap_1"; }
t "mkswap /dev/mapper/$mvg-swap_1" mkswap_
copy_root() { [ -b "/dev/mapper/$mvg-root" ] && e2image -ra /dev/vdb "/dev/mapper/$mvg-root"; }
t "the root file system copied into /dev/mapper/$mvg-root (e2image -ra)" copy_root

# The enrolment, in the new system (a chroot of it), as the docs say.
target=/run/target
in_target() {
	mkdir -p $target &&
		mount "/dev/mapper/$mvg-root" $target &&
		mount --bind /dev $target/dev && mount --bind /proc $target/proc &&
		mount --bind /sys $target/sys && mount -t tmpfs tmpfs $target/run &&
		mount -t tmpfs tmpfs $target/tmp
}
do_enrol() {
	cryptsetup luksDump "$dev" >$io/out/luksdump-before.txt
	# (the mapping stays open: the enrolment must work on a volume in use)
	# shellcheck disable=SC2086,SC2016  # options, word by word; that sh's $0
	chroot $target /usr/bin/env -i PATH=$PATH DM_DISABLE_UDEV=1 sh -c \
		'modprobe trusted && printf "%s" "$(cat /run/pass)" |
		trusted-keys-luks enrol "$0" --key-file=- "$@"' "$dev" $enrolopts || return 1
	cryptsetup luksDump "$dev" >$io/out/luksdump.txt
	# what the initramfs needs of the enrolment: the volumes and their cap
	# PCRs, the pinned parent
	cp $target/etc/trusted-keys/luks $target/etc/modprobe.d/trusted-keys-pin.conf $io/out/ ||
		return 1
	chroot $target trusted-keys-luks status "$dev"
	cat $io/out/luks $io/out/trusted-keys-pin.conf
}
if [ "$enrol" = 1 ]; then
	if in_target && cp "$pass" $target/run/pass; then
		t "trusted-keys-luks enrol $dev --key-file=- $enrolopts (in the new system)" do_enrol
		rm -f $target/run/pass
	else
		t "the new system mounted for the enrolment" false
	fi
else
	i=$((i + 1))
	echo "ok $i enrolment # SKIP not asked for (the package has no trusted-keys-luks)" >&3
fi

# Clevis, as its documentation says, in the same new system: the existing
# passphrase on stdin (-k -), -y for its questions. Then what the host's
# bus scan looks for, in $io/out (the host keeps it 0600).
# clevis_bind CONFIG: clevis luks bind with the passphrase on stdin
clevis_bind() {
	# shellcheck disable=SC2016  # that sh's $0 and $1
	chroot $target /usr/bin/env -i PATH=$PATH sh -c \
		'printf "%s" "$(cat /run/pass)" | clevis luks bind -y -d "$0" -k - tpm2 "$1"' "$dev" "$1"
}
# The command as documented: bound (the TPM has a SHA-1 bank), or refused
# before anything is written, for want of one.
clevis_cfg='{"pcr_ids":"7"}'
do_clevis_doc() {
	cryptsetup luksDump "$dev" >$io/before.txt
	if clevis_bind "$clevis_cfg" >$io/clevis-doc.log 2>&1; then
		echo "$clevis_cfg" >$io/out/clevis-cfg
		cat $io/clevis-doc.log
		return 0
	fi
	cat $io/clevis-doc.log
	grep -q "Unable to validate combination of PCR bank 'sha1'" $io/clevis-doc.log || return 1
	cryptsetup luksDump "$dev" | cmp - $io/before.txt || { echo "the refused bind changed the header"; return 1; }
	echo '{"pcr_bank":"sha256","pcr_ids":"7"}' >$io/out/clevis-cfg
}
do_clevis() {
	clevis_cfg=$(cat $io/out/clevis-cfg)
	if [ -z "$(chroot $target clevis luks list -d "$dev")" ]; then
		b0=$(cut -d' ' -f1 /proc/uptime)
		clevis_bind "$clevis_cfg" || return 1
		# the bind's own time (the point's includes the scan's secrets)
		echo "# clevis luks bind alone: $(awk -v a="$b0" '{ printf "%.1f", $1 - a }' /proc/uptime) s" >&3
	fi
	chroot $target clevis luks list -d "$dev" | tee $io/out/clevis-list
	slot=$(sed -n 's/^\([0-9]*\): tpm2 .*pcr_ids.*/\1/p' $io/out/clevis-list | head -n 1)
	tok=$(cryptsetup luksDump "$dev" | sed -rn 's|^\s+([0-9]+): clevis|\1|p' | head -n 1)
	echo "clevis: keyslot $slot, token $tok"
	[ -n "$slot" ] && [ -n "$tok" ] || return 1
	# the keyslot passphrase Clevis made (what its initramfs types into
	# cryptroot's prompt), unsealed as the unlock does
	chroot $target clevis luks pass -d "$dev" -s "$slot" >$io/out/clevis-pass || return 1
	# the JWK the TPM unseals (tpm2_unseal's output, what crosses the bus):
	# the assignment in clevis-decrypt-tpm2's own trace (bash -x), the JWE
	# taken from the token as its initramfs script takes it
	# shellcheck disable=SC2016  # that sh's $0 and $1
	chroot $target /usr/bin/env -i PATH=$PATH sh -c \
		'cryptsetup token export --token-id "$1" "$0" | jose fmt -j- -Og jwe -o- |
		jose jwe fmt -i- -c | tr -d "\n" | bash -x /usr/bin/clevis-decrypt-tpm2 >/run/plain 2>/run/trace' \
		"$dev" "$tok" || { tail -n 20 $target/run/trace; return 1; }
	sed -n "s/^+* jwk='\(.*\)'\$/\1/p" $target/run/trace | head -n 1 >$io/out/clevis-jwk
	# the trace's plaintext is the keyslot passphrase: the JWK is the one
	[ "$(cat $target/run/plain)" = "$(cat $io/out/clevis-pass)" ] ||
		{ echo "the trace's plaintext is not clevis luks pass's"; return 1; }
	grep -q '"k":"' $io/out/clevis-jwk || { echo "no JWK in clevis-decrypt-tpm2's trace"; return 1; }
	rm -f $target/run/plain $target/run/trace
	cryptsetup luksDump --dump-volume-key --batch-mode --key-file "$pass" "$dev" |
		sed -n '/^MK dump:/,$p' | sed 's/^MK dump://' | tr -d ' \t\n' >$io/out/volume-key
	[ "$(wc -c <$io/out/volume-key)" = 128 ] || { echo "no 512-bit volume key from luksDump"; return 1; }
	echo "jwk: $(wc -c <$io/out/clevis-jwk) bytes; clevis passphrase: $(wc -c <$io/out/clevis-pass) bytes"
}
if [ "$clevis" = 1 ]; then
	if mountpoint -q $target && cp "$pass" $target/run/pass; then
		t "clevis luks bind -y -d $dev -k - tpm2 '$clevis_cfg' (as documented): bound, or refused for want of a SHA-1 PCR bank with the header unchanged" \
			do_clevis_doc
		sed 's/^/# /' $io/clevis-doc.log >&3
		t "clevis luks bind -y -d $dev -k - tpm2 '$(cat $io/out/clevis-cfg 2>/dev/null)' (in the new system)" do_clevis
		rm -f $target/run/pass
	else
		t "the new system mounted for clevis luks bind" false
		t "clevis luks bind" false
	fi
fi
# The volume key, for the host's search of the bus recordings (the
# test's own secret: no user keeps it).
vkey() {
	cryptsetup luksDump --dump-volume-key -q --volume-key-file /run/vk --key-file "$pass" "$dev" \
		>/dev/null || return 1
	od -An -v -tx1 /run/vk | tr -d ' \n' >$io/out/volume-key
	rm -f /run/vk
	[ "$(wc -c <$io/out/volume-key)" = 128 ]
}
[ -z "$attacks" ] || t "the volume key (512 bits) for the host's bus scans" vkey
# The PIN token: enrol --pin on a backup of the header (the disk keeps
# its token), the PIN typed by an askpass of our own; its token out.
pin_token() {
	hdr=$target/run/hdr
	cryptsetup luksHeaderBackup "$dev" --header-backup-file "$hdr" || return 1
	cp $io/in/pin $target/run/pin || return 1
	printf '#!/bin/sh\ncat /run/pin\n' >$target/run/askpass-pin
	chmod 0755 $target/run/askpass-pin
	ap=$(readlink -f $target/lib/cryptsetup/askpass)
	mount --bind $target/run/askpass-pin "$ap" || return 1
	# shellcheck disable=SC2086,SC2016  # options, word by word; that sh's $0
	chroot $target /usr/bin/env -i PATH=$PATH DM_DISABLE_UDEV=1 sh -c \
		'trusted-keys-luks enrol "$0" --key-file=/run/pass --pin --replace "$@"' /run/hdr $enrolopts
	rc=$?
	umount "$ap"
	[ $rc = 0 ] || return 1
	tok=$(chroot $target trusted-keys-luks header /run/hdr | sed -n 's/^token //p')
	cryptsetup token export --token-id "$tok" "$hdr" >$io/out/token-pin.json || return 1
	rm -f "$hdr" $target/run/pin
	grep -q '"pin":"1"' $io/out/token-pin.json
}
if [ "$pin" = 1 ]; then
	if [ "$enrol" = 1 ] && cp "$pass" $target/run/pass; then
		t "a token enrolled with --pin on a header backup (token-pin.json)" pin_token
		rm -f $target/run/pass
	else
		t "a token enrolled with --pin: no enrolment" false
	fi
fi
# (the real volume's token and keydigest, for the attacker's volume)
if [ "$swap" = 1 ] && [ "$enrol" = 1 ]; then
	tok=$(chroot $target trusted-keys-luks header "$dev" | sed -n 's/^token //p')
	cryptsetup token export --token-id "$tok" "$dev" >/run/real-token.json 2>/dev/null
	chroot $target trusted-keys-luks header "$dev" | sed -n 's/^digest //p' >/run/real-keydigest
fi
cryptsetup luksDump "$dev" >$io/out/luksdump.txt 2>&1
for m in $target/tmp $target/run $target/sys $target/proc $target/dev $target; do
	mountpoint -q "$m" && umount "$m"
done
close_() { lvm_ vgchange -an "$vg" && cryptsetup close "$name"; }
t "VG $vg deactivated, $name closed" close_

# The attacker's volume, made once the real one is closed (the same VG
# name): what a thief with the disk puts in its place.
attacker() {
	adev=/dev/vdd3
	if [ ! -s /run/real-token.json ] || [ ! -s /run/real-keydigest ]; then
		echo "no real token"
		return 1
	fi
	# shellcheck disable=SC2086  # LUKS options, word by word
	cryptsetup luksFormat --batch-mode --type luks2 --cipher aes-xts-plain64 --key-size 512 \
		--pbkdf argon2id $luksopts --uuid "$uuid" --key-file $io/in/passphrase-attacker "$adev" &&
		cryptsetup token import --json-file /run/real-token.json "$adev" &&
		cryptsetup open --key-file $io/in/passphrase-attacker "$adev" "$name" &&
		lvs_ && mkswap_ && copy_root || return 1
	mkdir -p /run/attacker &&
		mount "/dev/mapper/$mvg-root" /run/attacker &&
		mkdir -p /run/attacker/etc/tek-realsys &&
		cp /run/real-keydigest /run/attacker/etc/tek-realsys/real-keydigest
	rc=$?
	umount /run/attacker
	cryptsetup luksDump "$adev" >$io/out/luksdump-attacker.txt
	close_ && [ $rc = 0 ]
}
[ "$swap" = 0 ] || t "the attacker's volume on /dev/vdd3: same UUID, the real token, its own key" attacker
cp $io/out.log $io/out/last.log 2>/dev/null
# the way out: a tar at the start of /dev/vdc
tar -cf /dev/vdc -C $io/out . || echo "# install: cannot write /dev/vdc" >&3
[ -z "$failed" ] || echo "# install: a step failed" >&3
echo "# tk-init: done" >&3
sync
echo o >/proc/sysrq-trigger
while :; do :; done
