# SPDX-License-Identifier: GPL-2.0
# The guest library (busybox sh), the one line every test script sources:
#   here=${0%/*}
#   . "${TKH_LIB:-$here/../lib.sh}"
# It sources lib/ktap.sh (the KTAP writer, nothing else) and the fixtures
# every suite uses: lib/require.sh (t_require, t_impl), lib/mods.sh (which
# trusted.ko and encrypted-keys.ko are loaded), lib/keys.sh (keys in @u),
# lib/state.sh (state carried between the phases of a run), lib/util.sh
# (compare, hex), lib/dev.sh (raw TPM commands, dm-crypt mappings). A suite's own fixtures are rooms of lib/ that a script
# sources after this line, e.g. . "$here/../lib/tpm2.sh".
# Contract: docs/testing.md.
# shellcheck shell=sh

_t_lib=${TKH_LIB:-${here:-.}/../lib.sh}
_t_lib=${_t_lib%/*}/lib
# shellcheck source=lib/ktap.sh
. "$_t_lib/ktap.sh"
# shellcheck source=lib/require.sh
. "$_t_lib/require.sh"
# shellcheck source=lib/mods.sh
. "$_t_lib/mods.sh"
# shellcheck source=lib/keys.sh
. "$_t_lib/keys.sh"
# shellcheck source=lib/state.sh
. "$_t_lib/state.sh"
# shellcheck source=lib/util.sh
. "$_t_lib/util.sh"
# shellcheck source=lib/dev.sh
. "$_t_lib/dev.sh"
