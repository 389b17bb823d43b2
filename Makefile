# SPDX-License-Identifier: GPL-2.0
# Front end. `make demo` and `make check` do all set-up on a fresh Debian 12.

SHELL := /bin/bash
TOP := $(CURDIR)
CACHE ?= $(HOME)/.cache/tek
export TKH_CACHE := $(CACHE)

# KDIR: the kernel tree `make` and `make modules` build src/ against: the
# running kernel's headers by default (Debian: linux-headers-$(uname -r)),
# any prepared tree with KDIR=. Neither ever builds a kernel: the test kernel
# is built (once, cached) by the targets that boot it (guest-test, check,
# bench...), and make modules KDIR=$$(tests/qemu/build-kernel.sh) uses it.
KDIR ?= /lib/modules/$(shell uname -r)/build

.PHONY: all modules clean deps lint host-test fuzz fuzz-long guest-test check demo bench bench-enc deb pkg-test trixie-test series73-test \
	relay-test relay-fuzz stress tools bench-tpm2 realsys realsys-uefi realsys-uefi-luks clevis-compare minroot series series-check series-debian series-deb help

# Bare make: the modules against the running kernel's headers, or, where
# there are none, what to type instead (nothing built, nothing started).
all:
	@if [ -f "$(KDIR)/Makefile" ]; then \
		$(MAKE) --no-print-directory modules; \
	else \
		echo "make: no kernel headers at $(KDIR): nothing built"; \
		echo "  apt install linux-headers-$$(uname -r), or make modules KDIR=<prepared tree>"; \
		echo; \
		$(MAKE) --no-print-directory help; \
	fi

modules:
	@[ -f "$(KDIR)/Makefile" ] || { \
		echo "make modules: no kernel tree at $(KDIR): KDIR=<prepared tree>" \
			"(the test kernel: KDIR=\$$(tests/qemu/build-kernel.sh))" >&2; exit 2; }
	$(MAKE) -C $(KDIR) M=$(TOP)/src modules

# User-space tools: tools/trusted-policy (signed PCR policies; libssl-dev).
tools:
	$(MAKE) -C $(TOP)/tools

clean:
	$(MAKE) -C $(TOP)/tests/host clean
	$(MAKE) -C $(TOP)/tools clean
	rm -rf $(TOP)/src/*.o $(TOP)/src/*.ko $(TOP)/src/*/*.o $(TOP)/src/.*.cmd \
	       $(TOP)/src/*/.*.cmd $(TOP)/src/*.mod* $(TOP)/src/Module.symvers \
	       $(TOP)/src/modules.order $(TOP)/src/.tmp_versions $(TOP)/build

deps:
	$(TOP)/tests/deps.sh

lint: deps
	$(TOP)/tests/lint.sh

host-test:
	$(MAKE) --no-print-directory -C $(TOP)/tests/host test

fuzz:
	$(MAKE) --no-print-directory -C $(TOP)/tests/host fuzz

# make check runs 8 s a fuzz target (TKH_FUZZ_TIME), make fuzz 20 s; this, 5 minutes.
fuzz-long:
	$(MAKE) --no-print-directory -C $(TOP)/tests/host fuzz FUZZ_TIME=300 FUZZ_RUNS=1000000000

guest-test: deps
	$(TOP)/tests/qemu/run-all.sh

check: deps
	$(TOP)/tests/check.sh

# make demo: Debian's own kernel with our trusted.ko, a swtpm TPM 2.0 behind
# the recording relay (tests/qemu/demo.sh); make demo TPM=1.2: the TPM 1.2
# keyctl session. It runs tests/deps.sh itself, timed apart.
TPM ?= 2.0
demo:
	$(TOP)/tests/qemu/demo.sh --deps $(TPM)

# The relay between QEMU and swtpm (tests/relay): its host self-test, then a
# TPM 2.0 and a TPM 1.2 boot recording the bus (leak detector, tampering, a
# short fuzz slice); relay-fuzz: long fuzz runs, several seeds.
relay-test: deps
	python3 $(TOP)/tests/relay/relay_test.py
	$(TOP)/tests/relay/run.sh

relay-fuzz: deps
	$(TOP)/tests/relay/run.sh --fuzz

bench: deps
	$(TOP)/tests/qemu/bench.sh
	$(TOP)/tests/qemu/bench-enc.sh

# TPM 2.0: ms, ops/s and TPM commands per operation, ours (sessions) vs in-tree.
bench-tpm2: deps
	$(TOP)/tests/qemu/bench-tpm2.sh

bench-enc: deps
	$(TOP)/tests/qemu/bench-enc.sh

# Long fault injection, differential fuzzing and concurrency runs (issue 9);
# builds the stress kernel (SMP, PREEMPT, lockdep) on first use.
stress: deps
	$(TOP)/tests/stress/run.sh

# The packages: build/deb/trusted-encrypted-keys-dkms_<version>_all.deb (the
# module sources, the scripts) and build/deb/trusted-keys-tools_<version>_<arch>.deb
# (trusted-policy, tk-pcr-predict); both lintian-clean.
deb: deps
	$(TOP)/tests/pkg/build-deb.sh

# As a user would: make deb, apt install of both, DKMS builds for the stock kernels,
# signing for the test kernel, apt purge (root; tests/pkg/dkms-test.sh), then
# the machines of run-all.sh's table pkg-full boot the modules DKMS built.
pkg-test: deps
	$(TOP)/tests/qemu/run-all.sh --table pkg-full

# Debian 13's kernels (trixie's 6.12, trixie-backports' 7.3) with our modules
# built in a trixie root (tests/qemu/root.sh; root: its chroot).
trixie-test: deps
	$(TOP)/tests/qemu/run-all.sh --table trixie

# The 7.3 tree (docs/series.md): kernels built from Debian's
# linux-source-7.3 (trixie-backports), one with the series (the EVM
# suite), one unpatched with TRUSTED_KEYS=m (its trusted.ko against ours).
# Not in check: two kernel builds the first time.
series73-test: deps
	$(TOP)/tests/qemu/run-all.sh --table series73

# The boot path on a real installed Debian 12 (issue 23): mmdebstrap, our
# .deb by apt (DKMS), volumes enrolled by docs/install.md, update-initramfs
# (tests/realsys/prepare.sh), then the table's boots of the stock kernel
# with systemd and a swtpm TPM 2.0 (root or sudo -n; 2-3 minutes, some 10
# more the first time: the Debian base is cached in ~/.cache/tek/realsys);
# then the LUKS2 machines of Debian 12 and 13 as the installer lays them out
# (tests/realsys/luks.sh; table realsys-luks, some 40 more minutes: the
# Debian 12 machine also makes the attack rows' disks).
realsys: deps
	$(TOP)/tests/qemu/run-all.sh --table realsys,realsys-refused,realsys-luks

# Debian's real boot chain: OVMF in Secure Boot mode (Microsoft's keys),
# Debian's signed shim, GRUB and kernel from the disk, a swtpm TPM 2.0; the
# event log replayed and this boot's PCRs 4, 7, 8, 9 predicted from the
# disk's files (tests/realsys/uefi.sh; root; some 3-5 minutes under TCG).
realsys-uefi: deps
	$(TOP)/tests/realsys/uefi.sh $(or $(TKH_RUN),$(TOP)/build/realsys-uefi) $(or $(TKH_REALSYS_RELEASE),bookworm)

# The same chain with our module (DKMS's MOK key in shim's MokList) opening
# a LUKS2 volume with a signed policy: enrolment, a kernel update by apt in
# the machine, revoke-older, the old kernel from GRUB's menu and
# init=/bin/sh at GRUB's prompt asking for the passphrase
# (tests/realsys/uefi-luks.sh; root; five boots, some 30-40 minutes).
realsys-uefi-luks: deps
	$(TOP)/tests/realsys/uefi-luks.sh $(or $(TKH_RUN),$(TOP)/build/realsys-uefi-luks) $(or $(TKH_REALSYS_RELEASE),bookworm)

# Ours and Clevis 19 side by side on one Debian 12 LUKS2 machine (table
# realsys-clevis, tests/realsys/compare.sh: root; a preparation of some 10
# minutes, then 4 boots one at a time), then the comparison's table: the
# enrolment, the time to the root, the TPM bus, a PCR change.
clevis-compare: deps
	$(TOP)/tests/realsys/compare.sh

# make check's stages that boot nothing (deps, host, fuzz, lint, docs) and
# make deb, in a minimal Debian 12 root (mmdebstrap --variant=minbase) with
# nothing but what tests/deps.sh installs, on a clean clone of HEAD: what a
# fresh machine lacks and ours have by chance (tests/minroot.sh; root;
# the root is cached in ~/.cache/tek/minroot until deps.sh changes).
minroot: deps
	$(TOP)/tests/minroot.sh

# The in-tree patch series (docs/series.md): build/series/6.1/ and
# build/series/6.12/ from src/, for apt's linux-source-6.1 and -6.12
# (their unpacked trees cached as git repositories in ~/.cache/tek/series).
# SERIES_VERSIONS="6.1" for one of them; SERIES_VERSIONS=7.3 for mainline
# 7.3 (Debian trixie-backports' linux-source-7.3, fetched into the cache).
SERIES_VERSIONS ?= 6.1 6.12
series:
	$(TOP)/tools/series/mkseries.sh $(SERIES_VERSIONS)

# Each patch applied with git am and security/keys/ built after it (both
# types =y and =m), checkpatch --strict, then vmlinux and modules; takes the
# heavy lock (some 10 minutes a version the first time, ccache after).
series-check: series
	$(TOP)/tools/series/check-series.sh $(SERIES_VERSIONS)

# The 6.1 series under Debian's own config-6.1.0-*-amd64 with TRUSTED_KEYS=y:
# security/keys/, security/integrity/ and dm-crypt.o built unpatched and
# patched, no new warning (heavy lock). series-deb: the full bindeb-pkg of
# the patched tree, LOCALVERSION=-tek; not in check, not in CI (over an hour).
series-debian:
	$(TOP)/tools/series/mkseries.sh 6.1
	$(TOP)/tools/series/check-debian.sh

series-deb:
	$(TOP)/tools/series/mkseries.sh 6.1
	$(TOP)/tools/series/deb-package.sh

help:
	@echo 'make demo          the documented session in a QEMU guest (TPM 1.2)'
	@echo 'make check         everything: host tests, fuzz, lint, guest suites, package test'
	@echo 'make, make modules build src/ against KDIR (default: the running kernel'"'"'s headers)'
	@echo 'make lint | host-test | fuzz | guest-test | deb | pkg-test | trixie-test | realsys | realsys-uefi | realsys-uefi-luks | clevis-compare'
	@echo 'make bench | bench-enc | bench-tpm2 | relay-test | stress | tools | minroot'
	@echo 'make series        the in-tree patch series: build/series/{6.1,6.12}/ (docs/series.md)'
	@echo 'make series-check  apply it patch by patch, build each step (=y, =m), checkpatch --strict'
	@echo 'make series73-test the 7.3 tree: EVM and trusted suites on the series, in-tree 7.3 trusted.ko vs ours'
	@echo 'make series-debian 6.1 series with Debian'"'"'s config + TRUSTED_KEYS=y: no new warning'
	@echo 'make series-deb    bindeb-pkg of the patched 6.1 tree, Debian config (over an hour; not in check)'
