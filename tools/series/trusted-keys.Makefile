# SPDX-License-Identifier: GPL-2.0
#
# Makefile for trusted keys: the key type on a TPM 1.2 or 2.0, and the
# kernel-free message builders and parsers it uses (tk*.c)
#

obj-$(CONFIG_TRUSTED_KEYS) += trusted.o
@OBJS@

# every message begins with the module's name, "trusted: "
ccflags-y += -D'pr_fmt(fmt)=KBUILD_MODNAME ": " fmt'
