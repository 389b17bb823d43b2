/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Strict hex and number parsing shared by both key types.
 * Kernel-free: builds unchanged in the kernel and in tests/host.
 */
#ifndef TK_HEX_H
#define TK_HEX_H

#include <linux/types.h>
#include <linux/errno.h>
#include <linux/kernel.h>

/*
 * Decode @srclen hex digits from @src into @dst. Refuses an odd count,
 * a non-hex digit and a result larger than @dstmax. Returns the number of
 * bytes written or a negative errno.
 */
static inline int tk_hex_decode(u8 *dst, size_t dstmax, const char *src,
				size_t srclen)
{
	size_t i;

	if (srclen % 2)
		return -EINVAL;
	if (srclen / 2 > dstmax)
		return -E2BIG;
	for (i = 0; i < srclen; i += 2) {
		int hi = hex_to_bin(src[i]);
		int lo = hex_to_bin(src[i + 1]);

		if (hi < 0 || lo < 0)
			return -EINVAL;
		dst[i / 2] = (u8)((hi << 4) | lo);
	}
	return (int)(srclen / 2);
}

/*
 * Parse an unsigned 32-bit number: decimal when @base is 10, hex (with an
 * optional 0x prefix) when @base is 16. The whole string must be digits.
 */
static inline int tk_parse_u32(const char *s, unsigned int base, u32 *out)
{
	u64 v = 0;
	int d;

	if (base == 16 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		d = hex_to_bin(*s);
		if (d < 0 || (unsigned int)d >= base)
			return -EINVAL;
		v = v * base + (unsigned int)d;
		if (v > 0xffffffffULL)
			return -ERANGE;
	}
	*out = (u32)v;
	return 0;
}

#endif /* TK_HEX_H */
