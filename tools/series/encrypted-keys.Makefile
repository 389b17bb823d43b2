# SPDX-License-Identifier: GPL-2.0
#
# Makefile for encrypted keys
#

obj-$(CONFIG_ENCRYPTED_KEYS) += encrypted-keys.o
@OBJS@

# every message begins with the module's name, "encrypted_keys: "
ccflags-y += -D'pr_fmt(fmt)=KBUILD_MODNAME ": " fmt'
